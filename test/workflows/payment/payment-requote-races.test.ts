// payment workflow, money safety: the scenarios that need time to pass (env.sleep). In a file of
// their own: on the time-skipping server a refused update (validator) or an update ID sent twice can leave
// time skipping locked for the rest of the server's life, after which env.sleep hangs
// (payment-cancel-requote-unknowns.test.ts holds those).
import { paymentStateQuery, requoteUpdate } from '../../../workflows/payment/api';
import { QUOTE_VALIDITY_MS, wrapActivities, type FakeProvider } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  created,
  deliverPaymentEvent,
  eventually,
  refusalType,
  sleepPastFundingDeadline,
} from '../support/harness';
import { DAY, MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();

/** A gate the test opens: createPayment waits on it once `armed`. */
function gatedCreate(fake: FakeProvider) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const control = { armed: false, entered: false, open: () => open() };
  wrapActivities(fake, (inner) => ({
    createPayment: async (request, key) => {
      if (control.armed) {
        control.entered = true;
        await gate;
      }
      return inner.createPayment(request, key);
    },
  }));
  return control;
}

async function expireQuote(): Promise<void> {
  await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
}

describe('requote races and a Temporal cancel, with time passing', () => {
  it('funds on two payments of one request are surfaced: DOUBLE_FUNDED on the state and the outcome', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    const first = await created(handle);
    const sentAt = await bed.env.currentTimeMs();
    await expireQuote();
    const second = await handle.executeUpdate(requoteUpdate);
    if (second.outcome !== 'CREATED') throw new Error('requote refused');
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(second.providerPaymentId, await bed.env.currentTimeMs()),
    );
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(first.providerPaymentId, sentAt));
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => (s.alerts ?? []).some((a) => a.kind === 'DOUBLE_FUNDED'),
    );
    expect(state.phase).toBe('IN_PROGRESS');
    // the payment does not end while the other funded payment still moves
    const followed = state.providerPaymentId!;
    const other = followed === first.providerPaymentId ? second.providerPaymentId : first.providerPaymentId;
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(followed, 'COMPLETED'));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.timeline.some((t) => t.detail === `${followed}: PENDING → COMPLETED (event)`),
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(other, 'COMPLETED'));
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({ outcome: 'COMPLETED', payment: { id: followed } });
    expect(outcome.alerts?.map((a) => a.kind)).toContain('DOUBLE_FUNDED');
  });
  it('funds on the abandoned payment whose webhook was lost are read before the outcome: DOUBLE_FUNDED, no outcome while it moves', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    const first = await created(handle);
    const sentAt = await bed.env.currentTimeMs();
    await expireQuote();
    const second = await handle.executeUpdate(requoteUpdate);
    if (second.outcome !== 'CREATED') throw new Error('requote refused');
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(second.providerPaymentId, await bed.env.currentTimeMs()),
    );
    // the first payment is funded too (sent before its quote expired: row 2), and its webhook is lost
    await fake.fund(first.providerPaymentId, sentAt);
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.advance(second.providerPaymentId, 'COMPLETED'),
    );
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => (s.alerts ?? []).some((a) => a.kind === 'DOUBLE_FUNDED'),
    );
    expect(state.outcome ?? null).toBeNull();
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.advance(first.providerPaymentId, 'COMPLETED'),
    );
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome.alerts?.map((a) => a.kind)).toContain('DOUBLE_FUNDED');
  });
  it('before funds: accepted like the cancel update; the workflow completes CANCELLED once nothing can fund it', async () => {
    bed.newFake();
    const handle = await bed.startPayment();
    const c = await created(handle);
    await handle.cancel();
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'CANCELLING',
    );
    expect(state.cancel).toMatchObject({ decision: 'ACCEPTED', via: 'TEMPORAL_CANCEL' });
    expect((await handle.describe()).status.name).toBe('RUNNING'); // still listening for a late notice
    await sleepPastFundingDeadline(bed.env, handle, DAY);
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({ outcome: 'CANCELLED', payment: { id: c.providerPaymentId } });
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });

  it('funds on the old payment while the new one is being created: the new one never goes live', async () => {
    const fake = bed.newFake();
    const gate = gatedCreate(fake);
    const handle = await bed.startPayment();
    const first = await created(handle);
    const sentAt = await bed.env.currentTimeMs(); // the customer pays with the first instructions, in time
    await expireQuote();
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'QUOTE_EXPIRED',
    );
    gate.armed = true;
    const requote = refusalType(handle.executeUpdate(requoteUpdate));
    await eventually(
      async () => gate.entered,
      (entered) => entered,
    );
    // the late notice of the first payment (spec: States and transitions, row 2) arrives during the create
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(first.providerPaymentId, sentAt));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.providerStatus === 'PENDING',
    );
    gate.open();
    expect(await requote).toBe('REQUOTE_REFUSED');
    const second = [...fake.payments.keys()].find((id) => id !== first.providerPaymentId)!;
    expect(second).toBeDefined();
    const state = await handle.query(paymentStateQuery);
    expect(state).toMatchObject({ phase: 'IN_PROGRESS', providerPaymentId: first.providerPaymentId });
    expect(state.superseded).toEqual([{ id: second, status: 'AWAITING_FUNDS' }]);
    expect(state.timeline.some((t) => t.kind === 'superseded')).toBe(true);
  });
});
