// Every move of the money after the outcome reaches the backend exactly once, and only a move that happened
// (workflows/provider-payment/knowledge.ts, moveKey): a refund of late funds that keeps the status EXPIRED is a move
// (spec: States and transitions, row 4); the status the payment decided on with its own read is no move.
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { XborderEventSchema } from '../../../src/contract/outbound-events';
import { paymentStateQuery } from '../../../workflows/payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { wrapActivities } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  deliverPaymentEvent,
  eventually,
  sleepPastFundingDeadline,
} from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { snapshot } = providerPaymentDriver(bed);

async function startWithEvents(
  input: Parameters<typeof bed.startPayment>[0] = {},
): Promise<{ handle: WorkflowHandle; key: string; id: string }> {
  bed.worker.deliveredEvents.length = 0;
  const handle = await bed.startPayment({ events: {}, ...input });
  const key = handle.workflowId.replace(/^payment:/, '');
  bed.worker.started.add(paymentEventsWorkflowId(key));
  const s = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.providerPaymentId !== null,
  );
  bed.worker.started.add(providerPaymentWorkflowId(s.providerPaymentId!));
  return { handle, key, id: s.providerPaymentId! };
}

const eventsOf = (key: string) => bed.worker.deliveredEvents.filter((e) => e.paymentKey === key);

it('late funds refunded on an EXPIRED payment after its outcome are announced once, though the status stays EXPIRED', async () => {
  bed.newFake();
  const { handle, key, id } = await startWithEvents();
  await sleepPastFundingDeadline(bed.env, handle, 2 * MIN);
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('EXPIRED');

  // the payer's bank sends the funds anyway: the service refunds them and keeps the status (row 4)
  const refunded = await bed.fake.fund(id, await bed.env.currentTimeMs());
  expect(refunded.status).toBe('EXPIRED');
  await deliverPaymentEvent(bed.env, bed.taskQueue, refunded);
  await deliverPaymentEvent(bed.env, bed.taskQueue, refunded); // the sender retries
  const moved = await eventually(
    () => Promise.resolve(eventsOf(key).filter((e) => e.type === 'payment.moved_after_outcome')),
    (m) => m.length >= 1,
  );
  await bed.env.sleep(10 * MIN); // a second hand-over would have landed by now
  expect(eventsOf(key).filter((e) => e.type === 'payment.moved_after_outcome')).toHaveLength(1);
  expect(XborderEventSchema.parse(moved[0]).data).toMatchObject({
    providerPaymentId: id,
    providerStatus: 'EXPIRED',
    code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
  });
}, 90_000);

it('a COMPLETED the payment read itself while its entity’s confirming read was failing is no move after the outcome', async () => {
  const fake = bed.newFake();
  // the payment reads the service itself after 2 quiet minutes
  const { handle, key, id } = await startWithEvents({
    options: { expiredLingerMs: MIN, reconcileEveryMs: 2 * MIN },
  });
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );

  let entityReadsFail = true;
  wrapActivities(fake, (inner) => ({
    getPayment: async (pid) => {
      if (entityReadsFail && Context.current().info.workflowType === PROVIDER_PAYMENT_WORKFLOW_TYPE)
        throw ApplicationFailure.nonRetryable('service unreachable from this node', 'NetworkError');
      return inner.getPayment(pid);
    },
  }));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  await eventually(
    () => snapshot(id),
    (s) => (s.unconfirmed?.length ?? 0) > 0,
  );
  // the payment's own read decides COMPLETED; the entity's push is still held
  await bed.env.sleep(3 * MIN);
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('COMPLETED');

  entityReadsFail = false;
  await bed.env.sleep(6 * MIN); // the entity reads again 5 minutes after a read that failed for good
  await eventually(
    () => snapshot(id),
    (s) => (s.unconfirmed?.length ?? 0) === 0 && s.payment?.status === 'COMPLETED',
  );
  await bed.env.sleep(10 * MIN);
  expect(eventsOf(key).map((e) => e.type)).toEqual([
    'payment.created',
    'payment.funds_received',
    'payment.completed',
  ]);
}, 90_000);

it('a return heard 8 days after COMPLETED, once the entity has ended, is announced once by the fresh run', async () => {
  const fake = bed.newFake();
  const { handle, key, id } = await startWithEvents();
  bed.worker.paymentWorkflowOf.set(id, handle.workflowId); // what visibility answers on a real server
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  const completed = await fake.advance(id, 'COMPLETED');
  await deliverPaymentEvent(bed.env, bed.taskQueue, completed);
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  await bed.env.sleep(8 * 24 * 60 * MIN); // past the entity's 7-day linger and the delivery workflow's idle close
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  expect((await entity.describe()).status.name).toBe('COMPLETED');

  const returned = fake.set(id, {
    status: 'REFUNDED',
    error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'returned' },
    lifecycle: { ...completed.lifecycle, refundedAt: new Date(await bed.env.currentTimeMs()).toISOString() },
  });
  await deliverPaymentEvent(bed.env, bed.taskQueue, returned);
  const moved = await eventually(
    () => Promise.resolve(eventsOf(key).filter((e) => e.type === 'payment.moved_after_outcome')),
    (m) => m.length >= 1,
    20_000,
  );
  expect(moved[0]).toMatchObject({
    sequence: 4,
    data: { providerPaymentId: id, providerStatus: 'REFUNDED', code: 'FUNDS_RETURNED_BY_RECEIVING_BANK' },
  });

  // the sender retries after that run has ended too: the registration says the move was handed over already
  await bed.env.sleep(8 * 24 * 60 * MIN);
  await deliverPaymentEvent(bed.env, bed.taskQueue, returned);
  await bed.env.sleep(10 * MIN);
  expect(eventsOf(key).map((e) => e.type)).toEqual([
    'payment.created',
    'payment.funds_received',
    'payment.completed',
    'payment.moved_after_outcome',
  ]);
}, 120_000);
