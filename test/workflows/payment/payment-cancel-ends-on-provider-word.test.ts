// An accepted cancel ends CANCELLED only when the provider says the payment can no longer be funded (its GET
// reads EXPIRED or a cancelled status), never at our computed deadline alone: the provider's AWAITING_FUNDS
// lifetime is 3 *business* days on its calendar (spec: States and transitions, row 1), and a late funding
// notice (row 2) must never move money on a payment reported CANCELLED. Meanwhile the phase is CANCELLING.
import { cancelPayment, getPaymentState, startPayment } from '../../../src/client';
import { paymentStateQuery, PAYMENT_WORKFLOW_TYPE } from '../../../workflows/payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import type { FakeProvider } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  deliverPaymentEvent,
  eventually,
  sleepPastFundingDeadline,
} from '../support/harness';
import { DAY, MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const HOUR = 60 * MIN;

/** A provider slower than our estimate: it has not expired the payment at our computed deadline. */
function slowToExpire(fake: FakeProvider): void {
  fake.applyTime = async () => undefined;
}

async function startAndCancel() {
  const paymentKey = uniqueWorkflowId('cxl');
  const started = await startPayment(
    bed.env.client,
    { paymentKey, request: paymentRequest(), options: { expiredLingerMs: MIN, reconcileEveryMs: 6 * HOUR } },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(started.workflowId);
  if (started.created.outcome !== 'CREATED') throw new Error('payment not created');
  const sentAt = await bed.env.currentTimeMs(); // the customer pays now; the bank's notice comes late
  const cancelled = await cancelPayment(bed.env.client, paymentKey, 'customer changed their mind');
  return {
    paymentKey,
    handle: bed.env.client.workflow.getHandle(started.workflowId),
    providerPaymentId: started.created.providerPaymentId,
    sentAt,
    cancelled,
  };
}

describe('an accepted cancel, decided by the provider', () => {
  it('keeps listening in CANCELLING past our deadline while the provider says AWAITING_FUNDS; a late funding is followed', async () => {
    const fake = bed.newFake();
    slowToExpire(fake);
    const { paymentKey, handle, providerPaymentId, sentAt, cancelled } = await startAndCancel();
    expect(cancelled).toMatchObject({ phase: 'CANCELLING', cancel: { decision: 'ACCEPTED' } });

    await sleepPastFundingDeadline(bed.env, handle, DAY);
    // before: CANCELLED here, on our clock, while the provider still said AWAITING_FUNDS
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const waiting = await getPaymentState(bed.env.client, paymentKey);
    expect(waiting).toMatchObject({ phase: 'CANCELLING', providerStatus: 'AWAITING_FUNDS', outcome: null });
    expect(fake.callsOf('getPayment', PAYMENT_WORKFLOW_TYPE).length).toBeGreaterThan(0); // it asked the provider

    // the late notice of funds sent in time (spec: row 2): the money moves, and the payment says so
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(providerPaymentId, sentAt));
    const funded = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );
    expect(funded.alerts?.map((a) => a.kind)).toContain('FUNDED_AFTER_CANCEL');
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(providerPaymentId, 'COMPLETED'));
    expect(await closedPaymentOutcome(handle)).toMatchObject({ outcome: 'COMPLETED' });
  });

  it('ends CANCELLED once a later read says the provider cancelled it (a status the contract does not name)', async () => {
    const fake = bed.newFake();
    slowToExpire(fake);
    const { handle, providerPaymentId } = await startAndCancel();
    await sleepPastFundingDeadline(bed.env, handle, DAY);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    fake.set(providerPaymentId, { status: 'CANCELLED' });
    await bed.env.sleep(7 * HOUR); // the next read, then the linger
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({
      outcome: 'CANCELLED',
      payment: { id: providerPaymentId, status: 'CANCELLED' },
    });
    expect(outcome.alerts?.map((a) => a.kind) ?? []).not.toContain('FUNDED_AFTER_CANCEL');
  });

  it('ends CANCELLED after the linger once the provider has expired it, as read by GET', async () => {
    bed.newFake();
    const { handle, providerPaymentId } = await startAndCancel();
    await sleepPastFundingDeadline(bed.env, handle, DAY);
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({
      outcome: 'CANCELLED',
      payment: { id: providerPaymentId, status: 'EXPIRED' },
    });
  });
});
