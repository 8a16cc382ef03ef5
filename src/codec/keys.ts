// Where the codec's keys come from. Keys are AES-256 keys (32 bytes, base64) under an id; one is
// current (new payloads are encrypted with it), all listed ones decrypt (rotation). They come from the
// environment or a file, never from code, history or logs. A KMS plugs in as another CodecKeyProvider.
import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { refuseKnownSecret } from '../security/known-secrets';
import type { Environment } from '../support/environment';

export interface CodecKey {
  /** Public: stored in each payload's metadata (`encryption-key-id`). Never personal data. */
  id: string;
  /** The secret key material (32 bytes), as a KeyObject so it is never printed by accident. */
  material: KeyObject;
}

/** The codec asks for keys through this interface only, so a KMS-backed provider can replace the static one. */
export interface CodecKeyProvider {
  /** The key new payloads are encrypted with. */
  currentKey(): Promise<CodecKey>;
  /** Any listed key, for decryption; undefined when the id is unknown. */
  keyById(id: string): Promise<CodecKey | undefined>;
  /** The ids this provider can decrypt with (for error messages; never the keys). */
  knownKeyIds(): Promise<string[]>;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** What a key id may be (public: in every payload's metadata). */
export const isCodecKeyId = (id: string): boolean => KEY_ID.test(id);

/** The JSON of XBORDER_CODEC_KEYS or of the file XBORDER_CODEC_KEYS_FILE names. */
export const CodecKeysSchema = z
  .object({
    current: z.string().regex(KEY_ID, 'key ids are 1-64 characters of A-Z a-z 0-9 . _ -'),
    keys: z.record(
      z.string().regex(KEY_ID, 'key ids are 1-64 characters of A-Z a-z 0-9 . _ -'),
      z
        .string()
        .refine(
          (b64) => Buffer.from(b64, 'base64').length === 32,
          'each key is 32 bytes, base64 (openssl rand -base64 32)',
        ),
    ),
  })
  .refine((k) => k.current in k.keys, { message: '"current" must name one of "keys"', path: ['current'] });
export type CodecKeysJson = z.infer<typeof CodecKeysSchema>;

/** A provider over a fixed set of keys (the environment's or a file's). */
export function staticKeyProvider(json: CodecKeysJson): CodecKeyProvider {
  const parsed = CodecKeysSchema.parse(json);
  const keys = new Map<string, CodecKey>(
    Object.entries(parsed.keys).map(([id, b64]) => [
      id,
      { id, material: createSecretKey(Buffer.from(b64, 'base64')) },
    ]),
  );
  const current = keys.get(parsed.current)!;
  return {
    currentKey: async () => current,
    keyById: async (id) => keys.get(id),
    knownKeyIds: async () => [...keys.keys()],
  };
}

/** Parses the keys' JSON with an error that names where it came from and never echoes the secret. */
export function parseCodecKeys(text: string, source: string): CodecKeysJson {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON: expected {"current":"<id>","keys":{"<id>":"<base64 32 bytes>"}}`);
  }
  const parsed = CodecKeysSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${source} is invalid: ${codecKeysProblems(raw, parsed.error.issues)}`);
  return parsed.data;
}

/**
 * The problems of a key set CodecKeysSchema refused, for a message: each one's position and rule, never a record key
 * or a value. A zod issue's path holds the record's key (`keys.<id>`), and the likely mistake of swapping a key id
 * and its key (`{"keys":{"<base64 key>":"c1"}}`) would print the whole key: a key is named by its place among
 * `keys` (`keys[0]`) instead. The messages are the schema's rules (and zod's generic ones), which hold no input.
 */
export function codecKeysProblems(raw: unknown, issues: ReadonlyArray<z.core.$ZodIssue>): string {
  const listed =
    typeof raw === 'object' &&
    raw !== null &&
    'keys' in raw &&
    typeof raw.keys === 'object' &&
    raw.keys !== null
      ? Object.keys(raw.keys)
      : [];
  const positionOf = (path: ReadonlyArray<PropertyKey>): string => {
    const [field, entry] = path;
    if (field === undefined) return '(root)';
    if (field === 'current') return 'current';
    if (field !== 'keys') return '(a field)';
    if (entry === undefined) return 'keys';
    const at = typeof entry === 'string' ? listed.indexOf(entry) : -1;
    return at < 0 ? 'keys[?]' : `keys[${at}]`;
  };
  return issues.map((i) => `${positionOf(i.path)}: ${i.message}`).join('; ');
}

/** A fresh key set with one key, for `xborder dev` on a fresh clone (written once into .data/). */
export function generateCodecKeys(id = `dev-${new Date().toISOString().slice(0, 10)}`): CodecKeysJson {
  return { current: id, keys: { [id]: randomBytes(32).toString('base64') } };
}

/** The payload keys' variable: a secret, also read as XBORDER_CODEC_KEYS_FILE (codecKeysFromEnv). */
export const CODEC_KEYS_SECRET_ENV_VARS = ['XBORDER_CODEC_KEYS'] as const;

export type CodecKeysSource =
  | { kind: 'keys'; keys: CodecKeysJson; source: string }
  | { kind: 'disabled' }
  | { kind: 'missing' };

/**
 * XBORDER_CODEC_KEYS (the JSON itself) or XBORDER_CODEC_KEYS_FILE (a path to it); XBORDER_CODEC=disabled is the
 * explicit opt-out (plaintext payloads: never in production).
 */
export function codecKeysFromEnv(env: Environment): CodecKeysSource {
  if (env.XBORDER_CODEC_KEYS && env.XBORDER_CODEC_KEYS_FILE) {
    throw new Error('Set XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE, not both.');
  }
  if (env.XBORDER_CODEC_KEYS) {
    return {
      kind: 'keys',
      keys: refusePublishedKeys(
        parseCodecKeys(env.XBORDER_CODEC_KEYS, 'XBORDER_CODEC_KEYS'),
        'XBORDER_CODEC_KEYS',
      ),
      source: 'XBORDER_CODEC_KEYS',
    };
  }
  if (env.XBORDER_CODEC_KEYS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.XBORDER_CODEC_KEYS_FILE, 'utf8');
    } catch (error) {
      throw new Error(
        `XBORDER_CODEC_KEYS_FILE: cannot read ${env.XBORDER_CODEC_KEYS_FILE} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
    const keys = parseCodecKeys(text, `XBORDER_CODEC_KEYS_FILE (${env.XBORDER_CODEC_KEYS_FILE})`);
    return {
      kind: 'keys',
      keys: refusePublishedKeys(keys, 'XBORDER_CODEC_KEYS_FILE'),
      source: env.XBORDER_CODEC_KEYS_FILE,
    };
  }
  if (
    env.XBORDER_CODEC !== undefined &&
    env.XBORDER_CODEC !== 'disabled' &&
    env.XBORDER_CODEC !== 'enabled'
  ) {
    throw new Error(`XBORDER_CODEC must be "enabled" or "disabled", got "${env.XBORDER_CODEC}"`);
  }
  return env.XBORDER_CODEC === 'disabled' ? { kind: 'disabled' } : { kind: 'missing' };
}

/**
 * A key published in the repository (an example, the replay histories' test key) or a placeholder never encrypts
 * anything: every process reads its keys here, so each refuses them at start, naming the variable and the key id.
 */
function refusePublishedKeys(keys: CodecKeysJson, variable: string): CodecKeysJson {
  for (const [id, b64] of Object.entries(keys.keys))
    refuseKnownSecret(`${variable} key "${id}"`, b64, 'codec-key');
  return keys;
}
