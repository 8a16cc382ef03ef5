import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnv } from '../codec/data-converter';
import { connectionOptionsOf, temporalConfigFromEnv, type TemporalConnectionConfig } from './connection-config';
import { currentTracing, tracingModeFromEnv } from '../telemetry/tracing';

export interface ConnectClientOptions {
  /**
   * Traces (issue 14): start, signal, update and query calls get a span whose context travels to the workflow
   * in the headers. Default: on when this process installed tracing or the environment turns it on
   * (XBORDER_TRACING=otlp or an OTLP endpoint; a host application then brings its own tracer provider).
   */
  tracing?: boolean;
}

/**
 * A Temporal client for backend services, configured from temporal.toml / the environment
 * (temporalConfigFromEnv) unless a config is given. Payloads are encrypted with the keys of
 * XBORDER_CODEC_KEYS(_FILE) unless a data converter is given (docs/codec.md). Traces: ConnectClientOptions.
 */
export async function connectClient(
  config: TemporalConnectionConfig = temporalConfigFromEnv(),
  dataConverter: DataConverter = dataConverterFromEnv(),
  options: ConnectClientOptions = {},
): Promise<Client> {
  const tracing = options.tracing ?? (currentTracing() !== null || tracingModeFromEnv() === 'otlp');
  const connection = await Connection.connect(connectionOptionsOf(config));
  return new Client({
    connection,
    namespace: config.namespace,
    dataConverter,
    ...(tracing ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
}
