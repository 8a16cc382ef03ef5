// Helpers on JSON-like data. Zod-free (workflow code imports them: docs/performance.md).

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Deep copy of JSON-like data (objects, arrays, primitives). Used instead of structuredClone, which the
 * Temporal workflow sandbox may not provide (contract code runs inside workflows too).
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cloneJson(v);
    return out as T;
  }
  return value;
}
