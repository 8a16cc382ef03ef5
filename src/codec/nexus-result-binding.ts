// The binding of what a Nexus handler answers (docs/codec.md, "Nexus callers"). The SDK encodes an operation's
// synchronous result and failures with no SerializationContext (@temporalio/worker 1.24.0, nexus/index.js:
// `encodeToPayload(dataConverter, value, undefined, …)`), so the codec alone would write them unbound, and a caller
// running XBORDER_CODEC_UNBOUND=refuse could not read them. The handler knows who reads the answer: the caller's
// workflow, named by the request's inbound link. It records that workflow here, and the codec binds what it encodes
// without a context, inside that request, to it; the caller then decodes the answer as its own workflow's payload.
//
// "Inside that request" is the SDK's own AsyncLocalStorage of the Nexus handler context, shared through a global
// symbol (@temporalio/nexus 1.24.0, lib/context.js) so this module needs no import of the optional @temporalio/nexus:
// the request's encode runs in the same store as the handler, and each request has its own store object.

export interface NexusResultBinding {
  namespace: string;
  workflowId: string;
}

interface StoreHolder {
  getStore(): unknown;
}

const STORAGE = Symbol.for('__temporal_nexus_context_storage__');
const bindings = new WeakMap<object, NexusResultBinding>();

function currentRequest(): object | undefined {
  const storage = (globalThis as Record<symbol, StoreHolder | undefined>)[STORAGE];
  const store = storage?.getStore();
  return typeof store === 'object' && store !== null ? store : undefined;
}

/** Called by a Nexus handler: what the codec encodes without a context in this request is bound to `binding`. */
export function bindNexusAnswerTo(binding: NexusResultBinding): boolean {
  const request = currentRequest();
  if (!request) return false;
  bindings.set(request, binding);
  return true;
}

/**
 * The endpoint the current Nexus request came through (the SDK's store holds it: `endpoint`, @temporalio/worker
 * 1.24.0, nexus/index.js), or undefined outside a Nexus request or when it names none. The codec chooses the
 * caller's key set by it (src/codec/nexus-caller-keys.ts): the request's own input and answers only.
 */
export function currentNexusEndpoint(): string | undefined {
  const endpoint = (currentRequest() as { endpoint?: unknown } | undefined)?.endpoint;
  return typeof endpoint === 'string' && endpoint !== '' ? endpoint : undefined;
}

/** Whether the code runs inside a Nexus request (the SDK's per-request store), whichever endpoint it names. */
export function insideNexusRequest(): boolean {
  return currentRequest() !== undefined;
}

/** The binding recorded for the current Nexus request, if any. */
export function nexusAnswerBinding(): NexusResultBinding | undefined {
  const request = currentRequest();
  return request ? bindings.get(request) : undefined;
}
