// The one place of xborder/client that reads process.env: the documented convenience a backend service calls, by
// name, at its own start (docs/backend.md). Everything else in the library takes the typed
// configuration its caller read (docs/architecture.md, "Configuration").
import type { Client } from '@temporalio/client';
import { codecConfigFromEnv, dataConverterOf } from '../codec/data-converter';
import { currentTracing, tracingModeFromEnv } from '../telemetry/tracing';
import type { Environment } from '../support/environment';
import { connectClient, type ConnectClientOptions } from './connect';
import { temporalConfigFromEnv } from './connection-config';

/**
 * A Temporal client configured from the environment, the way Temporal's own tools are: a temporal.toml profile
 * and TEMPORAL_* variables (temporalConfigFromEnv), payloads encrypted with the keys of XBORDER_CODEC_KEYS(_FILE)
 * (docs/codec.md; no keys is an error unless XBORDER_CODEC=disabled), traces when this process installed tracing
 * or XBORDER_TRACING=otlp / an OTLP endpoint variable turns them on. Every variable is read during this call.
 */
export async function connectClientFromEnv(
  env: Environment = process.env,
  options: ConnectClientOptions = {},
): Promise<Client> {
  const temporal = temporalConfigFromEnv(env);
  const dataConverter = dataConverterOf(codecConfigFromEnv(env));
  const tracing = options.tracing ?? (currentTracing() !== null || tracingModeFromEnv(env) === 'otlp');
  return connectClient(temporal, dataConverter, { ...options, tracing });
}
