// A refund heard after the entity ended, for a payment that closed with no outcome of it (terminated, failed,
// cancelled before it knew the service's payment) on a build that has since been drained: the payment is PINNED, so
// no worker can answer its `state` query any more. The fresh entity run's registration lookup
// (activities/late-events-activities.ts) must still answer, and the refund reach the backend exactly once.
import { ServiceError, WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { createEventHandOverActivities } from '../../../activities/event-delivery-activities';
import { createLateEventsActivities } from '../../../activities/late-events-activities';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import {
  providerPaymentWorkflowId,
  type ProviderPaymentSnapshot,
} from '../../../workflows/provider-payment/api';
import { movedAfterOutcomeEvent } from '../../../workflows/provider-payment/steps/announce-late';
import { eventually } from '../support/harness';
import { iso } from '../support/fake-provider';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { DAY, MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { providerCreates, send } = providerPaymentDriver(bed);

afterEach(() => {
  bed.worker.lateEventsLookup = null;
});

/** What the client throws for a query no worker polls for (the server's FAILED_PRECONDITION, wrapped). */
function noPollerError(): ServiceError {
  const grpc = Object.assign(
    new Error('9 FAILED_PRECONDITION: No poller seen for task queue recently, worker may be down.'),
    { code: 9 },
  );
  return new ServiceError('Failed to query Workflow', { cause: grpc });
}

/**
 * The test server's client, except for the payment workflow `paymentId`: closed (TERMINATED, so no result), and its
 * queries unanswered as when its PINNED build has no poller. Its delivery workflow is the real one.
 */
function drainedPaymentClient(real: Client, paymentId: string): () => Client {
  const payment = {
    describe: async () => ({ status: { name: 'TERMINATED' } }),
    // what the client throws for a terminated run's result (a run with no result)
    result: () =>
      Promise.reject(
        new WorkflowFailedError('Workflow execution terminated', undefined, 'NON_RETRYABLE_FAILURE'),
      ),
    query: () => Promise.reject(noPollerError()),
  } as unknown as WorkflowHandle;
  const client = {
    workflow: {
      getHandle: (id: string) => (id === paymentId ? payment : real.workflow.getHandle(id)),
    },
  } as unknown as Client;
  return () => client;
}

it('a refund after the entity ended, for a payment no worker of its build can query, is announced exactly once', async () => {
  bed.worker.deliveredEvents.length = 0;
  bed.newFake();
  const now = await bed.env.currentTimeMs();
  const completed = await providerCreates({
    status: 'COMPLETED',
    lifecycle: { createdAt: iso(now - 9 * MIN), completedAt: iso(now - MIN) },
  } as never);
  const key = `drained-${completed.id}`;
  const paymentId = `payment:${key}`;
  bed.worker.started.add(paymentEventsWorkflowId(key));
  bed.worker.started.add(providerPaymentWorkflowId(completed.id));
  // the payment asked for events and handed over its first one before it was terminated
  await createEventHandOverActivities({
    client: () => bed.env.client,
    taskQueue: () => bed.taskQueue,
  }).handOverPaymentEvent(key, null, {
    ...movedAfterOutcomeEvent(key, completed, iso(now - 9 * MIN)),
    id: `${key}:1`,
    type: 'payment.created',
    sequence: 1,
  } as never);
  bed.worker.lateEventsLookup = createLateEventsActivities({
    client: drainedPaymentClient(bed.env.client, paymentId),
    paymentWorkflowOf: async (id) => (id === completed.id ? paymentId : null),
  }).findLateEventsRegistration;

  // the receiving bank returns it (spec: States and transitions, row 4); no entity runs: a fresh run reads and looks up
  const returned = bed.fake.set(completed.id, {
    status: 'REFUNDED',
    error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'returned' },
    lifecycle: { ...completed.lifecycle, refundedAt: iso(now) },
  } as never);
  await send(returned, 'evt_returned');
  const moved = () =>
    bed.worker.deliveredEvents.filter(
      (e) => e.paymentKey === key && e.type === 'payment.moved_after_outcome',
    );
  await eventually(
    () => Promise.resolve(moved().length),
    (n) => n >= 1,
    20_000,
  );
  expect(moved()[0]).toMatchObject({
    id: `${key}:moved:${completed.id}:REFUNDED`,
    sequence: 2,
    data: { providerStatus: 'REFUNDED', code: 'FUNDS_RETURNED_BY_RECEIVING_BANK' },
  });

  // the sender retries, in this run and after it has ended (a new fresh run): the hand-over id says it was told
  await send(returned, 'evt_returned_again');
  await bed.env.sleep(8 * DAY);
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(completed.id));
  expect((await entity.describe()).status.name).toBe('COMPLETED'); // its linger over: the next send is a fresh run
  // its result names the payment whose late events it kept: a later run finds it there when visibility does not
  expect(((await entity.result()) as ProviderPaymentSnapshot).eventsFor).toEqual([paymentId]);
  await send(returned, 'evt_returned_late');
  await bed.env.sleep(10 * MIN);
  expect(moved()).toHaveLength(1);
}, 120_000);
