// The Nexus handler's refusal of an endpoint without a caller key set fails closed (SECURITY.md, "Nexus"): it finds
// the worker's codec on the handler's client, and when that lookup misses (the client's internals changed, another
// copy of the codec's class) while the worker was configured with XBORDER_NEXUS_CALLER_KEYS, it refuses rather than
// answer as if no caller had keys. Run inside the SDK's own per-request store.
import type { AsyncLocalStorage } from 'node:async_hooks';
import * as nexus from 'nexus-rpc';
import { xborderNexusHandler } from '../../src/nexus/handlers';
import { NEXUS_OWNER_MEMO } from '../../src/nexus/caller';
import { generateCodecKeys, nexusCallerKeysFromEnv } from '../../src/codec';

const storage = (globalThis as unknown as Record<symbol, AsyncLocalStorage<object>>)[
  Symbol.for('__temporal_nexus_context_storage__')
]!;

/** A client without a codec the handler can find; its payment `payment:owned` is `xborder-shop`'s. */
function clientWithoutCodec() {
  const calls: string[] = [];
  const getHandle = (workflowId: string) => ({
    workflowId,
    async describe() {
      calls.push(`describe ${workflowId}`);
      return { status: { name: 'RUNNING' }, memo: { [NEXUS_OWNER_MEMO]: 'xborder-shop' } };
    },
    async query() {
      calls.push(`query ${workflowId}`);
      return { workflowId, phase: 'AWAITING_FUNDS', outcome: null };
    },
  });
  return { calls, client: { workflow: { getHandle } } };
}

const context = (operation: string): nexus.StartOperationContext => ({
  service: 'xborder',
  operation,
  headers: {},
  abortSignal: new AbortController().signal,
  requestId: 'r1',
  inboundLinks: [],
  outboundLinks: [],
});

const getPaymentState = () =>
  xborderNexusHandler.getOperationHandler('getPaymentState') as unknown as nexus.OperationHandler<
    unknown,
    unknown
  >;

it('with XBORDER_NEXUS_CALLER_KEYS set, an unlisted endpoint is refused even when the codec is not found on the client', async () => {
  const xborderKeys = generateCodecKeys('xborder-k1');
  nexusCallerKeysFromEnv(
    { XBORDER_NEXUS_CALLER_KEYS: JSON.stringify({ 'xborder-shop': generateCodecKeys('shop-k1') }) },
    xborderKeys,
  );
  const { calls, client } = clientWithoutCodec();
  const refused = await storage.run(
    { client, namespace: 'payments', taskQueue: 'xborder', endpoint: 'xborder-other', log: console },
    () =>
      getPaymentState()
        .start(context('getPaymentState'), { paymentKey: 'owned' })
        .catch((e: unknown) => e),
  );
  expect(refused).toBeInstanceOf(nexus.HandlerError);
  expect((refused as nexus.HandlerError).type).toBe('UNAUTHORIZED');
  expect((refused as nexus.HandlerError).retryable).toBe(false);
  expect(calls).toEqual([]);
});
