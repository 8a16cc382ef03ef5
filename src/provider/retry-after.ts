// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 section 10.2.3).
// spec: Limits (rate limit); the 429 + Retry-After answer itself is our decision (docs/spec-gaps.md).

/** Milliseconds to wait, or undefined when the header is absent or unreadable. Never negative. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: Date = new Date(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
