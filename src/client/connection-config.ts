import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile } from '@temporalio/envconfig';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { ConfigurationError, type Environment } from '../support/environment';
import { withSecretFiles } from '../support/secret-files';

/**
 * Temporal connection settings the way Temporal's own tools read them (`@temporalio/envconfig`, what the
 * Temporal CLI uses): a profile of `temporal.toml` (TEMPORAL_CONFIG_FILE, else the user's config dir;
 * TEMPORAL_PROFILE, else `default`), overridden by TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY,
 * TEMPORAL_TLS*, TEMPORAL_TLS_*_PATH / *_DATA and TEMPORAL_GRPC_META_*. One shell set-up serves the Temporal
 * CLI, the worker, the ingress, `xborder` and backend services alike.
 *
 * What we add to envconfig (docs/deployment.md, "Connecting to Temporal"): a file that is named but missing,
 * unreadable TOML, unknown keys and wrong types are errors naming the file and the field (envconfig would
 * silently fall back to 127.0.0.1:7233); TEMPORAL_TLS must be 1/0/true/false; a client certificate needs its
 * key; defaults are 127.0.0.1:7233 and namespace `default`.
 */
const EnvSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).optional(),
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  /** the API key from a mounted file instead (a Docker secret: not in the environment; src/support/secret-files.ts) */
  TEMPORAL_API_KEY_FILE: z.string().min(1).optional(),
  TEMPORAL_TLS: z
    .enum(['1', '0', 'true', 'false'], { error: 'TEMPORAL_TLS must be 1, 0, true or false' })
    .optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_KEY_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_CERT_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_KEY_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  TEMPORAL_CONFIG_FILE: z.string().min(1).optional(),
  TEMPORAL_PROFILE: z.string().min(1).optional(),
});

/**
 * Every fixed variable temporalConfigFromEnv reads (temporal-docker's compose test checks its files against
 * it). gRPC metadata comes from TEMPORAL_GRPC_META_<HEADER> besides.
 */
export const TEMPORAL_ENV_VARS = Object.keys(EnvSchema.shape) as ReadonlyArray<keyof typeof EnvSchema.shape>;
/** The connection's variables that hold a secret, each also read as `<NAME>_FILE` (docs/deployment.md, "Secrets"). */
export const TEMPORAL_SECRET_ENV_VARS = ['TEMPORAL_API_KEY'] as const;
export const GRPC_META_ENV_PREFIX = 'TEMPORAL_GRPC_META_';

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

/** Where and how to reach Temporal (temporalConfigFromEnv's answer, connectClient's input); holds secrets: never log it. */
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
  /** gRPC headers sent with every call (profile `grpc_meta`, TEMPORAL_GRPC_META_*); values never logged. */
  metadata?: Record<string, string>;
  /** Where the settings came from, for messages: the config file and profile, when one was read. */
  source?: { file: string; profile: string };
}

// The keys of a temporal.toml profile (Temporal's envconfig format). `codec` is Temporal's remote codec
// server setting: accepted so one file serves the Temporal CLI too, not used by xborder.
const TlsTable = z.strictObject({
  disabled: z.boolean().optional(),
  server_name: z.string().min(1).optional(),
  client_cert_path: z.string().min(1).optional(),
  client_cert_data: z.string().min(1).optional(),
  client_key_path: z.string().min(1).optional(),
  client_key_data: z.string().min(1).optional(),
  server_ca_cert_path: z.string().min(1).optional(),
  server_ca_cert_data: z.string().min(1).optional(),
});
const ProfileTable = z.strictObject({
  address: z.string().min(1).optional(),
  namespace: z.string().min(1).optional(),
  api_key: z.string().min(1).optional(),
  tls: TlsTable.optional(),
  codec: z.strictObject({ endpoint: z.string().optional(), auth: z.string().optional() }).optional(),
  grpc_meta: z.record(z.string(), z.string()).optional(),
});
const ConfigFile = z.strictObject({ profile: z.record(z.string(), ProfileTable).optional() });

/** The error of a connection setting: names the file (when one) and every field with its rule. */
export class TemporalConfigError extends Error {
  readonly type = 'TemporalConfigError';
  constructor(message: string) {
    super(message);
    this.name = 'TemporalConfigError';
  }
}

/** Where envconfig looks when TEMPORAL_CONFIG_FILE is unset (same rules as the Temporal CLI). */
export function defaultTemporalConfigFile(env: NodeJS.ProcessEnv): string | undefined {
  const platform = os.platform();
  if (platform === 'win32')
    return env.APPDATA ? path.join(env.APPDATA, 'temporalio', 'temporal.toml') : undefined;
  if (platform === 'darwin')
    return env.HOME
      ? path.join(env.HOME, 'Library', 'Application Support', 'temporalio', 'temporal.toml')
      : undefined;
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg) return path.isAbsolute(xdg) ? path.join(xdg, 'temporalio', 'temporal.toml') : undefined;
  return env.HOME ? path.join(env.HOME, '.config', 'temporalio', 'temporal.toml') : undefined;
}

function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((i) => {
      const field = i.path.map(String).join('.');
      const keys = i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : '';
      return `${field || '(top level)'}: ${i.message}${keys}`;
    })
    .join('; ');
}

/** Reads and checks the config file; undefined when none is named and the default one does not exist. */
function readConfigFile(env: NodeJS.ProcessEnv): { file: string; text: string } | undefined {
  const named = env.TEMPORAL_CONFIG_FILE;
  const file = named ?? defaultTemporalConfigFile(env);
  if (!file) return undefined;
  if (!named && !existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TemporalConfigError(
      `Temporal config file ${file} (TEMPORAL_CONFIG_FILE) cannot be read: ${(error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch (error) {
    throw new TemporalConfigError(
      `Temporal config file ${file} is not valid TOML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const checked = ConfigFile.safeParse(parsed);
  if (!checked.success)
    throw new TemporalConfigError(`Temporal config file ${file}: ${formatIssues(checked.error.issues)}`);
  for (const [name, profile] of Object.entries(checked.data.profile ?? {})) {
    for (const which of ['client_cert', 'client_key', 'server_ca_cert'] as const) {
      if (profile.tls?.[`${which}_path`] && profile.tls[`${which}_data`]) {
        throw new TemporalConfigError(
          `Temporal config file ${file}: profile.${name}.tls: set ${which}_path or ${which}_data, not both`,
        );
      }
    }
  }
  return { file, text };
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * THE one entry point for Temporal connection settings (client, worker, ingress, CLI). Synchronous: reads the
 * config file and certificate files with readFileSync. Throws TemporalConfigError naming the file and fields.
 */
export function temporalConfigFromEnv(given: Environment): TemporalConnectionConfig {
  let env: Environment;
  try {
    env = withSecretFiles(given, TEMPORAL_SECRET_ENV_VARS, 'Temporal connection');
  } catch (error) {
    if (error instanceof ConfigurationError) throw new TemporalConfigError(error.message);
    throw error;
  }
  const parsedEnv = EnvSchema.safeParse(env);
  if (!parsedEnv.success)
    throw new TemporalConfigError(
      `Invalid Temporal connection environment: ${formatIssues(parsedEnv.error.issues)}`,
    );
  const e = parsedEnv.data;
  if (e.TEMPORAL_TLS_CLIENT_CERT_PATH && e.TEMPORAL_TLS_CLIENT_CERT_DATA) {
    throw new TemporalConfigError(
      'Set TEMPORAL_TLS_CLIENT_CERT_PATH or TEMPORAL_TLS_CLIENT_CERT_DATA, not both.',
    );
  }
  const configFile = readConfigFile(env);
  if (!configFile && e.TEMPORAL_PROFILE) {
    const looked = defaultTemporalConfigFile(env) ?? '(no config directory: set TEMPORAL_CONFIG_FILE)';
    throw new TemporalConfigError(
      `TEMPORAL_PROFILE=${e.TEMPORAL_PROFILE} but there is no Temporal config file (looked for ${looked})`,
    );
  }
  const profileName = e.TEMPORAL_PROFILE ?? 'default';
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({
      ...(configFile ? { configSource: { data: configFile.text } } : { disableFile: true }),
      ...(e.TEMPORAL_PROFILE ? { profile: e.TEMPORAL_PROFILE } : {}),
      overrideEnvVars: definedOnly(env),
    });
  } catch (error) {
    const where = configFile
      ? `Temporal config file ${configFile.file}: `
      : 'Temporal connection environment: ';
    const message = (error as Error).message.replace(
      /^Profile '(.*)' not found in config data$/,
      'no profile.$1 (TEMPORAL_PROFILE=$1)',
    );
    throw new TemporalConfigError(`${where}${message}`);
  }
  // envconfig drops a certificate without its key silently; a half mTLS set-up is a mistake worth naming.
  if (Boolean(profile.tls?.clientCert) !== Boolean(profile.tls?.clientKey)) {
    const where = configFile
      ? ` (config file ${configFile.file}, profile ${profileName}, or TEMPORAL_TLS_CLIENT_* variables)`
      : '';
    throw new TemporalConfigError(
      `Set both the TLS client certificate and its key for mTLS, or neither${where}.`,
    );
  }

  let options: ReturnType<typeof toClientOptions>;
  try {
    options = toClientOptions(profile);
  } catch (error) {
    throw new TemporalConfigError(`Temporal TLS files: ${(error as Error).message}`);
  }
  const { connectionOptions } = options;
  const config: TemporalConnectionConfig = {
    address: connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS,
    namespace: options.namespace ?? DEFAULT_TEMPORAL_NAMESPACE,
  };
  if (connectionOptions.apiKey) config.apiKey = connectionOptions.apiKey as string;
  const tls = connectionOptions.tls;
  if (tls === true) config.tls = {};
  else if (tls) {
    config.tls = {
      ...(tls.serverNameOverride ? { serverNameOverride: tls.serverNameOverride } : {}),
      ...(tls.serverRootCACertificate
        ? { serverRootCACertificate: Buffer.from(tls.serverRootCACertificate) }
        : {}),
      ...(tls.clientCertPair
        ? {
            clientCertPair: {
              crt: Buffer.from(tls.clientCertPair.crt),
              key: Buffer.from(tls.clientCertPair.key),
            },
          }
        : {}),
    };
  }
  if (profile.grpcMeta && Object.keys(profile.grpcMeta).length > 0) config.metadata = { ...profile.grpcMeta };
  if (configFile) config.source = { file: configFile.file, profile: profileName };
  return config;
}

/** The options of Connection.connect / NativeConnection.connect for a config (secrets included: never log). */
export function connectionOptionsOf(config: TemporalConnectionConfig): {
  address: string;
  tls?: NonNullable<TemporalConnectionConfig['tls']>;
  apiKey?: string;
  metadata?: Record<string, string>;
} {
  return {
    address: config.address,
    ...(config.tls ? { tls: config.tls } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.metadata ? { metadata: config.metadata } : {}),
  };
}

/** The config with secrets removed, safe for logs (gRPC metadata by header name only). */
export function describeTemporalConfig(config: TemporalConnectionConfig): string {
  const auth = config.apiKey ? 'api-key' : config.tls?.clientCertPair ? 'mTLS' : 'none';
  const meta = config.metadata ? ` grpc-meta=${Object.keys(config.metadata).join(',')}` : '';
  const source = config.source ? ` (profile ${config.source.profile} of ${config.source.file})` : '';
  return `${config.address} namespace=${config.namespace} tls=${config.tls ? 'on' : 'off'} auth=${auth}${meta}${source}`;
}
