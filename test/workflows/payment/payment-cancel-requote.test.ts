// payment workflow: cancel and requote rules (a file of its own: one time-skipping server per file).
import { type PaymentInput } from '../../../workflows/messages';
import { cancelUpdate, paymentStateQuery, requoteUpdate } from '../../../workflows/payment/api';
import { QUOTE_VALIDITY_MS } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  deliverPaymentEvent,
  eventually,
  created,
  refusalType,
  sleepPastFundingDeadline,
} from '../support/harness';
import { DAY, MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const newFake = bed.newFake;

async function inWorker(fn: (taskQueue: string) => Promise<void>): Promise<void> {
  await fn(bed.taskQueue);
}

function startPayment(_taskQueue: string, input: Partial<PaymentInput> = {}) {
  return bed.startPayment(input);
}

describe('payment: cancel and requote', () => {
  it('cancel before funds → CANCELLED with the provider payment (left to expire, listened to until it expires)', async () => {
    newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      const state = await handle.executeUpdate(cancelUpdate, {
        args: [{ reason: 'customer changed their mind' }],
      });
      expect(state.phase).toBe('CANCELLING'); // CANCELLED once the provider says nothing can fund it
      // a late notice could still fund it (spec: States and transitions, row 2): the workflow listens until
      // the provider expires it (3 business days), then closes CANCELLED
      expect((await handle.describe()).status.name).toBe('RUNNING');
      await sleepPastFundingDeadline(bed.env, handle, DAY);
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'CANCELLED', reason: 'customer changed their mind' });
      expect(outcome.payment?.id).toBe(c.providerPaymentId);
    });
  });

  it('cancel once funds are in is refused with CANCEL_REFUSED and the payment goes on', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
      );
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'IN_PROGRESS',
      );
      expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
      expect(await refusalType(handle.executeUpdate(requoteUpdate))).toBe('REQUOTE_REFUSED');
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
      expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
    });
  });

  it('requote after quote expiry creates a new payment (key :create:1); the old one stays tracked', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const first = await created(handle);
      await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'QUOTE_EXPIRED',
      );
      const second = await handle.executeUpdate(requoteUpdate);
      expect(second.outcome).toBe('CREATED');
      if (second.outcome !== 'CREATED') return;
      expect(second.providerPaymentId).not.toBe(first.providerPaymentId);
      expect(fake.callsOf('createPayment').map((x) => x.args[1])).toEqual([
        `${handle.workflowId}:create:0`,
        `${handle.workflowId}:create:1`,
      ]);
      let state = await handle.query(paymentStateQuery);
      expect(state).toMatchObject({
        phase: 'AWAITING_FUNDS',
        providerPaymentId: second.providerPaymentId,
        requotes: 1,
      });
      expect(state.superseded).toEqual([{ id: first.providerPaymentId, status: 'AWAITING_FUNDS' }]);

      // the old payment is still followed: its expiry reaches the workflow
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        fake.set(first.providerPaymentId, {
          status: 'EXPIRED',
          lifecycle: {
            ...fake.payments.get(first.providerPaymentId)!.lifecycle,
            expiredAt: new Date(await bed.env.currentTimeMs()).toISOString(),
          },
        }),
      );
      state = await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.superseded[0]?.status === 'EXPIRED',
      );
      expect(state.phase).toBe('AWAITING_FUNDS');

      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.fund(second.providerPaymentId, await bed.env.currentTimeMs()),
      );
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.advance(second.providerPaymentId, 'COMPLETED'),
      );
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('COMPLETED');
      expect(outcome.payment?.id).toBe(second.providerPaymentId);
    });
  });

  it('funds sent with the superseded quote make the old payment the one followed', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const first = await created(handle);
      const sentAt = await bed.env.currentTimeMs(); // the customer pays with the first instructions
      // a requote waits for the quote's end; the notice of the funds comes late (spec row 2)
      await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
      const second = await handle.executeUpdate(requoteUpdate);
      if (second.outcome !== 'CREATED') throw new Error('requote refused');
      await deliverPaymentEvent(bed.env, taskQueue, await fake.fund(first.providerPaymentId, sentAt));
      const state = await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.providerPaymentId === first.providerPaymentId,
      );
      expect(state.phase).toBe('IN_PROGRESS');
      expect(state.superseded).toEqual([{ id: second.providerPaymentId, status: 'AWAITING_FUNDS' }]);
      expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(first.providerPaymentId, 'COMPLETED'));
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'COMPLETED', payment: { id: first.providerPaymentId } });
    });
  });
});
