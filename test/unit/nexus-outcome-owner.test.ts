// A relay reads only its owner's payment (SECURITY.md, "Nexus"): the payment's memo `xborderNexusOwner` must name the
// endpoint the relay's ID names, else the relay's read fails non-retryably (NEXUS_OUTCOME_NOT_OWNER) before it reads
// the payment's result, so caller B cannot start `nexus-outcome:B:<A's key>` and get A's outcome under B's key.
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createNexusOutcomeActivities } from '../../activities/nexus-outcome-activities';

function paymentOwnedBy(owner: string | undefined, exists = true) {
  const read: string[] = [];
  const client = {
    async withAbortSignal<R>(_s: AbortSignal, fn: () => Promise<R>): Promise<R> {
      return fn();
    },
    workflow: {
      getHandle: (workflowId: string) => ({
        describe: async () => {
          if (!exists) throw new WorkflowNotFoundError('not found', workflowId, undefined);
          return {
            status: { name: 'COMPLETED' },
            memo: owner === undefined ? {} : { xborderNexusOwner: owner },
          };
        },
        result: async () => {
          read.push(workflowId);
          return { outcome: 'COMPLETED' };
        },
      }),
    },
  };
  return { read, client: () => client as never };
}

const relay = (workflowId: string) => () => ({ workflowId, cancelled: new AbortController().signal });

it("a relay of endpoint B is refused A's payment, a client's payment and a missing one, without reading any", async () => {
  for (const [owner, exists] of [
    ['xborder-shop', true],
    [undefined, true],
    [undefined, false],
  ] as const) {
    const { read, client } = paymentOwnedBy(owner, exists);
    const activities = createNexusOutcomeActivities({
      client,
      context: relay('nexus-outcome:other-team:order-1'),
    });
    const refused = await activities.awaitPaymentOutcome().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApplicationFailure);
    expect(refused).toMatchObject({ type: 'NEXUS_OUTCOME_NOT_OWNER', nonRetryable: true });
    expect(read).toEqual([]);
  }
});

it("a relay of the payment's owner reads its outcome", async () => {
  const { read, client } = paymentOwnedBy('xborder-shop');
  const activities = createNexusOutcomeActivities({
    client,
    context: relay('nexus-outcome:xborder-shop:order-1'),
  });
  expect(await activities.awaitPaymentOutcome()).toEqual({ ended: true, outcome: { outcome: 'COMPLETED' } });
  expect(read).toEqual(['payment:order-1']);
});

it('the relay reads the memo field the Nexus handler writes', async () => {
  const { NEXUS_OWNER_MEMO: written } = await import('../../src/nexus/caller');
  const { NEXUS_OWNER_MEMO: read } = await import('../../workflows/nexus-outcome/api');
  expect(read).toBe(written);
});

it("readPaymentOutcome refuses another endpoint's payment too, and reads its owner's closed payment", async () => {
  const other = paymentOwnedBy('xborder-shop');
  const refused = await createNexusOutcomeActivities({
    client: other.client,
    context: relay('nexus-outcome:other-team:order-1'),
  })
    .readPaymentOutcome()
    .catch((e: unknown) => e);
  expect(refused).toMatchObject({ type: 'NEXUS_OUTCOME_NOT_OWNER', nonRetryable: true });
  expect(other.read).toEqual([]);
  const own = paymentOwnedBy('xborder-shop');
  const read = createNexusOutcomeActivities({
    client: own.client,
    context: relay('nexus-outcome:xborder-shop:order-1'),
  });
  expect(await read.readPaymentOutcome()).toEqual({ ended: true, outcome: { outcome: 'COMPLETED' } });
});
