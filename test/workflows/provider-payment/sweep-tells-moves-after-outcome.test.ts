// A move of the money after the outcome whose webhook is lost still reaches the backend, exactly once: the reconcile
// sweep (activities/reconcile-activities.ts) lists the service's payments, and one whose record moved after its outcome
// within the sweep's window (late funds refunded on an EXPIRED payment keep the status and add refundedAt: spec, States
// and transitions, row 4) is handed to its entity, running terminal or ended after its linger. Webhook delivery and
// retries are not shown (spec: Events 5), so nothing here waits for the sender to retry.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { createReconcileActivities } from '../../../activities/reconcile-activities';
import { paymentStateQuery } from '../../../workflows/payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { closedPaymentOutcome, eventually, sleepPastFundingDeadline } from '../support/harness';
import { DAY, MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const HOUR = 60 * MIN;

async function startWithEvents(): Promise<{ handle: WorkflowHandle; key: string; id: string }> {
  bed.worker.deliveredEvents.length = 0;
  const handle = await bed.startPayment({ events: {} });
  const key = handle.workflowId.replace(/^payment:/, '');
  bed.worker.started.add(paymentEventsWorkflowId(key));
  const s = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.providerPaymentId !== null,
  );
  bed.worker.started.add(providerPaymentWorkflowId(s.providerPaymentId!));
  return { handle, key, id: s.providerPaymentId! };
}

const movedOf = (key: string) =>
  bed.worker.deliveredEvents.filter((e) => e.paymentKey === key && e.type === 'payment.moved_after_outcome');

/**
 * One run of the sweep over the fake service's payments, with the Schedule's default 6-hour window. The time-skipping
 * server has no advanced visibility: its list answers no running entity that is not final (true here: the entity
 * holds EXPIRED, or has ended). The signals go to the test server, as the worker's client sends them.
 */
async function sweep(): Promise<void> {
  const client = bed.env.client;
  const activities = createReconcileActivities({
    provider: {
      payments: {
        listAll: async function* () {
          yield* [...bed.fake.payments.values()];
        },
      },
    } as never,
    client: () =>
      ({
        workflow: {
          signalWithStart: client.workflow.signalWithStart.bind(client.workflow),
          list: () => (async function* () {})(),
        },
      }) as unknown as Pick<Client, 'workflow' | 'schedule'>,
    taskQueue: () => bed.taskQueue,
    heartbeat: () => undefined,
  });
  const now = await bed.env.currentTimeMs();
  await activities.reconcileRecentPayments({ since: new Date(now - 6 * HOUR).toISOString() });
}

it('late funds refunded on an EXPIRED payment, the webhook lost, the entity lingering terminal: the sweep tells the move once', async () => {
  bed.newFake();
  const { handle, key, id } = await startWithEvents();
  await sleepPastFundingDeadline(bed.env, handle, 2 * MIN);
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('EXPIRED');

  // the payer's bank sends the funds anyway: the service refunds them and keeps EXPIRED (row 4); the webhook is lost
  const refunded = await bed.fake.fund(id, await bed.env.currentTimeMs());
  expect(refunded.status).toBe('EXPIRED');
  await bed.env.sleep(10 * MIN); // the Schedule's next run (every 15 minutes)
  await sweep();
  const moved = await eventually(
    () => Promise.resolve(movedOf(key)),
    (m) => m.length >= 1,
  );
  expect(moved[0]).toMatchObject({
    data: { providerPaymentId: id, providerStatus: 'EXPIRED', code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' },
  });

  // the next runs list the same record while it is in their window: nothing more is told
  await bed.env.sleep(15 * MIN);
  await sweep();
  await bed.env.sleep(15 * MIN);
  await sweep();
  await bed.env.sleep(10 * MIN);
  expect(movedOf(key)).toHaveLength(1);
}, 90_000);

it('the same after the entity has ended (its linger over): a fresh run finds the registration and tells the move once', async () => {
  const fake = bed.newFake();
  const { handle, key, id } = await startWithEvents();
  bed.worker.paymentWorkflowOf.set(id, handle.workflowId); // what visibility answers on a real server
  await sleepPastFundingDeadline(bed.env, handle, 2 * MIN);
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('EXPIRED');
  await bed.env.sleep(8 * DAY); // past the entity's 7-day linger and the delivery workflow's idle close
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  expect((await entity.describe()).status.name).toBe('COMPLETED');

  await fake.fund(id, await bed.env.currentTimeMs()); // refunded, EXPIRED kept; the webhook is lost
  await bed.env.sleep(10 * MIN);
  await sweep();
  const moved = await eventually(
    () => Promise.resolve(movedOf(key)),
    (m) => m.length >= 1,
    20_000,
  );
  expect(moved[0]).toMatchObject({
    data: { providerPaymentId: id, providerStatus: 'EXPIRED', code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' },
  });

  await bed.env.sleep(15 * MIN);
  await sweep(); // the fresh run is running now: the same trigger id is a duplicate it drops
  await bed.env.sleep(10 * MIN);
  expect(movedOf(key)).toHaveLength(1);
  expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).map((e) => e.type)).toEqual([
    'payment.created',
    'payment.quote_expired',
    'payment.expired',
    'payment.moved_after_outcome',
  ]);
}, 120_000);

it('a sweep tell that starts a fresh run is that run’s first read: no GET of what the sweep just listed', async () => {
  const fake = bed.newFake();
  const { handle, key, id } = await startWithEvents();
  bed.worker.paymentWorkflowOf.set(id, handle.workflowId);
  await sleepPastFundingDeadline(bed.env, handle, 2 * MIN);
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('EXPIRED');
  await bed.env.sleep(8 * DAY); // the entity has ended
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  expect((await entity.describe()).status.name).toBe('COMPLETED');

  await fake.fund(id, await bed.env.currentTimeMs()); // refunded, EXPIRED kept; the webhook is lost
  await bed.env.sleep(10 * MIN);
  const getsBefore = fake.callsOf('getPayment').filter((c) => c.args[0] === id).length;
  await sweep();
  await eventually(
    () => Promise.resolve(movedOf(key)),
    (m) => m.length >= 1,
    20_000,
  );
  await bed.env.sleep(10 * MIN);
  expect(movedOf(key)).toHaveLength(1);
  // the listing answered our own call (knowledge.ts, readerOf: the sweep is a known reader): as good as a GET
  expect(fake.callsOf('getPayment').filter((c) => c.args[0] === id).length).toBe(getsBefore);
}, 120_000);
