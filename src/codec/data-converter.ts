// The one function that builds xborder's DataConverter: the worker, connectClient (CLI, ingress,
// schedules, backend services), the codec server, `xborder dev` and the tests all get it from here.
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec, type EncryptionCodecOptions } from './encryption-codec';
import {
  codecKeysFromEnv,
  isCodecKeyId,
  staticKeyProvider,
  type CodecKeyProvider,
  type CodecKeysSource,
} from './keys';
import type { Environment } from '../support/environment';
import { nexusCallerKeysFromEnv } from './nexus-caller-keys';

/** The failure converter module (encodeCommonAttributes): also bundled into the workflow code. */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

/** Encrypts every payload with the provider's current key; decrypts with any of its keys; encodes failures. */
export function codecDataConverter(
  keys: CodecKeyProvider,
  options: EncryptionCodecOptions = {},
): DataConverter {
  return {
    payloadCodecs: [new EncryptionCodec(keys, options)],
    failureConverterPath: FAILURE_CONVERTER_PATH,
  };
}

/** The switches of the codec (docs/codec.md): what it reads besides ciphertext bound to its workflow. */
export const CODEC_OPTION_ENV_VARS = [
  'XBORDER_CODEC_PLAINTEXT',
  'XBORDER_CODEC_UNBOUND',
  'XBORDER_CODEC_UNBOUND_KEY_IDS',
] as const;

const warned = new Set<string>();
const warnOnce = (line: string) => {
  if (warned.has(line)) return;
  warned.add(line);
  console.warn(line);
};

/**
 * XBORDER_CODEC_PLAINTEXT=admit reads payloads that are not encrypted (default refuse: a migration window only, it
 * lets anyone who reaches Temporal without the keys hand workflows data). XBORDER_CODEC_UNBOUND=refuse refuses
 * encrypted payloads not bound to their workflow (default admit until the payloads written before the binding are
 * gone: docs/codec.md, "Bound to its workflow"); XBORDER_CODEC_UNBOUND_KEY_IDS narrows that admission to the keys used
 * before the binding.
 */
export function codecOptionsFromEnv(env: Environment): EncryptionCodecOptions {
  const plaintext = env.XBORDER_CODEC_PLAINTEXT ?? 'refuse';
  if (plaintext !== 'refuse' && plaintext !== 'admit')
    throw new Error(`XBORDER_CODEC_PLAINTEXT must be "refuse" (default) or "admit", got "${plaintext}"`);
  const unbound = env.XBORDER_CODEC_UNBOUND ?? 'admit';
  if (unbound !== 'refuse' && unbound !== 'admit')
    throw new Error(`XBORDER_CODEC_UNBOUND must be "admit" (default) or "refuse", got "${unbound}"`);
  const unboundKeyIds = unboundKeyIdsOf(env.XBORDER_CODEC_UNBOUND_KEY_IDS);
  if (plaintext === 'admit') {
    warnOnce(
      'xborder: XBORDER_CODEC_PLAINTEXT=admit: payloads that are not encrypted are read as data (a migration window only: anyone who reaches Temporal can then signal workflows; docs/codec.md)',
    );
  }
  return { plaintext, unbound, ...(unboundKeyIds ? { unboundKeyIds } : {}) };
}

/**
 * XBORDER_CODEC_UNBOUND_KEY_IDS: the key ids in use before the binding, the only ones an unbound payload may carry
 * (docs/codec.md, "Bound to its workflow"). Unset: any (as before). Set, it must list at least one valid id: an empty
 * list would refuse every unbound payload, which is XBORDER_CODEC_UNBOUND=refuse, said plainly.
 */
function unboundKeyIdsOf(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.some((id) => !isCodecKeyId(id)))
    throw new Error(
      'XBORDER_CODEC_UNBOUND_KEY_IDS must list, comma-separated, the key ids used before the binding (1-64 characters of A-Z a-z 0-9 . _ -); to refuse every unbound payload set XBORDER_CODEC_UNBOUND=refuse instead',
    );
  return ids;
}

export const MISSING_KEYS_MESSAGE =
  'No payload encryption keys: set XBORDER_CODEC_KEYS to {"current":"<id>","keys":{"<id>":"<base64 of 32 random bytes>"}} ' +
  'or XBORDER_CODEC_KEYS_FILE to a file holding that JSON (see docs/codec.md); the local dev stack (`npm start`) keeps ' +
  'its key in .data/codec-keys.json of the checkout it runs in. Without keys, personal data would be ' +
  'stored in plaintext in Temporal; XBORDER_CODEC=disabled runs without encryption on purpose (never in production).';

let warnedDisabled = false;

/** The codec's configuration: where its keys came from and its two switches. */
export interface CodecConfig {
  keys: CodecKeysSource;
  options: EncryptionCodecOptions;
}

/**
 * The worker's codec configuration: codecConfigFromEnv's, and the Nexus callers' own key sets
 * (XBORDER_NEXUS_CALLER_KEYS(_FILE), src/codec/nexus-caller-keys.ts), which only the process serving the Nexus
 * service reads. A wrong set stops the start (a ConfigurationError: exit code 2), naming the variable and the rule.
 */
export function workerCodecConfigFromEnv(env: Environment): CodecConfig {
  const config = codecConfigFromEnv(env);
  const nexusCallers = nexusCallerKeysFromEnv(
    env,
    config.keys.kind === 'keys' ? config.keys.keys : undefined,
  );
  return nexusCallers ? { ...config, options: { ...config.options, nexusCallers } } : config;
}

/**
 * XBORDER_CODEC_KEYS / XBORDER_CODEC_KEYS_FILE / XBORDER_CODEC and the switches; read by each process's entry.
 * The switches are read only when there are keys (they mean nothing without them).
 */
export function codecConfigFromEnv(env: Environment): CodecConfig {
  const keys = codecKeysFromEnv(env);
  return { keys, options: keys.kind === 'keys' ? codecOptionsFromEnv(env) : {} };
}

/**
 * The data converter of a codec configuration. Without keys it fails loudly, naming the variables, unless
 * XBORDER_CODEC=disabled says plaintext is wanted (then it warns once).
 */
export function dataConverterOf(config: CodecConfig): DataConverter {
  const source = config.keys;
  if (source.kind === 'keys') return codecDataConverter(staticKeyProvider(source.keys), config.options);
  if (source.kind === 'disabled') {
    if (!warnedDisabled) {
      warnedDisabled = true;
      console.warn(
        'xborder: XBORDER_CODEC=disabled: payloads are NOT encrypted (personal data in plaintext in Temporal)',
      );
    }
    return { failureConverterPath: FAILURE_CONVERTER_PATH };
  }
  throw new Error(MISSING_KEYS_MESSAGE);
}

/** dataConverterOf(codecConfigFromEnv(env)): for tests and tools that hold an environment record. */
export function dataConverterFromEnv(env: Environment): DataConverter {
  return dataConverterOf(codecConfigFromEnv(env));
}
