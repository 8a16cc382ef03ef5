// No secret that appears in the repository ever runs (house rule; docs/deployment.md "Secrets"). Every process
// calls this while it parses its configuration, before it listens or connects: a value published in the
// repository (an example, a test, the docs) or a placeholder is refused with the variable's name, never the value.
// The published values are kept as SHA-256 hashes, so this file does not publish them once more;
// test/unit/known-secrets.test.ts scans the repository and fails when a secret-looking value is committed
// without its hash here.
import { createHash } from 'node:crypto';

/** SHA-256 (hex) of every secret-looking value committed in the repository, with where it is (first hit). */
const PUBLISHED: ReadonlyMap<string, string> = new Map([
  [
    '96ad2ccd81462a766178ae09a71df55f548a3f66da11606f9cdf40b391e22dd0',
    'the webhook secret of the old .env.example and of the provider signature tests',
  ],
  ['da9cff11a32cf219c8786d55d2bf5818938690f1f28384af0c0cb7cc617bcff7', 'a webhook secret of test/docker'],
  ['e80944226c1e7bad96ca06a9102775ca396dc1f83a1a1f38c191d70540f5c9a9', 'a webhook secret of test/telemetry'],
  ['27fbb04dfa15cae8627d6ddd93cd515f92b9434dee104f06fef6ca6c11623373', 'a webhook secret of test/provider'],
  [
    'c575dda909b84748f34d2c0be9b9fb1b1ee0019c0c1ded124d358647095eda97',
    'the payload key of the old .env.example',
  ],
  [
    '8070a4d56c5a928512c5fc04789ebc87160bebc71d4aa55c8b7b96ec0751e5ec',
    'the replay histories\u2019 test payload key',
  ],
  [
    '6e08c257d79b2286400f4ca8ef2faa8b4c4b7d4a5ca4f43da900b6630c10979f',
    'the replay histories\u2019 test Nexus caller key',
  ],
  [
    '0a4b90d670823bb7ed475b949b2319545a0e07b7940e6d5e2e2c0a2035f69b60',
    'the codec-server token of the old .env.example',
  ],
  ['67e95073ea7d2f92f361b2b3a590935f82b670e8c5d7d96ac622282e2f7accc3', 'a codec-server token of test/codec'],
  [
    'b186714e50f982f958b8754621a62869c61c4d24675b8fdeaae2fc0fe87a6dd3',
    'a webhook signature of the provider tests',
  ],
  ['c9ad9dd01645993f08d08524511b63dae58de66c6c130b3dbc28fcf811aaa874', 'the sandbox\u2019s default API key'],
  ['2282e193892d1c6d8bae43778f79f39b73d6693d0ff1f085cf1bcb81fbeb5608', 'an API key of test/sandbox'],
  ['e9982364fd73c3ea5cfbc3c032589e2b8d332cd405e37d6ed3277972c1743f11', 'an API key of test/telemetry'],
  ['64bbc09c94852b8f2a1d433da8e6de7616de913f4180c70d15b8a73362608514', 'an API key of test/telemetry'],
  ['944daaded8944065153727fa574525ac67d6bb8cf2de9c81d36e4e97ee6b6f82', 'an API key of test/provider'],
  ['85dbe15d75ef9308c7ae0f33c7a324cc6f4bf519a2ed2f3027bd33c140a4f9aa', 'an API key of test/unit'],
  [
    '65803be0872fa538d3ac513edadd6699f54dd8b4a566ee1cf6b185c8cc803949',
    'an API key of test/docker and test/lambda',
  ],
  [
    '12b2820cf1639904311da5771de1e5bb65c77073fdc7c555df395942df42896b',
    'an API key of test/unit and test/lambda',
  ],
  [
    '9145928ebb99c266d52577bdb4b07156542755bfd0477243cb0caafda43a6149',
    'the API key of scripts/bench-sandbox.ts',
  ],
  ['b1131ad15925d076fbec4d1ec194e21498ef880796c0b1af13d5af6d0fb11971', 'an API key of test/provider'],
  ['aa8815a80c8eded0774a059ebc5c8ce66136ac5f398232c8574e2071d0981efa', 'an API key of test/provider'],
  ['4f73d8942203a4dc64b49d9538a23addd0bb34400d6a98731cd32a1cfc75f202', 'an API key prefix of test/provider'],
]);

/** Words of placeholders and defaults people forget to replace (the whole value, or its part after a prefix). */
const PLACEHOLDER =
  /^(?:change[-_ ]?me|replace[-_ ]?me|changeit|secret|password|passw0rd|token|example|placeholder|todo|fixme|test|xxx+|none|null|default)$/i;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * The kinds of secret xborder takes, each compared as what its user reads it as and held to a minimum strength:
 * - `webhook-secret`: Standard Webhooks, `whsec_<base64>` (prefix optional, as the reference libraries read it); the
 *   HMAC key is the decoded bytes, 24 to 64 of them (Standard Webhooks: "between 24 bytes and 64 bytes"; spec gap
 *   Events 5, docs/spec-gaps.md). `whsec_<k>=` and `<k>` are the same key as `whsec_<k>`: all refused when it is published.
 * - `codec-key`: base64 of 32 bytes (AES-256; the schema in src/codec/keys.ts checks the length).
 * - `token`: a bearer token compared as the string it is (codec server, sandbox control routes): 24+ characters.
 * - `api-key`: an API key sent as it is (the sandbox's keys, the worker's provider key): 16+ characters.
 */
export type SecretKind = 'webhook-secret' | 'codec-key' | 'token' | 'api-key';

const WEBHOOK_KEY_BYTES = { min: 24, max: 64 } as const;
const MIN_CHARACTERS: Record<'token' | 'api-key', number> = { token: 24, 'api-key': 16 };
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The key bytes of a webhook secret as the signer and the verifier read them (src/provider/webhook-signature.ts:
 * `whsec_` optional, then base64), or null when it is not base64. Node's decoder ignores extra `=`, so every
 * spelling of one key decodes to the same bytes: those are what is compared.
 */
export function webhookSecretKey(value: string): Buffer | null {
  const encoded = value.startsWith('whsec_') ? value.slice('whsec_'.length) : value;
  if (encoded === '' || !BASE64.test(encoded)) return null;
  return Buffer.from(encoded, 'base64');
}

/** The spellings a published secret may have been committed in, for what `value` decodes to (kind given). */
function canonicalForms(value: string, kind: SecretKind | undefined): string[] {
  if (kind === 'webhook-secret') {
    const key = webhookSecretKey(value);
    return key ? [`whsec_${key.toString('base64')}`, key.toString('base64')] : [];
  }
  if (kind === 'codec-key' && BASE64.test(value)) return [Buffer.from(value, 'base64').toString('base64')];
  return [];
}

/** The kind a value's prefix announces (`whsec_`, `sk_`, `codec_`), for a caller that does not say. */
function kindByPrefix(value: string): SecretKind | undefined {
  if (value.startsWith('whsec_')) return 'webhook-secret';
  if (value.startsWith('sk_')) return 'api-key';
  if (value.startsWith('codec_')) return 'token';
  return undefined;
}

/** Why `value` is too weak for its kind, or null. Never echoes the value. */
export function secretStrengthProblem(kind: SecretKind, value: string): string | null {
  const v = value.trim();
  if (kind === 'webhook-secret') {
    const key = webhookSecretKey(v);
    if (!key) return 'it is not whsec_<base64>';
    if (key.length < WEBHOOK_KEY_BYTES.min || key.length > WEBHOOK_KEY_BYTES.max) {
      return `its key is ${key.length} bytes; Standard Webhooks keys are ${WEBHOOK_KEY_BYTES.min} to ${WEBHOOK_KEY_BYTES.max} random bytes`;
    }
    return null;
  }
  if (kind === 'codec-key')
    return BASE64.test(v) && Buffer.from(v, 'base64').length === 32 ? null : 'it is not base64 of 32 bytes';
  const min = MIN_CHARACTERS[kind];
  if (v.length < min) return `it is ${v.length} characters; a ${kind} needs ${min} or more (random)`;
  if (new Set(v).size < 8) return 'it has fewer than 8 distinct characters: generate a random value';
  return null;
}

/**
 * Why `value` must not run as a secret, or null. Never echoes the value. With its kind, the value is compared as what
 * it decodes to (every spelling of a published key is refused) and held to the kind's minimum strength.
 */
export function knownSecretReason(
  value: string,
  kind: SecretKind | undefined = kindByPrefix(value.trim()),
): string | null {
  const v = value.trim();
  if (v === '') return 'it is empty';
  for (const form of [v, ...canonicalForms(v, kind)]) {
    const published = PUBLISHED.get(sha256Hex(form));
    if (published) return `it is published in the repository (${published})`;
  }
  if (/[<>]/.test(v) || /\.\.\.|…/.test(v))
    return 'it is a placeholder (it has <…> or ...): generate a value';
  if (/change[-_ ]?me|replace[-_ ]?me|generate/i.test(v)) return 'it is a placeholder: generate a value';
  // The part that is supposed to be random: after a known prefix (whsec_, sk_…_, codec_) when there is one.
  const body = v.replace(/^(?:whsec_|codec_|sk_(?:[a-z]+_)?)/, '');
  if (PLACEHOLDER.test(body)) return 'it is a placeholder word: generate a value';
  if (/^(.)\1*$/s.test(body)) return 'it is one character repeated: generate a value';
  const bytes =
    /^[A-Za-z0-9+/]+={0,2}$/.test(body) && body.length % 4 === 0 ? Buffer.from(body, 'base64') : null;
  if (bytes && bytes.length >= 8 && bytes.every((b) => b === bytes[0]))
    return 'it is one byte repeated: generate a value';
  const key = kind === 'webhook-secret' ? webhookSecretKey(v) : null;
  if (key && key.length >= 8 && key.every((b) => b === key[0]))
    return 'its key is one byte repeated: generate a value';
  return kind ? secretStrengthProblem(kind, v) : null;
}

/** A configuration value that is published or a placeholder. Names the variable, never the value. */
export class KnownSecretError extends Error {
  override readonly name = 'KnownSecretError';
  readonly type = 'KNOWN_SECRET';
  readonly retryable = false;
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(
      `${variable} must not be used: ${reason}. Generate your own (docs/deployment.md, "Secrets"), e.g. \`openssl rand -base64 32\`.`,
    );
  }
}

/** Throws KnownSecretError naming `variable` when `value` (one secret of `kind`) is published, a placeholder or too weak. */
export function refuseKnownSecret(variable: string, value: string, kind: SecretKind): void {
  const reason = knownSecretReason(value, kind);
  if (reason) throw new KnownSecretError(variable, reason);
}

/** The same for each secret of a list (secrets during a rotation): the error names the variable and the position. */
export function refuseKnownSecrets(variable: string, values: readonly string[], kind: SecretKind): void {
  values.forEach((value, i) =>
    refuseKnownSecret(values.length > 1 ? `${variable} (#${i + 1})` : variable, value, kind),
  );
}
