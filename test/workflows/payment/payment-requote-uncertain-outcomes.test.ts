// payment workflow: an unknown status and a requote's uncertain create, with time passing (env.sleep). A file of
// its own: a refused update can lock time skipping for the rest of the server's life (see
// payment-requote-races.test.ts), so every refusal here comes after the last sleep of its test, and each
// test that sleeps runs before any test that is refused.
import { ApplicationFailure } from '@temporalio/common';
import type { Payment } from '../../../src/contract';
import { paymentStateQuery, requoteUpdate, resolveCreateUpdate } from '../../../workflows/payment/api';
import { providerPaymentChangedSignal } from '../../../workflows/provider-payment/api';
import { QUOTE_VALIDITY_MS } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  created,
  deliverPaymentEvent,
  eventually,
  refusalType,
} from '../support/harness';
import { DAY, MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

async function expireQuote(): Promise<void> {
  await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
}

describe('an unknown status is no proof of funds', () => {
  it('a superseded payment with an unknown status never becomes the followed one nor keeps the workflow open', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    const first = await created(handle);
    await expireQuote();
    const second = await handle.executeUpdate(requoteUpdate);
    if (second.outcome !== 'CREATED') throw new Error('requote refused');
    // the superseded, unfunded payment gets a status the contract does not name (no sentAt)
    const onHold = {
      ...fake.payments.get(first.providerPaymentId)!,
      status: 'ON_HOLD',
    } as unknown as Payment;
    await handle.signal(providerPaymentChangedSignal, {
      providerPaymentId: first.providerPaymentId,
      payment: onHold,
      cause: 'event',
    });
    let state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.superseded.some((p) => p.status === 'ON_HOLD'),
    );
    expect(state.providerPaymentId).toBe(second.providerPaymentId);
    expect(state.alerts?.map((a) => a.kind)).toEqual(['UNKNOWN_STATUS']);
    // the followed payment is funded and completes: the workflow ends (the unknown one does not hold it open)
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(second.providerPaymentId, await bed.env.currentTimeMs()),
    );
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.advance(second.providerPaymentId, 'COMPLETED'),
    );
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({ outcome: 'COMPLETED', payment: { id: second.providerPaymentId } });
    expect(outcome.alerts?.map((a) => a.kind)).not.toContain('DOUBLE_FUNDED');
    state = await handle.query(paymentStateQuery);
    expect(state.phase).toBe('COMPLETED');
  });

  it('the wait for another funded payment to end is bounded: NEEDS_ATTENTION after 30 days', async () => {
    const fake = bed.newFake({ entityReconcileEveryMs: DAY }); // 31 days: the entities' hourly reads are not what is tested;
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
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => (s.alerts ?? []).some((a) => a.kind === 'DOUBLE_FUNDED'),
    );
    const followed = (await handle.query(paymentStateQuery)).providerPaymentId!;
    const other = followed === first.providerPaymentId ? second.providerPaymentId : first.providerPaymentId;
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(followed, 'COMPLETED'));
    await bed.env.sleep(31 * DAY);
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'NEEDS_ATTENTION',
    );
    expect(state.alerts?.map((a) => a.kind)).toContain('STILL_MOVING');
    // a notice of the other payment's end still ends it
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(other, 'COMPLETED'));
    expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  });
});

describe("a requote's create that needs an operator", () => {
  it('stays NEEDS_ATTENTION until the named payment is adopted: a failed read can be retried', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    await created(handle);
    await expireQuote();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
    );
    expect((await handle.executeUpdate(requoteUpdate)).outcome).toBe('NEEDS_ATTENTION');
    // the operator names a payment that cannot be read (a typo): refused, and the create still waits
    expect(
      await refusalType(
        handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: 'pay_typo' }] }),
      ),
    ).toBe('RESOLVE_REFUSED');
    // meanwhile no further requote may create yet another provider payment
    expect(await refusalType(handle.executeUpdate(requoteUpdate))).toBe('REQUOTE_REFUSED');
    expect(fake.callsOf('createPayment')).toHaveLength(2);
    // the operator tries again with the right id
    const made = await fake
      .activities()
      .createPayment(paymentRequest() as never, `${handle.workflowId}:create:1`);
    const state = await handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: made.id }] });
    expect(state.superseded.map((s) => s.id)).toContain(made.id);
    expect((await handle.query(paymentStateQuery)).timeline.some((t) => t.kind === 'adopted')).toBe(true);
  });
});
