import { createHash, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import { ApiError } from './api-error';

export interface ApiKeyConfig {
  key: string;
  /** IP allowlist; empty or absent = any address (spec: Authentication 5). */
  allowedIps?: string[];
}

/** `key` or `key@ip1,ip2` (the CLI and env form of an API key). */
export function parseApiKeySpec(spec: string): ApiKeyConfig {
  const at = spec.lastIndexOf('@');
  if (at <= 0) return { key: spec };
  const ips = spec
    .slice(at + 1)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return { key: spec.slice(0, at), allowedIps: ips };
}

/** `::ffff:127.0.0.1` → `127.0.0.1`, so an IPv4 allowlist matches IPv4-mapped addresses. */
export function normalizeIp(ip: string | undefined): string {
  if (!ip) return '';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * spec: Authentication 1 and 5. Missing or unknown key → 401 UNAUTHORIZED (gap: status code, see spec-gaps);
 * a key with an allowlist called from another address → 403 FORBIDDEN once `enforceAllowlist` (from 2026-03-30).
 */
export function authenticate(
  req: IncomingMessage,
  keys: readonly ApiKeyConfig[],
  enforceAllowlist: boolean,
): string {
  const header = req.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new ApiError(401, 'UNAUTHORIZED', 'The X-Api-Key header is missing');
  const config = findApiKey(keys, key);
  if (!config) throw new ApiError(401, 'UNAUTHORIZED', 'The X-Api-Key header carries an unknown API key');
  if (enforceAllowlist && config.allowedIps && config.allowedIps.length > 0) {
    const ip = normalizeIp(req.socket.remoteAddress);
    if (!config.allowedIps.map(normalizeIp).includes(ip)) {
      throw new ApiError(403, 'FORBIDDEN', `Address ${ip} is not on the IP whitelist of this API key`);
    }
  }
  return key;
}

/**
 * The configured key equal to `candidate`, compared in constant time: SHA-256 of each side first (lengths stay
 * hidden), every key compared, no early exit (a `===` or find() would tell by its timing how much of a key matched).
 */
export function findApiKey(keys: readonly ApiKeyConfig[], candidate: string): ApiKeyConfig | undefined {
  const d = digest(candidate);
  let found: ApiKeyConfig | undefined;
  for (const k of keys) if (timingSafeEqual(digest(k.key), d) && found === undefined) found = k;
  return found;
}

/** The header of the control routes' token (docs/sandbox.md, "Control API"). */
export const CONTROL_TOKEN_HEADER = 'x-sandbox-control-token';

/** Control routes anyone may call: they reveal no secret and change nothing. */
const OPEN_CONTROL_ROUTES = new Set([
  'GET /sandbox/health',
  'HEAD /sandbox/health',
  'GET /openapi.json',
  'HEAD /openapi.json',
]);

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * The control routes hand out the webhook secret and move money and time (fund, fail, clock, faults): whoever can
 * reach the port must also hold the control token. Compared in constant time (hashes first: lengths stay hidden).
 */
export function authenticateControl(req: IncomingMessage, method: string, path: string, token: string): void {
  if (OPEN_CONTROL_ROUTES.has(`${method} ${path}`)) return;
  const header = req.headers[CONTROL_TOKEN_HEADER];
  const given = Array.isArray(header) ? header[0] : header;
  if (!given)
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      `The control routes need the ${CONTROL_TOKEN_HEADER} header (the sandbox's control token)`,
    );
  if (!timingSafeEqual(digest(given), digest(token)))
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      `The ${CONTROL_TOKEN_HEADER} header carries a wrong control token`,
    );
}
