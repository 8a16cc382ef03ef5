// The Nexus handlers act only for the caller that owns the payment: the caller is the endpoint the server routed the
// request through (the SDK's request store), the owner is the memo recorded at start. Run inside the SDK's own
// per-request store with a client that records what it is asked, so "nothing was read or sent" is checked too.
import type { AsyncLocalStorage } from 'node:async_hooks';
import * as nexus from 'nexus-rpc';
import { WorkflowNotFoundError } from '@temporalio/client';
import { generateWorkflowRunOperationToken } from '@temporalio/nexus/lib/token';
import { xborderNexusHandler } from '../../src/nexus/handlers';
import { NEXUS_OWNER_MEMO } from '../../src/nexus/caller';
import { callerWorkflowOf } from '../../src/nexus/caller-workflow';
import { xborderFailureType } from '../../src/nexus/service';
import {
  EncryptionCodec,
  generateCodecKeys,
  staticKeyProvider,
  staticNexusCallerKeyring,
} from '../../src/codec';

const storage = (globalThis as unknown as Record<symbol, AsyncLocalStorage<object>>)[
  Symbol.for('__temporal_nexus_context_storage__')
]!;

/** A client whose payment `payment:owned` belongs to `xborder-shop`; every call is recorded. */
function fakeClient() {
  const calls: string[] = [];
  const handle = (workflowId: string) => ({
    workflowId,
    async describe() {
      calls.push(`describe ${workflowId}`);
      if (workflowId !== 'payment:owned') throw new WorkflowNotFoundError('not found', workflowId, undefined);
      return { status: { name: 'RUNNING' }, memo: { [NEXUS_OWNER_MEMO]: 'xborder-shop' } };
    },
    async query() {
      calls.push(`query ${workflowId}`);
      return { workflowId, phase: 'AWAITING_FUNDS', outcome: null, customerId: 'cus_secret' };
    },
    async executeUpdate() {
      calls.push(`update ${workflowId}`);
      return { workflowId, phase: 'CANCELLING' };
    },
    async cancel() {
      calls.push(`cancel ${workflowId}`);
    },
  });
  return { calls, client: { workflow: { getHandle: handle } } };
}

function context(operation: string): nexus.StartOperationContext {
  return {
    service: 'xborder',
    operation,
    headers: {},
    abortSignal: new AbortController().signal,
    requestId: 'r1',
    inboundLinks: [],
    outboundLinks: [],
  };
}

async function asCaller<T>(endpoint: string, client: unknown, run: () => Promise<T>): Promise<T | unknown> {
  return storage.run({ client, namespace: 'payments', taskQueue: 'xborder', endpoint, log: console }, () =>
    run().catch((e: unknown) => e),
  );
}

const op = (name: 'getPaymentState' | 'cancelPayment' | 'paymentOutcome') =>
  xborderNexusHandler.getOperationHandler(name) as unknown as nexus.OperationHandler<unknown, unknown>;

it.each(['getPaymentState', 'cancelPayment'] as const)(
  '%s: another caller gets the answer of a key never used, and nothing is read or sent',
  async (name) => {
    const { calls, client } = fakeClient();
    const foreign = await asCaller('xborder-other', client, () =>
      op(name).start(context(name), { paymentKey: 'owned', reason: 'x' }),
    );
    const never = await asCaller('xborder-other', client, () =>
      op(name).start(context(name), { paymentKey: 'never', reason: 'x' }),
    );
    expect(xborderFailureType(foreign)).toBe('PAYMENT_NOT_FOUND');
    expect(String(foreign).replace('owned', '<key>')).toBe(String(never).replace('never', '<key>'));
    expect(calls).toEqual(['describe payment:owned', 'describe payment:never']);
    // the owner is answered
    const own = await asCaller('xborder-shop', client, () =>
      op(name).start(context(name), { paymentKey: 'owned', reason: 'x' }),
    );
    expect(own).toMatchObject({ value: { workflowId: 'payment:owned' } });
  },
);

it('a request routed through no endpoint is refused before anything is read', async () => {
  const { calls, client } = fakeClient();
  const refused = await asCaller('', client, () =>
    op('getPaymentState').start(context('getPaymentState'), { paymentKey: 'owned' }),
  );
  expect(refused).toBeInstanceOf(nexus.HandlerError);
  expect((refused as nexus.HandlerError).type).toBe('UNAUTHORIZED');
  expect(calls).toEqual([]);
});

it('once callers have their own keys, a request through an endpoint without a key set is refused before anything is read', async () => {
  const { calls, client } = fakeClient();
  const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('xborder-k1')), {
    nexusCallers: staticNexusCallerKeyring({ 'xborder-shop': generateCodecKeys('shop-k1') }),
  });
  const withCodec = { ...client, options: { loadedDataConverter: { payloadCodecs: [codec] } } };
  const refused = await asCaller('xborder-other', withCodec, () =>
    op('getPaymentState').start(context('getPaymentState'), { paymentKey: 'owned' }),
  );
  expect((refused as nexus.HandlerError).type).toBe('UNAUTHORIZED');
  expect((refused as nexus.HandlerError).retryable).toBe(false);
  expect(String(refused)).toMatch(/"xborder-other" has no caller key set in XBORDER_NEXUS_CALLER_KEYS/);
  expect(calls).toEqual([]);
  // the endpoint with a key set is answered
  const own = await asCaller('xborder-shop', withCodec, () =>
    op('getPaymentState').start(context('getPaymentState'), { paymentKey: 'owned' }),
  );
  expect(own).toMatchObject({ value: { workflowId: 'payment:owned' } });
});

it('a cancel whose token names another caller payment (tokens can be forged) cancels nothing; the owner cancels', async () => {
  const { calls, client } = fakeClient();
  const token = generateWorkflowRunOperationToken('payments', 'payment:owned');
  const forged = await asCaller('xborder-other', client, () =>
    op('paymentOutcome').cancel(context('paymentOutcome'), token),
  );
  expect((forged as nexus.HandlerError).type).toBe('NOT_FOUND');
  const elsewhere = await asCaller('xborder-shop', client, () =>
    op('paymentOutcome').cancel(
      context('paymentOutcome'),
      generateWorkflowRunOperationToken('payments', 'provider-payment:p1'),
    ),
  );
  expect((elsewhere as nexus.HandlerError).type).toBe('NOT_FOUND');
  expect(calls).not.toContain('cancel payment:owned');
  await asCaller('xborder-shop', client, () => op('paymentOutcome').cancel(context('paymentOutcome'), token));
  expect(calls).toContain('cancel payment:owned');
});

it("a relay's token (a caller with its own keys) cancels the payment, only for the endpoint and owner it names", async () => {
  const { calls, client } = fakeClient();
  const relayToken = (id: string) => generateWorkflowRunOperationToken('payments', id);
  const otherEndpoint = await asCaller('xborder-other', client, () =>
    op('paymentOutcome').cancel(context('paymentOutcome'), relayToken('nexus-outcome:xborder-shop:owned')),
  );
  expect((otherEndpoint as nexus.HandlerError).type).toBe('NOT_FOUND');
  const notOwned = await asCaller('xborder-other', client, () =>
    op('paymentOutcome').cancel(context('paymentOutcome'), relayToken('nexus-outcome:xborder-other:owned')),
  );
  expect((notOwned as nexus.HandlerError).type).toBe('NOT_FOUND');
  expect(calls).not.toContain('cancel payment:owned');
  await asCaller('xborder-shop', client, () =>
    op('paymentOutcome').cancel(context('paymentOutcome'), relayToken('nexus-outcome:xborder-shop:owned')),
  );
  expect(calls).toContain('cancel payment:owned');
  expect(calls.filter((c) => c.startsWith('cancel'))).toEqual(['cancel payment:owned']);
});

it('the caller workflow is read from a workflow-event link; other links name nobody', () => {
  const link = {
    type: 'temporal.api.common.v1.Link.WorkflowEvent',
    url: new URL(
      'temporal:///namespaces/shop/workflows/order%2F7/run-1/history?referenceType=EventReference&eventID=5&eventType=NexusOperationScheduled',
    ),
  };
  expect(callerWorkflowOf([link])).toEqual({ namespace: 'shop', workflowId: 'order/7' });
  expect(callerWorkflowOf([{ type: 'other', url: new URL('https://example.com') }])).toBeUndefined();
  expect(callerWorkflowOf(undefined)).toBeUndefined();
});
