import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * Temporal connection settings from the environment, with the same variable names as the Temporal
 * CLI's own (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS_*), so one shell
 * set-up serves the CLI, the worker, the ingress and backend services alike.
 */
const EnvSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS: z.enum(['true', 'false']).optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_KEY_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
});

/** Every variable temporalConfigFromEnv reads (temporal-docker's compose test checks its files against it). */
export const TEMPORAL_ENV_VARS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof typeof EnvSchema.shape>;

export interface TemporalConnectionConfig {
  address: string;
  namespace: string;
  /** Temporal Cloud API key; never logged. */
  apiKey?: string;
  tls?: {
    serverNameOverride?: string;
    serverRootCACertificate?: Buffer;
    clientCertPair?: { crt: Buffer; key: Buffer };
  };
}

export function temporalConfigFromEnv(env: NodeJS.ProcessEnv = process.env): TemporalConnectionConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid Temporal connection environment: ${problems}`);
  }
  const e = parsed.data;
  if (Boolean(e.TEMPORAL_TLS_CLIENT_CERT_PATH) !== Boolean(e.TEMPORAL_TLS_CLIENT_KEY_PATH)) {
    throw new Error('Set both TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH for mTLS, or neither.');
  }
  const wantsTls = e.TEMPORAL_TLS === 'true' || Boolean(e.TEMPORAL_API_KEY) || Boolean(e.TEMPORAL_TLS_CLIENT_CERT_PATH);
  const config: TemporalConnectionConfig = { address: e.TEMPORAL_ADDRESS, namespace: e.TEMPORAL_NAMESPACE };
  if (e.TEMPORAL_API_KEY) config.apiKey = e.TEMPORAL_API_KEY;
  if (wantsTls && e.TEMPORAL_TLS !== 'false') {
    config.tls = {
      ...(e.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: e.TEMPORAL_TLS_SERVER_NAME } : {}),
      ...(e.TEMPORAL_TLS_SERVER_CA_CERT_PATH ? { serverRootCACertificate: readFileSync(e.TEMPORAL_TLS_SERVER_CA_CERT_PATH) } : {}),
      ...(e.TEMPORAL_TLS_CLIENT_CERT_PATH && e.TEMPORAL_TLS_CLIENT_KEY_PATH
        ? { clientCertPair: { crt: readFileSync(e.TEMPORAL_TLS_CLIENT_CERT_PATH), key: readFileSync(e.TEMPORAL_TLS_CLIENT_KEY_PATH) } }
        : {}),
    };
  }
  return config;
}

/** The config with secrets removed, safe for logs. */
export function describeTemporalConfig(config: TemporalConnectionConfig): string {
  const auth = config.apiKey ? 'api-key' : config.tls?.clientCertPair ? 'mTLS' : 'none';
  return `${config.address} namespace=${config.namespace} tls=${config.tls ? 'on' : 'off'} auth=${auth}`;
}
