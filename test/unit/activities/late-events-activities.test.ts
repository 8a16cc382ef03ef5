// activities/late-events-activities.ts: what a fresh entity run learns of a closed payment's events registration.
// Only a definitive answer stands for the run (workflows/provider-payment/steps/announce-late.ts): a payment still
// running is "not yet", never "none".
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { createLateEventsActivities } from '../../../activities/late-events-activities';

interface FakeWorkflow {
  status: string;
  result?: () => Promise<unknown>;
  events?: { endpointUrl: string | null; pending: { id: string }[]; recentIds?: string[] };
}

function fakeClient(workflows: Record<string, FakeWorkflow>): () => Client {
  const client = {
    workflow: {
      getHandle: (id: string) => ({
        describe: async () => ({ status: { name: workflows[id]?.status ?? 'NOT_FOUND' } }),
        result: () => workflows[id]?.result?.() ?? Promise.reject(new Error('no result')),
        query: async () => {
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
});
