import { z } from 'zod';
import { temporalConfigFromEnv, type TemporalConnectionConfig } from '../client/connection-config';
import { refuseKnownSecrets } from '../security/known-secrets';
import { codecConfigFromEnv, type CodecConfig } from '../codec/data-converter';
import { ingressTelemetryConfigFromEnv, type IngressTelemetryConfig } from '../telemetry/ingress-telemetry';
import { tracingConfigFromEnv, type TracingConfig } from '../telemetry/tracing';
import { withSecretFiles } from '../support/secret-files';
import { parseEnvironment, type Environment } from '../support/environment';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_IN_FLIGHT,
} from './node-server';

export const DEFAULT_INGRESS_PORT = 4020;
export const DEFAULT_INGRESS_PATH = '/webhooks';

const IngressEnvSchema = z.object({
  XBORDER_INGRESS_HOST: z.string().min(1).default('127.0.0.1'),
  XBORDER_INGRESS_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_INGRESS_PORT),
  XBORDER_INGRESS_PATH: z.string().startsWith('/').default(DEFAULT_INGRESS_PATH),
  /** Comma-separated `whsec_…` secrets; several during a rotation. */
  XBORDER_WEBHOOK_SECRETS: z
    .string({ error: 'XBORDER_WEBHOOK_SECRETS is required: the webhook signing secret(s), comma-separated' })
    .min(1, 'XBORDER_WEBHOOK_SECRETS is required: the webhook signing secret(s), comma-separated'),
  XBORDER_WEBHOOK_TOLERANCE_SEC: z.coerce.number().int().positive().default(300),
  XBORDER_TASK_QUEUE: z.string().min(1).default('xborder'),
  /** Webhooks handled at once; more wait in line, and one that waited 5 s is answered 503 (node-server.ts: why). */
  XBORDER_INGRESS_MAX_IN_FLIGHT: z.coerce.number().int().positive().default(DEFAULT_MAX_IN_FLIGHT),
  /** Bytes of webhook bodies held in memory at once, all requests together; past it 503 + Retry-After (node-server.ts: why). */
  XBORDER_INGRESS_MAX_BUFFERED_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(DEFAULT_MAX_BUFFERED_BYTES),
  /** Open connections at once; Node drops the ones past it. */
  XBORDER_INGRESS_MAX_CONNECTIONS: z.coerce.number().int().positive().default(DEFAULT_MAX_CONNECTIONS),
  XBORDER_INGRESS_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_HEADERS_TIMEOUT_MS),
  /** Time to receive a body once the headers are in; then 408 and the connection is closed. */
  XBORDER_INGRESS_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_BODY_TIMEOUT_MS),
});

/** Every variable of the ingress's own (TEMPORAL_ENV_VARS besides); the compose test checks temporal-docker against it. */
export const INGRESS_ENV_VARS = Object.keys(IngressEnvSchema.shape) as ReadonlyArray<
  keyof typeof IngressEnvSchema.shape
>;

/** The ingress's variables that hold a secret, each also read as `<NAME>_FILE` (docs/deployment.md, "Secrets"). */
export const INGRESS_SECRET_ENV_VARS = ['XBORDER_WEBHOOK_SECRETS'] as const;

/** Everything the ingress process reads from its environment, once, at its entry (main.ts, lambda-main.ts). */
export interface IngressConfig {
  temporal: TemporalConnectionConfig;
  /** Payload keys of the client that signals the entities (docs/codec.md). */
  codec: CodecConfig;
  tracing: TracingConfig;
  /** Metrics endpoint (the Node server only) and log level. */
  telemetry: IngressTelemetryConfig;
  host: string;
  port: number;
  path: string;
  secrets: string[];
  toleranceSec: number;
  taskQueue: string;
  maxInFlight: number;
  maxBufferedBytes: number;
  maxConnections: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export function ingressConfigFromEnv(given: Environment): IngressConfig {
  // XBORDER_WEBHOOK_SECRETS_FILE: the secrets from a mounted file (src/support/secret-files.ts)
  const env = withSecretFiles(given, INGRESS_SECRET_ENV_VARS, 'ingress');
  const e = parseEnvironment(IngressEnvSchema, env, 'ingress');
  const secrets = e.XBORDER_WEBHOOK_SECRETS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  refuseKnownSecrets('XBORDER_WEBHOOK_SECRETS', secrets, 'webhook-secret');
  return {
    temporal: temporalConfigFromEnv(env),
    codec: codecConfigFromEnv(env),
    tracing: tracingConfigFromEnv(env),
    telemetry: ingressTelemetryConfigFromEnv(env),
    host: e.XBORDER_INGRESS_HOST,
    port: e.XBORDER_INGRESS_PORT,
    path: e.XBORDER_INGRESS_PATH,
    secrets,
    toleranceSec: e.XBORDER_WEBHOOK_TOLERANCE_SEC,
    taskQueue: e.XBORDER_TASK_QUEUE,
    maxInFlight: e.XBORDER_INGRESS_MAX_IN_FLIGHT,
    maxBufferedBytes: e.XBORDER_INGRESS_MAX_BUFFERED_BYTES,
    maxConnections: e.XBORDER_INGRESS_MAX_CONNECTIONS,
    headersTimeoutMs: e.XBORDER_INGRESS_HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: e.XBORDER_INGRESS_BODY_TIMEOUT_MS,
  };
}
