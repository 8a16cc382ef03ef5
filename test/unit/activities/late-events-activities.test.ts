// activities/late-events-activities.ts: what a fresh entity run learns of a closed payment's events registration.
// Only a definitive answer stands for the run (workflows/provider-payment/steps/announce-late.ts): a payment still
// running is "not yet", never "none".
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { createLateEventsActivities } from '../../../activities/late-events-activities';

interface FakeWorkflow {
  status: string;
  result?: () => Promise<unknown>;
  events?: { endpointUrl: string | null; pending: { id: string }[]; recentIds?: string[] };
  /** the payment's `state` query (answered by a closed run too: its history replayed) */
  state?: { providerPaymentId: string | null; providerStatus: string | null; outcome: null };
}

function fakeClient(workflows: Record<string, FakeWorkflow>): () => Client {
  const client = {
    workflow: {
      getHandle: (id: string) => ({
        describe: async () => ({ status: { name: workflows[id]?.status ?? 'NOT_FOUND' } }),
        result: () => workflows[id]?.result?.() ?? Promise.reject(new Error('no result')),
        query: async (def: { name: string }) => {
          if (def.name === 'state') {
            const state = workflows[id]?.state;
            if (!state) throw new Error('query failed');
            return state;
          }
          const events = workflows[id]?.events;
          if (!events) throw new WorkflowNotFoundError('not found', id, undefined);
          return events;
        },
      }),
    },
  };
  return () => client as unknown as Client;
}

describe('findLateEventsRegistration', () => {
  it('a payment still running is not yet an answer (asked again later), never "none"', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': { status: 'RUNNING' },
        'payment-events:k1': { status: 'RUNNING', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toEqual({ notYet: 'payment-running' });
  });

  it('no payment of ours, or one that asked for no events, is a definitive none', async () => {
    const none = createLateEventsActivities({
      client: fakeClient({}),
      paymentWorkflowOf: async () => null,
    }).findLateEventsRegistration;
    await expect(none('pay_1')).resolves.toBeNull();
    const noEvents = createLateEventsActivities({
      client: fakeClient({ 'payment:k1': { status: 'COMPLETED' } }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(noEvents('pay_1')).resolves.toBeNull();
  });

  it('a payment that failed or was terminated (no outcome) was told at most what it knew last, not nothing', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'TERMINATED',
          state: { providerPaymentId: 'pay_1', providerStatus: 'COMPLETED', outcome: null },
        },
        'payment-events:k1': {
          status: 'COMPLETED',
          events: { endpointUrl: 'https://b.example/ev', pending: [] },
        },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toEqual({
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: 'https://b.example/ev',
      told: 'COMPLETED',
    });
  });

  it('a closed payment whose last state cannot be read is no answer (asked again later)', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': { status: 'FAILED' },
        'payment-events:k1': { status: 'COMPLETED', events: { endpointUrl: null, pending: [] } },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).rejects.toThrow('query failed');
  });

  it('a move the delivery workflow handed over is what was told last, whatever the outcome', async () => {
    const find = createLateEventsActivities({
      client: fakeClient({
        'payment:k1': {
          status: 'COMPLETED',
          result: async () => ({ outcome: 'COMPLETED', payment: { id: 'pay_1', status: 'COMPLETED' } }),
        },
        'payment-events:k1': {
          status: 'COMPLETED',
          events: { endpointUrl: null, pending: [], recentIds: ['r:1', 'k1:moved:pay_1:REFUNDED'] },
        },
      }),
      paymentWorkflowOf: async () => 'payment:k1',
    }).findLateEventsRegistration;
    await expect(find('pay_1')).resolves.toMatchObject({ told: 'REFUNDED' });
  });
});
