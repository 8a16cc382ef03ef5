// The workflow sandbox of @temporalio/workflow 1.24 has no `structuredClone`, which src/contract's
// normalizePayment uses. Everything a workflow holds came through the JSON data converter, so a JSON
// round trip is an exact, deterministic clone. Imported first by every workflow that normalizes.
const g = globalThis as { structuredClone?: <T>(value: T) => T };
if (typeof g.structuredClone !== 'function') {
  g.structuredClone = <T>(value: T): T =>
    value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
export {};
