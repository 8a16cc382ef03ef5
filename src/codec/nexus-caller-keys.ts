// Each Nexus caller's own key set (SECURITY.md, "Nexus"; docs/codec.md, "Nexus callers"). A caller encrypts its
// operation inputs with its key and reads xborder's answers under it: it never holds xborder's codec keys, which open
// every payment. XBORDER_NEXUS_CALLER_KEYS (or XBORDER_NEXUS_CALLER_KEYS_FILE) maps the name of the Nexus endpoint
// a caller's requests come through (its identity: src/nexus/caller.ts) to that caller's key set, in the JSON of
// XBORDER_CODEC_KEYS. Read by the worker only (it serves the Nexus service); no other process needs them.
import { ConfigurationError, type Environment } from '../support/environment';
import { withSecretFiles } from '../support/secret-files';
import { refuseKnownSecret } from '../security/known-secrets';
import {
  codecKeysProblems,
  CodecKeysSchema,
  staticKeyProvider,
  type CodecKeyProvider,
  type CodecKeysJson,
} from './keys';

/** The callers' keys' variable: a secret, also read as XBORDER_NEXUS_CALLER_KEYS_FILE. */
export const NEXUS_CALLER_KEYS_SECRET_ENV_VARS = ['XBORDER_NEXUS_CALLER_KEYS'] as const;
const VARIABLE = 'XBORDER_NEXUS_CALLER_KEYS';

/** Temporal's rule for an endpoint name (a letter, then letters, digits, `-` or `_`). */
const ENDPOINT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,199}$/;

/** The callers' key sets, by endpoint name. Never printed: key material is held as KeyObjects. */
export interface NexusCallerKeyring {
  /** The key set of the caller whose requests come through `endpoint`, or undefined when it has none. */
  forEndpoint(endpoint: string): CodecKeyProvider | undefined;
  /** The endpoints that have a key set (public: endpoint names are not secrets). */
  readonly endpoints: readonly string[];
}

/** A keyring over fixed key sets (the environment's or a file's). */
export function staticNexusCallerKeyring(sets: Readonly<Record<string, CodecKeysJson>>): NexusCallerKeyring {
  const providers = new Map(
    Object.entries(sets).map(([endpoint, keys]) => [endpoint, staticKeyProvider(keys)]),
  );
  return { forEndpoint: (endpoint) => providers.get(endpoint), endpoints: [...providers.keys()] };
}

function refuse(rule: string): never {
  throw new ConfigurationError(`${VARIABLE}: ${rule} (SECURITY.md, "Nexus"; docs/codec.md, "Nexus callers")`);
}

/**
 * The JSON `{"<endpoint>": {"current": "<id>", "keys": {"<id>": "<base64 32 bytes>"}}, ...}`, checked: each set as
 * XBORDER_CODEC_KEYS is checked; every key id used once across xborder's keys and all callers' (a payload's key id
 * says whose key wrote it: a shared id would let one key set be tried for another's payloads); no key material
 * equal to xborder's or another caller's (that caller would hold the other's key). Messages name the variable, the
 * endpoint and the key id, never a key.
 */
export function parseNexusCallerKeys(
  text: string,
  xborderKeys: CodecKeysJson,
): Record<string, CodecKeysJson> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    refuse('is not JSON: expected {"<endpoint>":{"current":"<id>","keys":{"<id>":"<base64 32 bytes>"}}}');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.keys(raw).length === 0)
    refuse("must map at least one Nexus endpoint name to that caller's key set");
  const owners = new Map<string, string>(); // key id → who holds it
  const materials = new Map<string, string>(); // base64 material → who holds it
  for (const [id, b64] of Object.entries(xborderKeys.keys)) {
    owners.set(id, "xborder's XBORDER_CODEC_KEYS");
    materials.set(Buffer.from(b64, 'base64').toString('base64'), "xborder's XBORDER_CODEC_KEYS");
  }
  const sets: Record<string, CodecKeysJson> = {};
  for (const [position, [endpoint, value]] of Object.entries(raw).entries()) {
    // by its position only: what stands where an endpoint name goes may be a key (a name that passes holds no `=`,
    // which every base64 key of 32 bytes ends with, so the names printed below are never keys)
    if (!ENDPOINT_NAME.test(endpoint))
      refuse(`endpoint [${position}] is not a Nexus endpoint name (a letter, then letters, digits, - or _)`);
    const parsed = CodecKeysSchema.safeParse(value);
    if (!parsed.success) refuse(`endpoint "${endpoint}": ${codecKeysProblems(value, parsed.error.issues)}`);
    for (const [id, b64] of Object.entries(parsed.data.keys)) {
      const holder = owners.get(id);
      if (holder)
        refuse(
          `endpoint "${endpoint}": key id "${id}" is also used by ${holder}; each caller's key ids must differ from xborder's and from every other caller's`,
        );
      owners.set(id, `endpoint "${endpoint}"`);
      const material = Buffer.from(b64, 'base64').toString('base64');
      const sameKey = materials.get(material);
      if (sameKey)
        refuse(
          `endpoint "${endpoint}": key "${id}" is the same key as one of ${sameKey}; give each caller a key of its own`,
        );
      materials.set(material, `endpoint "${endpoint}"`);
      refuseKnownSecret(`${VARIABLE} endpoint "${endpoint}" key "${id}"`, b64, 'codec-key');
    }
    sets[endpoint] = parsed.data;
  }
  return sets;
}

/**
 * XBORDER_NEXUS_CALLER_KEYS(_FILE) of the worker's environment: undefined when unset (every caller then holds
 * xborder's keys, as before: less safe, SECURITY.md "Nexus"). Set, it needs xborder's own keys (a caller key beside
 * plaintext payloads protects nothing) and refuses, at start, any set that breaks parseNexusCallerKeys' rules.
 */
export function nexusCallerKeysFromEnv(
  given: Environment,
  xborderKeys: CodecKeysJson | undefined,
): NexusCallerKeyring | undefined {
  const env = withSecretFiles(given, NEXUS_CALLER_KEYS_SECRET_ENV_VARS, 'worker');
  const text = env[VARIABLE];
  if (text === undefined || text === '') return undefined;
  if (!xborderKeys)
    refuse(
      "needs xborder's own keys (XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE): callers' keys mean nothing without the codec",
    );
  const keyring = staticNexusCallerKeyring(parseNexusCallerKeys(text, xborderKeys));
  configuredKeyring = keyring;
  return keyring;
}

/** The keyring this process read from its environment, if any (nexusCallerKeysFromEnv). */
let configuredKeyring: NexusCallerKeyring | undefined;

/**
 * The callers' keyring this process was configured with (XBORDER_NEXUS_CALLER_KEYS), or undefined when none was
 * read. The Nexus handler's second source (src/nexus/caller.ts): when it cannot find the worker's codec on its
 * client, it still refuses an endpoint without a key set instead of answering as if no caller had keys.
 */
export function configuredNexusCallerKeyring(): NexusCallerKeyring | undefined {
  return configuredKeyring;
}
