// The nexusOutcome relay's wait (activities/nexus-outcome-activities.ts): the payment it reads is named by the
// relay's own ID; one attempt waits a bounded time and answers "not yet"; a payment closed without an outcome ends
// the relay with PAYMENT_ALREADY_FINISHED, never retried. The relay's IDs (src/codec/nexus-outcome-binding.ts).
import { ApplicationFailure, TypedSearchAttributes } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { createNexusOutcomeActivities } from '../../activities/nexus-outcome-activities';
import { nexusOutcomeOf, nexusOutcomeWorkflowId } from '../../src/codec/nexus-outcome-binding';
import { PaymentPhaseKey } from '../../workflows/search-attributes';

// the payment's memo names `owner` (the relay's endpoint here: test/unit/nexus-outcome-owner.test.ts has the others)
function fakeClient(result: (workflowId: string, signal: AbortSignal) => Promise<unknown>, owner = 's') {
  const asked: string[] = [];
  let signal: AbortSignal = new AbortController().signal;
  const client = {
    async withAbortSignal<R>(s: AbortSignal, fn: () => Promise<R>): Promise<R> {
      signal = s;
      return fn();
    },
    workflow: {
      getHandle: (workflowId: string) => ({
        describe: async () => ({ status: { name: 'RUNNING' }, memo: { xborderNexusOwner: owner } }),
        result: () => {
          asked.push(workflowId);
          return result(workflowId, signal);
        },
      }),
    },
  };
  return { asked, client: () => client as never };
}

const relayOf = (workflowId: string) => () => ({ workflowId, cancelled: new AbortController().signal });
const never = (_id: string, signal: AbortSignal) =>
  new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

it('relay IDs name the endpoint and the payment key (a key may hold ":"); other IDs name none', () => {
  expect(nexusOutcomeWorkflowId('xborder-shop', 'order:1')).toBe('nexus-outcome:xborder-shop:order:1');
  expect(nexusOutcomeOf('nexus-outcome:xborder-shop:order:1')).toEqual({
    endpoint: 'xborder-shop',
    paymentKey: 'order:1',
  });
  for (const id of [
    'payment:order-1',
    'nexus-outcome:',
    'nexus-outcome:shop',
    'nexus-outcome::k',
    'nexus-outcome:shop:',
  ])
    expect(nexusOutcomeOf(id)).toBeUndefined();
});

it('reads the payment its own ID names and answers its outcome', async () => {
  const { asked, client } = fakeClient(async () => ({ outcome: 'COMPLETED' }), 'xborder-shop');
  const activities = createNexusOutcomeActivities({
    client,
    context: relayOf('nexus-outcome:xborder-shop:order-1'),
  });
  expect(await activities.awaitPaymentOutcome()).toEqual({ ended: true, outcome: { outcome: 'COMPLETED' } });
  expect(asked).toEqual(['payment:order-1']);
});

it('answers "not yet" when one wait ends before the payment; a cancelled attempt fails (retried elsewhere)', async () => {
  const { client } = fakeClient(never);
  const waiting = createNexusOutcomeActivities({ client, waitMs: 20, context: relayOf('nexus-outcome:s:k') });
  expect(await waiting.awaitPaymentOutcome()).toEqual({ ended: false });
  const stop = new AbortController();
  const stopping = createNexusOutcomeActivities({
    client,
    waitMs: 60_000,
    context: () => ({ workflowId: 'nexus-outcome:s:k', cancelled: stop.signal }),
  });
  const attempt = stopping.awaitPaymentOutcome();
  stop.abort();
  await expect(attempt).rejects.toThrow('aborted');
});

it('a payment closed without an outcome, or an ID that is no relay: a non-retryable failure', async () => {
  const { client } = fakeClient(async (id) => {
    throw new WorkflowFailedError('terminated', new Error(id), 'NON_RETRYABLE_FAILURE');
  });
  const closed = await createNexusOutcomeActivities({ client, context: relayOf('nexus-outcome:s:k') })
    .awaitPaymentOutcome()
    .catch((e: unknown) => e);
  expect(closed).toBeInstanceOf(ApplicationFailure);
  expect(closed).toMatchObject({ type: 'PAYMENT_ALREADY_FINISHED', nonRetryable: true });
  const { asked, client: unused } = fakeClient(async () => ({}));
  const invalid = await createNexusOutcomeActivities({ client: unused, context: relayOf('payment:k') })
    .awaitPaymentOutcome()
    .catch((e: unknown) => e);
  expect(invalid).toMatchObject({ type: 'NEXUS_OUTCOME_ID_INVALID', nonRetryable: true });
  expect(asked).toEqual([]);
});

it('readPaymentOutcome never waits for a running payment; told it is closing, it waits a short while for its close', async () => {
  const { asked, client } = fakeClient(never);
  const reads = createNexusOutcomeActivities({
    client,
    closingWaitMs: 20,
    context: relayOf('nexus-outcome:s:k'),
  });
  expect(await reads.readPaymentOutcome()).toEqual({ ended: false });
  expect(asked).toEqual([]); // described only: no result() long-poll holding the slot
  expect(await reads.readPaymentOutcome({ closing: true })).toEqual({ ended: false });
  expect(asked).toEqual(['payment:k']);
  const closing = fakeClient(async () => ({ outcome: 'COMPLETED' }));
  const told = createNexusOutcomeActivities({
    client: closing.client,
    context: relayOf('nexus-outcome:s:k'),
  });
  expect(await told.readPaymentOutcome({ closing: true })).toEqual({
    ended: true,
    outcome: { outcome: 'COMPLETED' },
  });
});

it('a running payment already in its outcome phase is closing: the first read waits for its close', async () => {
  const asked: string[] = [];
  const client = {
    async withAbortSignal<R>(_s: AbortSignal, fn: () => Promise<R>): Promise<R> {
      return fn();
    },
    workflow: {
      getHandle: (workflowId: string) => ({
        describe: async () => ({
          status: { name: 'RUNNING' },
          memo: { xborderNexusOwner: 's' },
          typedSearchAttributes: new TypedSearchAttributes([{ key: PaymentPhaseKey, value: 'COMPLETED' }]),
        }),
        result: async () => {
          asked.push(workflowId);
          return { outcome: 'COMPLETED' };
        },
      }),
    },
  };
  const reads = createNexusOutcomeActivities({
    client: () => client as never,
    context: relayOf('nexus-outcome:s:k'),
  });
  expect(await reads.readPaymentOutcome()).toEqual({ ended: true, outcome: { outcome: 'COMPLETED' } });
  expect(asked).toEqual(['payment:k']);
});
