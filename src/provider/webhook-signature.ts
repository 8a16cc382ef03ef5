// Webhook signature verification, Standard Webhooks (https://www.standardwebhooks.com/).
// spec: Events 5 (signatures not shown); our decision is in docs/spec-gaps.md, "Webhook signatures".
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors';

export type WebhookHeaders =
  | Record<string, string | string[] | undefined>
  | { get(name: string): string | null | undefined };

export interface VerifyWebhookOptions {
  /** Largest allowed distance between webhook-timestamp and now, both ways. Default 300 s. */
  toleranceSec?: number;
  /** The clock to compare with (tests, sandbox clock). Default: the real one. */
  now?: Date;
}

export interface VerifiedWebhook {
  /** webhook-id: stable across redeliveries, the key to drop duplicates by. */
  id: string;
  /** webhook-timestamp as a Date. */
  timestamp: Date;
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SEC = 300;

/**
 * Verifies the three Standard Webhooks headers against the raw body (the exact bytes received, before any JSON
 * parsing). Accepts one secret or several (rotation: any one matching is enough). Throws WebhookVerificationError.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): VerifiedWebhook {
  const { id, timestampText, timestampSec, signatureHeader } = readSignatureHeaders(headers, options);
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).map(decodeSecret);
  if (keys.length === 0) refuse('no webhook secret configured', 'secret');

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const signedContent = Buffer.concat([Buffer.from(`${id}.${timestampText}.`, 'utf8'), body]);
  const expected = keys.map((key) => createHmac('sha256', key).update(signedContent).digest());

  // The header is a space-separated list of "<version>,<base64>"; only v1 (HMAC-SHA256) is ours.
  for (const entry of signatureHeader.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    for (const mac of expected) {
      if (given.length === mac.length && timingSafeEqual(given, mac)) {
        return { id, timestamp: new Date(timestampSec * 1000) };
      }
    }
  }
  return refuse('no webhook-signature entry matches any configured secret', 'signature');
}

export interface WebhookSignatureHeaders {
  id: string;
  timestampText: string;
  timestampSec: number;
  signatureHeader: string;
}

/**
 * The checks that need no body: the three headers are there, the timestamp is within the window and at least one
 * `v1,<base64>` entry is as long as an HMAC-SHA256. A server runs this before it reads a byte of the body, so a
 * caller without plausible headers costs no memory (SECURITY.md, "The webhook ingress"). Throws
 * WebhookVerificationError; verifyWebhook runs it too, so the two can never disagree.
 */
export function checkWebhookHeaders(
  headers: WebhookHeaders,
  options: VerifyWebhookOptions = {},
): WebhookSignatureHeaders {
  return readSignatureHeaders(headers, options);
}

function readSignatureHeaders(
  headers: WebhookHeaders,
  options: VerifyWebhookOptions,
): WebhookSignatureHeaders {
  const id = readHeader(headers, 'webhook-id');
  const timestampText = readHeader(headers, 'webhook-timestamp');
  const signatureHeader = readHeader(headers, 'webhook-signature');
  const missing = [
    ['webhook-id', id],
    ['webhook-timestamp', timestampText],
    ['webhook-signature', signatureHeader],
  ].filter(([, value]) => !value);
  if (missing.length > 0) {
    refuse(`missing header(s): ${missing.map(([name]) => name).join(', ')}`, 'headers');
  }
  if (!/^\d{1,15}$/.test(timestampText!))
    refuse('webhook-timestamp is not whole seconds since the epoch', 'timestamp');

  const timestampSec = Number(timestampText);
  const tolerance = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  const nowSec = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (timestampSec < nowSec - tolerance)
    refuse(`webhook-timestamp is too old (more than ${tolerance} s ago)`, 'timestamp');
  if (timestampSec > nowSec + tolerance)
    refuse(`webhook-timestamp is too new (more than ${tolerance} s ahead)`, 'timestamp');
  if (!signatureHeader!.split(' ').some(isPlausibleV1Entry)) {
    refuse('webhook-signature has no v1,<base64 HMAC-SHA256> entry', 'signature');
  }
  return { id: id!, timestampText: timestampText!, timestampSec, signatureHeader: signatureHeader! };
}

/** `v1,` then the base64 of 32 bytes (44 characters with padding; the reference libraries always pad). */
function isPlausibleV1Entry(entry: string): boolean {
  return /^v1,[A-Za-z0-9+/]{43}=$/.test(entry);
}

/** Signs like the sender does; for tests, the sandbox-free demo and tools. Returns the `v1,<base64>` entry. */
export function signWebhook(
  secret: string,
  id: string,
  timestampSec: number,
  rawBody: string | Uint8Array,
): string {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const mac = createHmac('sha256', decodeSecret(secret))
    .update(Buffer.concat([Buffer.from(`${id}.${timestampSec}.`, 'utf8'), body]))
    .digest('base64');
  return `v1,${mac}`;
}

/** `whsec_<base64>` (the prefix is optional, as in the reference libraries) → key bytes. */
function decodeSecret(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    refuse('a webhook secret is not whsec_<base64>', 'secret');
  }
  return Buffer.from(encoded, 'base64');
}

function readHeader(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null | undefined }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function refuse(message: string, rule: string): never {
  // The message names what failed, never the secret or the expected signature.
  throw new WebhookVerificationError(`Webhook refused: ${message}`, {
    fields: [{ path: 'headers', rule, message }],
  });
}
