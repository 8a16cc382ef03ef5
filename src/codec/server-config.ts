// The codec server's configuration from the environment (the keys from XBORDER_CODEC_KEYS(_FILE), as the worker's).
import { withSecretFiles } from '../support/secret-files';
import { z } from 'zod';
import { refuseKnownSecrets } from '../security/known-secrets';
import { codecKeysFromEnv, type CodecKeysJson } from './keys';
import { DEFAULT_CODEC_SERVER_PORT } from './server';
import { ConfigurationError, parseEnvironment, type Environment } from '../support/environment';

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const EnvSchema = z.object({
  XBORDER_CODEC_SERVER_HOST: z.string().min(1).default('127.0.0.1'),
  XBORDER_CODEC_SERVER_PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_CODEC_SERVER_PORT),
  /** Comma-separated bearer tokens for /decode (24+ characters each); required. */
  XBORDER_CODEC_SERVER_TOKENS: z
    .string()
    .min(1, 'XBORDER_CODEC_SERVER_TOKENS is required: the codec server never runs unauthenticated'),
  /** Comma-separated browser origins allowed by CORS (the Temporal UI's, e.g. http://127.0.0.1:8233). */
  XBORDER_CODEC_SERVER_ORIGINS: z.string().optional(),
  /**
   * Comma-separated tokens that may also POST /encode (24+ random characters, none a decode token); unset: /encode is
   * refused. Its payloads are bound to no workflow (docs/codec.md, "The codec server").
   */
  XBORDER_CODEC_SERVER_ENCODE_TOKENS: z.string().optional(),
  /** Comma-separated DNS names (single labels too) the server is reached by beyond IP literals and localhost (DNS rebinding). */
  XBORDER_CODEC_SERVER_HOSTS: z.string().optional(),
});

/** Every variable of the codec server's own (the keys' variables besides); the compose test checks them. */
export const CODEC_SERVER_ENV_VARS = Object.keys(EnvSchema.shape) as ReadonlyArray<
  keyof typeof EnvSchema.shape
>;
/** The codec server's own variables that hold a secret, each also read as `<NAME>_FILE` (docs/deployment.md, "Secrets"). */
export const CODEC_SERVER_SECRET_ENV_VARS = [
  'XBORDER_CODEC_SERVER_TOKENS',
  'XBORDER_CODEC_SERVER_ENCODE_TOKENS',
] as const;
export const CODEC_KEY_ENV_VARS = [
  'XBORDER_CODEC_KEYS',
  'XBORDER_CODEC_KEYS_FILE',
  'XBORDER_CODEC',
  'XBORDER_CODEC_PLAINTEXT',
  'XBORDER_CODEC_UNBOUND',
  'XBORDER_CODEC_UNBOUND_KEY_IDS',
] as const;

export interface CodecServerConfig {
  host: string;
  port: number;
  tokens: string[];
  /** may POST /encode; empty: /encode is refused */
  encodeTokens: string[];
  allowedOrigins: string[];
  allowedHosts: string[];
  keys: CodecKeysJson;
}

/** The codec server's configuration, read by its entry (src/codec/main.ts, `xborder codec-server`). */
export function codecServerConfigFromEnv(given: Environment): CodecServerConfig {
  // XBORDER_CODEC_SERVER_TOKENS_FILE / _ENCODE_TOKENS_FILE: the tokens from a mounted file (src/support/secret-files.ts)
  const env = withSecretFiles(given, CODEC_SERVER_SECRET_ENV_VARS, 'codec server');
  const e = parseEnvironment(EnvSchema, env, 'codec server');
  const tokens = list(e.XBORDER_CODEC_SERVER_TOKENS);
  refuseKnownSecrets('XBORDER_CODEC_SERVER_TOKENS', tokens, 'token');
  const encodeTokens = list(e.XBORDER_CODEC_SERVER_ENCODE_TOKENS);
  refuseKnownSecrets('XBORDER_CODEC_SERVER_ENCODE_TOKENS', encodeTokens, 'token');
  // a decode token never encodes (every operator holds one): startCodecServer refuses it too, this says it at start
  if (encodeTokens.some((t) => tokens.includes(t)))
    throw new ConfigurationError(
      'codec server: a token of XBORDER_CODEC_SERVER_ENCODE_TOKENS is also in XBORDER_CODEC_SERVER_TOKENS; a decode token never encodes',
    );
  const keys = codecKeysFromEnv(env);
  if (keys.kind !== 'keys')
    throw new Error(
      'The codec server needs the payload keys: set XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE (docs/codec.md).',
    );
  return {
    host: e.XBORDER_CODEC_SERVER_HOST,
    port: e.XBORDER_CODEC_SERVER_PORT,
    tokens,
    encodeTokens,
    allowedOrigins: list(e.XBORDER_CODEC_SERVER_ORIGINS),
    allowedHosts: list(e.XBORDER_CODEC_SERVER_HOSTS),
    keys: keys.keys,
  };
}
