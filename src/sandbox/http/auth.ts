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
export function authenticate(req: IncomingMessage, keys: readonly ApiKeyConfig[], enforceAllowlist: boolean): string {
  const header = req.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) throw new ApiError(401, 'UNAUTHORIZED', 'The X-Api-Key header is missing');
  const config = keys.find((k) => k.key === key);
  if (!config) throw new ApiError(401, 'UNAUTHORIZED', 'The X-Api-Key header carries an unknown API key');
  if (enforceAllowlist && config.allowedIps && config.allowedIps.length > 0) {
    const ip = normalizeIp(req.socket.remoteAddress);
    if (!config.allowedIps.map(normalizeIp).includes(ip)) {
      throw new ApiError(403, 'FORBIDDEN', `Address ${ip} is not on the IP whitelist of this API key`);
    }
  }
  return key;
}
