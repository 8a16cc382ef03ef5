// Redaction of secrets and personal data before anything is logged (ARCHITECTURE: "Secrets ... never ...
// logs"; no names, emails, account numbers in logs). Two nets: fields whose key names personal data
// or a secret are masked whole, and text that looks like an email, a long digit run (account/card number)
// or an API-key header is masked inside any string (log messages, error texts).

export const REDACTED = '[REDACTED]';

/** Keys (compared lower-case, without `_` and `-`) whose values are always masked. */
const SENSITIVE_KEYS = new Set([
  'name',
  'firstname',
  'lastname',
  'middlename',
  'fullname',
  'legalname',
  'businessname',
  'tradename',
  'accountholdername',
  'beneficiaryname',
  'username',
  'email',
  'emailaddress',
  'phone',
  'phonenumber',
  'mobile',
  'dateofbirth',
  'birthdate',
  'dob',
  'taxid',
  'ssn',
  'nationalid',
  'documentnumber',
  'passportnumber',
  'address',
  'streetaddress',
  'addressline1',
  'addressline2',
  'street',
  'postalcode',
  'zipcode',
  'accountnumber',
  'iban',
  'routingnumber',
  'sortcode',
  'pixcode',
  'clabe',
  'ifsccode',
  'bsbnumber',
  'toaddress',
  'fromaddress',
  'returnaddress',
  'walletaddress',
  'apikey',
  'xapikey',
  'authorization',
  'secret',
  'webhooksecret',
  'password',
  'token',
  'accesstoken',
  'refreshtoken',
  'privatekey',
  'codeckey',
  'encryptionkey',
  'signature',
  'xsignature',
  'cookie',
  'setcookie',
]);

/** Key endings that mark a sensitive field whatever comes before (e.g. `senderEmail`, `providerApiKey`). */
const SENSITIVE_SUFFIXES = [
  'email',
  'accountnumber',
  'apikey',
  'secret',
  'password',
  'token',
  'iban',
  'phonenumber',
  'holdername',
];

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

export function isSensitiveKey(key: string): boolean {
  const k = normaliseKey(key);
  return SENSITIVE_KEYS.has(k) || SENSITIVE_SUFFIXES.some((s) => k.endsWith(s));
}

const TEXT_PATTERNS: [RegExp, string][] = [
  // bearer tokens first, so the header form below cannot leave the token after "Bearer"
  [/\bBearer\s+[A-Za-z0-9._~+/=-]+/g, `Bearer ${REDACTED}`],
  // header or assignment forms of secrets: "X-Api-Key: abc", "apiKey=abc", "Bearer abc"
  [
    /\b(x-api-key|api[_-]?key|authorization|secret|password|token)(["']?\s*[:=]\s*["']?)[^\s"',;}]+/gi,
    `$1$2${REDACTED}`,
  ],
  // emails
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, REDACTED],
  // IBAN-like: two letters, two digits, 10+ alphanumerics
  [/\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b/g, REDACTED],
  // card numbers in groups of four
  [/(?<![\w-])\d{4}(?:[ -]\d{4}){2,}(?![\w-])/g, REDACTED],
  // account numbers: a run of 8 or more digits on its own (not part of an ID, a date or a UUID)
  [/(?<![\w-])\d{8,}(?![\w-])/g, REDACTED],
];

export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A deep copy of `value` with sensitive fields masked and sensitive text patterns masked in every string.
 * Errors become `{ name, message, type? }` (never their stack's arguments or attached request objects).
 */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[too deep]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Error) {
    const e = value as Error & { type?: unknown };
    return {
      name: e.name,
      message: redactText(e.message),
      ...(typeof e.type === 'string' ? { type: e.type } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = isSensitiveKey(k) && v !== null && v !== undefined ? REDACTED : redact(v, depth + 1, seen);
  }
  return out;
}
