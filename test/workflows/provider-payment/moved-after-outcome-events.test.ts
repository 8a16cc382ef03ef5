// A payout can still be returned or refunded after its outcome (spec: "States and transitions"): a payment that
// asked for events gets payment.moved_after_outcome, numbered after payment.completed, once per move, from the
// providerPayment entity that hears it after the payment closed; a payment without events gets nothing.
import type { WorkflowHandle } from '@temporalio/client';
import { XborderEventSchema } from '../../../src/contract/outbound-events';
import { paymentStateQuery } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { closedPaymentOutcome, deliverPaymentEvent, eventually } from '../support/harness';
import { iso, wrapActivities } from '../support/fake-provider';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();

async function createdId(handle: WorkflowHandle): Promise<string> {
  const s = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.providerPaymentId !== null,
  );
  bed.worker.started.add(providerPaymentWorkflowId(s.providerPaymentId!));
  return s.providerPaymentId!;
}

/** Completes a payout, then the receiving bank returns it (delivered `times` times, as a webhook retried). */
async function completeThenReturn(handle: WorkflowHandle, times: number): Promise<string> {
  const id = await createdId(handle);
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  const completed = await bed.fake.advance(id, 'COMPLETED');
  await deliverPaymentEvent(bed.env, bed.taskQueue, completed);
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  const returned = bed.fake.set(id, {
    status: 'REFUNDED',
    error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'returned' },
    lifecycle: { ...completed.lifecycle, refundedAt: iso(await bed.env.currentTimeMs()) },
  });
  for (let i = 0; i < times; i++) {
    await deliverPaymentEvent(bed.env, bed.taskQueue, returned);
    await bed.env.sleep(60_000);
  }
  return id;
}

describe('a move after the outcome', () => {
  it('a payout with events that is returned after COMPLETED sends payment.moved_after_outcome next, once', async () => {
    bed.worker.deliveredEvents.length = 0;
    const handle = await bed.startPayment({ events: {} });
    const key = handle.workflowId.replace(/^payment:/, '');
    bed.worker.started.add(paymentEventsWorkflowId(key));
    const id = await completeThenReturn(handle, 2);
    const mine = () => bed.worker.deliveredEvents.filter((e) => e.paymentKey === key);
    await eventually(
      () => Promise.resolve(mine().length),
      (n) => n >= 4,
    );
    await bed.env.sleep(10 * 60_000); // a second hand-over would have landed by now
    const events = mine();
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'payment.created'],
      [2, 'payment.funds_received'],
      [3, 'payment.completed'],
      [4, 'payment.moved_after_outcome'],
    ]);
    const moved = XborderEventSchema.parse(events[3]);
    expect(moved.data).toMatchObject({
      providerPaymentId: id,
      providerStatus: 'REFUNDED',
      code: 'FUNDS_RETURNED_BY_RECEIVING_BANK',
    });
    expect(JSON.stringify(moved)).not.toContain('cus_1'); // no customer data
  }, 90_000);

  it('a payment whose entity a webhook started first and whose create-follow failed still gets the late event', async () => {
    bed.worker.deliveredEvents.length = 0;
    // the provider's webhook starts the entity before the create's follow, and that follow fails: the payment
    // falls back to the `subscribe` signal (workflows/follow-entity.ts), which must carry the events registration
    wrapActivities(bed.newFake(), (inner) => ({
      createPaymentAndFollow: async (request, idempotencyKey) => {
        const p = await inner.createPayment(request, idempotencyKey);
        await deliverPaymentEvent(bed.env, bed.taskQueue, p);
        return { payment: p, followed: false, error: 'test: the follow failed' };
      },
    }));
    const handle = await bed.startPayment({ events: {} });
    const key = handle.workflowId.replace(/^payment:/, '');
    bed.worker.started.add(paymentEventsWorkflowId(key));
    const id = await completeThenReturn(handle, 1);
    const mine = () => bed.worker.deliveredEvents.filter((e) => e.paymentKey === key);
    await eventually(
      () => Promise.resolve(mine().length),
      (n) => n >= 4,
    );
    expect(mine().map((e) => [e.sequence, e.type])).toEqual([
      [1, 'payment.created'],
      [2, 'payment.funds_received'],
      [3, 'payment.completed'],
      [4, 'payment.moved_after_outcome'],
    ]);
    expect(mine()[3]!.data).toMatchObject({ providerPaymentId: id, providerStatus: 'REFUNDED' });
  }, 90_000);

  it('a payout without events that is returned after COMPLETED sends nothing', async () => {
    bed.worker.deliveredEvents.length = 0;
    const handle = await bed.startPayment();
    await completeThenReturn(handle, 1);
    await bed.env.sleep(10 * 60_000);
    expect(bed.worker.deliveredEvents).toEqual([]);
  }, 90_000);
});
