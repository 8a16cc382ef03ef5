// The providerPayment entity of a payment (entity-fewer-actions, entity-leaves-periodic-reads-to-sweep and
// entity-no-ladder-while-subscribed, workflows/provider-payment/patches.ts): while a payment subscribes the entity takes
// no read of its own — no quiet-read ladder (1, 5, 15 min), no periodic read (it read daily while a payment
// subscribed, hourly before that): the payment reads at its deadlines and the reconcile Schedule's sweep finds a lost
// funding or final webhook (activities/reconcile-activities.ts); and it upserts PaymentStatus only with the statuses
// operators query (src/client/stuck.ts). A file of its own: one time-skipping server per file keeps time skipping
// predictable.
import { temporal } from '@temporalio/proto';
import { startPayment } from '../../../src/client/payments';
import { paymentStateQuery } from '../../../workflows/payment/api';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { PaymentStatusKey } from '../../../workflows/search-attributes';
import { uniqueWorkflowId } from '../../support/temporal';
import { deliverPaymentEvent, eventually } from '../support/harness';
import { DAY, MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const EventType = temporal.api.enums.v1.EventType;

async function followedPayment() {
  const paymentKey = uniqueWorkflowId('subscribed-reads');
  const started = await startPayment(
    bed.env.client,
    { paymentKey, request: paymentRequest() },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(started.workflowId);
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const id = started.created.providerPaymentId;
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  bed.worker.started.add(entity.workflowId);
  return { id, entity, payment: bed.env.client.workflow.getHandle(started.workflowId) };
}

/** The entity's own GETs on its timer (activities; the confirming read is a local activity). */
async function readsOf(handle: {
  fetchHistory(): Promise<{ events?: temporal.api.history.v1.IHistoryEvent[] | null }>;
}): Promise<number> {
  const events = (await handle.fetchHistory()).events ?? [];
  return events.filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED).length;
}

it('takes no read of its own while a payment subscribes: no quiet-read ladder, no daily read (the sweep is that read)', async () => {
  bed.newFake();
  const { entity } = await followedPayment();
  // the ladder would have read at 1, 6 and 21 min; the daily read of entity-fewer-actions a day later
  await bed.env.sleep(3 * 60 * MIN);
  await bed.env.sleep(DAY);
  await new Promise((r) => setTimeout(r, 1000)); // its tasks, if any, run before it is counted
  expect(await readsOf(entity)).toBe(0);
});

it('upserts PaymentStatus with a final status, not with each status on the way', async () => {
  bed.newFake();
  const { id, entity, payment } = await followedPayment();
  const indexed = async () => (await entity.describe()).typedSearchAttributes.get(PaymentStatusKey);
  expect(await indexed()).toBe('AWAITING_FUNDS');
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.fund(id, await bed.env.currentTimeMs()));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'PROCESSING'));
  await eventually(
    () => payment.query(paymentStateQuery),
    (s) => s.providerStatus === 'PROCESSING',
  );
  // the snapshot has the status; the search attribute keeps the one operators had (no query looks for PROCESSING)
  expect((await entity.query(providerPaymentSnapshotQuery)).payment?.status).toBe('PROCESSING');
  expect(await indexed()).toBe('AWAITING_FUNDS');
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
  await eventually(indexed, (s) => s === 'COMPLETED');
});
