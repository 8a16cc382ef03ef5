// A push is a trigger to read, nothing more (workflows/provider-payment/knowledge.ts). Not only a pushed final
// status: a status on the way (PENDING), a lifecycle timestamp (refundedAt) or a figure changes nothing the payment
// knows, shows or allows until the entity's own GET bears it out. A push the GET does not bear out is kept as a
// mismatch on the entity (`xborder stuck`: WEBHOOK_NOT_CONFIRMED), never forwarded.
import type { WorkflowHandle } from '@temporalio/client';
import type { Payment } from '../../../src/contract';
import { PaymentPhaseKey } from '../../../workflows/messages';
import { cancelUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { PUSH_MISMATCH_PHASE } from '../../../workflows/provider-payment/push-confirmation';
import { iso } from '../support/fake-provider';
import { closedPaymentOutcome, created, deliverPaymentEvent, eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { snapshot } = providerPaymentDriver(bed);

async function startFollowed(): Promise<{ handle: WorkflowHandle; id: string }> {
  const handle = await bed.startPayment();
  const c = await created(handle);
  bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
  return { handle, id: c.providerPaymentId };
}

/** The payment as the service holds it, with what a sender holding the webhook secret adds. */
async function forged(
  id: string,
  change: (real: Payment, now: string) => Partial<Payment>,
): Promise<Payment> {
  const now = iso(await bed.env.currentTimeMs());
  const real = bed.fake.payments.get(id)!;
  return { ...real, ...change(real, now) } as Payment;
}

async function untilJudged(id: string, mismatches = 1) {
  return eventually(
    () => snapshot(id),
    (s) => (s.pushMismatches?.length ?? 0) >= mismatches && (s.unconfirmed?.length ?? 0) === 0,
  );
}

it('a signed PROCESSING carrying refundedAt the service does not have ends nothing: the payment goes on to its real end', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'PROCESSING'));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.providerStatus === 'PROCESSING',
  );
  const eventId = await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await forged(id, (real, now) => ({ lifecycle: { ...real.lifecycle, refundedAt: now } })),
  );
  const snap = await untilJudged(id);
  expect(snap.pushMismatches).toEqual([
    { eventId, pushed: 'PROCESSING', read: 'PROCESSING', at: expect.any(String) },
  ]);
  expect(snap.payment?.lifecycle.refundedAt).toBeNull();
  const state = await handle.query(paymentStateQuery);
  expect(state.outcome).toBeNull();
  expect(state.phase).toBe('IN_PROGRESS');
  const entity = await bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).describe();
  expect(entity.typedSearchAttributes.get(PaymentPhaseKey)).toBe(PUSH_MISMATCH_PHASE);

  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
});

it('AWAITING_FUNDS with a pushed refundedAt does not close the payment; the real funding that follows is taken', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await forged(id, (real, now) => ({ lifecycle: { ...real.lifecycle, refundedAt: now } })),
  );
  await untilJudged(id);
  const state = await handle.query(paymentStateQuery);
  expect(state.outcome).toBeNull();
  expect(state.phase).toBe('AWAITING_FUNDS');
  expect(state.fundingInstructions).not.toBeNull();

  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
});

it('a signed PENDING the service does not bear out moves nothing: no funds in, and a cancel is still accepted', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  const eventId = await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await forged(id, () => ({ status: 'PENDING' })),
  );
  const snap = await untilJudged(id);
  expect(snap.pushMismatches).toEqual([
    { eventId, pushed: 'PENDING', read: 'AWAITING_FUNDS', at: expect.any(String) },
  ]);
  const state = await handle.query(paymentStateQuery);
  expect(state.phase).toBe('AWAITING_FUNDS');
  expect(state.providerStatus).toBe('AWAITING_FUNDS');
  expect(state.timeline.some((t) => t.kind === 'status')).toBe(false);
  // the entity's read was the judge
  expect(fake.callsOf('getPayment', PROVIDER_PAYMENT_WORKFLOW_TYPE).map((c) => c.args[0])).toEqual([id]);
  const cancelled = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'order cancelled' }] });
  expect(cancelled.cancel?.decision).toBe('ACCEPTED');
});

it('a true PENDING is confirmed by the entity’s read and moves the payment on', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  const state = await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  expect(state.providerStatus).toBe('PENDING');
  const snap = await snapshot(id);
  expect(snap.pushMismatches).toEqual([]);
  expect(snap.statusHistory.at(-1)).toMatchObject({ status: 'PENDING', cause: 'event' });
  expect(fake.callsOf('getPayment', PROVIDER_PAYMENT_WORKFLOW_TYPE)).toHaveLength(1);
});
