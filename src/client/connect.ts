import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { DataConverter } from '@temporalio/common';
import { connectionOptionsOf, type TemporalConnectionConfig } from './connection-config';
import { currentTracing } from '../telemetry/tracing';

/** connectClient's options: tracing and the connect timeout. */
export interface ConnectClientOptions {
  /**
   * Traces: start, signal, update and query calls get a span whose context travels to the workflow
   * in the headers. Default: on when this process installed tracing (connectClientFromEnv also turns it on
   * when the environment does: a host application then brings its own tracer provider).
   */
  tracing?: boolean;
  /** How long to wait for the server before giving up (default: the SDK's 10 s). */
  connectTimeoutMs?: number;
}

/**
 * A Temporal client from configuration its caller read (the process's entry: temporalConfigFromEnv,
 * dataConverterOf(codecConfigFromEnv(...))). Payloads are encrypted by `dataConverter` (docs/codec.md).
 * Backend services that configure from the environment call connectClientFromEnv().
 */
export async function connectClient(
  config: TemporalConnectionConfig,
  dataConverter: DataConverter,
  options: ConnectClientOptions = {},
): Promise<Client> {
  // Checked before connecting: a JavaScript caller that leaves it out would send plaintext, which xborder's workers
  // refuse (docs/codec.md, "Ciphertext only"): a payment would start and fail its first task, its key taken.
  if (typeof dataConverter !== 'object' || dataConverter === null)
    throw new TypeError(
      'connectClient(config, dataConverter): no data converter given. xborder encrypts every payload and its workers ' +
        'refuse plaintext: pass dataConverterOf(codecConfigFromEnv(<your environment>)), or call connectClientFromEnv() ' +
        '(TEMPORAL_* and XBORDER_CODEC_KEYS(_FILE), as `npm start` prints them)',
    );
  const tracing = options.tracing ?? currentTracing() !== null;
  const connection = await Connection.connect({
    ...connectionOptionsOf(config),
    ...(options.connectTimeoutMs !== undefined ? { connectTimeout: options.connectTimeoutMs } : {}),
  });
  return new Client({
    connection,
    namespace: config.namespace,
    dataConverter,
    ...(tracing ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
}
