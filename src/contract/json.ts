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

/** Keys that, assigned on a plain object (as zod's looseObject and cloneJson do), change its prototype. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * JSON.parse for text from outside (webhooks, service responses): drops `__proto__`, `constructor` and
 * `prototype` keys at every depth. JSON.parse keeps `{"__proto__": …}` as an own key, harmless until a copy
 * assigns it — then it becomes the copy's prototype and its fields read as the payment's own (a status, say).
 * Dropped, not refused: such a key is never part of the contract (spec: Events 5, the envelope is ours), and a
 * signed event refused with a 4xx would be lost.
 */
export function parseJsonText(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (PROTOTYPE_KEYS.has(key) ? undefined : value)) as unknown;
}
