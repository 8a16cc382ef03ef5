// payment workflow, money safety: requote races, Temporal cancel, cancel that keeps listening,
// "maybe created" creates and unknown provider values. A file of its own: one time-skipping server per file.
import { ApplicationFailure } from '@temporalio/common';
import type { Payment } from '../../../src/contract';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  paymentStateQuery,
  requoteUpdate,
  resolveCreateUpdate,
} from '../../../workflows/payment/api';
import { providerPaymentChangedSignal } from '../../../workflows/provider-payment/api';
import { wrapActivities } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  created,
  deliverPaymentEvent,
  eventually,
  refusalType,
} from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

describe('requote', () => {
  it('is refused while the current quote is still valid', async () => {
    bed.newFake();
    const handle = await bed.startPayment();
    await created(handle);
    expect(await refusalType(handle.executeUpdate(requoteUpdate))).toBe('REQUOTE_REFUSED');
    expect(bed.fake.callsOf('createPayment')).toHaveLength(1);
  });
});

describe('a Temporal cancel request is a cancel request', () => {
  it('after funds: ignored, the payment is followed to its real outcome', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    const c = await created(handle);
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
    );
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );
    await handle.cancel();
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.timeline.some((t) => t.kind === 'cancel-ignored'),
    );
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
    expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });
});

describe('cancel does not lie', () => {
  it('funds after an accepted cancel: the real outcome, flagged FUNDED_AFTER_CANCEL', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    const c = await created(handle);
    const sentAt = await bed.env.currentTimeMs(); // sent in time, the notice comes late (spec row 2)
    const cancelled = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'changed my mind' }] });
    expect(cancelled.phase).toBe('CANCELLING');
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(c.providerPaymentId, sentAt));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome.outcome).toBe('COMPLETED');
    expect(outcome.alerts?.map((a) => a.kind)).toEqual(['FUNDED_AFTER_CANCEL']);
  });

  it('a payment pulled from an account is never cancellable once created', async () => {
    const fake = bed.newFake();
    // even when the service answers AWAITING_FUNDS for it: the funds move at creation (spec: rule 1)
    wrapActivities(fake, (inner) => ({
      createPayment: async (request, key) => {
        const p = await inner.createPayment(request, key);
        return fake.set(p.id, { status: 'AWAITING_FUNDS' });
      },
    }));
    const handle = await bed.startPayment({
      request: paymentRequest({
        source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
      }),
    });
    await created(handle);
    expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
    expect((await handle.query(paymentStateQuery)).phase).not.toMatch(/^CANCEL/);
  });
});

describe('"maybe created" is never "rejected"', () => {
  it('CREATE_OUTCOME_UNKNOWN → NEEDS_ATTENTION; the operator names the payment and it is followed', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(
      ApplicationFailure.create({
        type: 'CREATE_OUTCOME_UNKNOWN',
        message: 'attempt 2 ended with ValidationError',
        nonRetryable: true,
      }),
    );
    const handle = await bed.startPayment();
    const answer = await handle.executeUpdate(awaitCreatedUpdate);
    expect(answer.outcome).toBe('NEEDS_ATTENTION');
    const state = await handle.query(paymentStateQuery);
    expect(state.phase).toBe('NEEDS_ATTENTION');
    expect(state.alerts?.map((a) => a.kind)).toEqual(['CREATE_OUTCOME_UNKNOWN']);
    // the operator finds the payment the first attempt made (here: made by the fake with the same key)
    const made = await fake
      .activities()
      .createPayment(paymentRequest() as never, `${handle.workflowId}:create:0`);
    const resolved = await handle.executeUpdate(resolveCreateUpdate, {
      args: [{ providerPaymentId: made.id }],
    });
    expect(resolved).toMatchObject({ phase: 'AWAITING_FUNDS', providerPaymentId: made.id });
    expect(await handle.executeUpdate(awaitCreatedUpdate)).toMatchObject({
      outcome: 'CREATED',
      providerPaymentId: made.id,
    });
  });

  it('the operator says no payment was made → REJECTED naming the unknown outcome', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
    );
    const handle = await bed.startPayment();
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
    await handle.executeUpdate(resolveCreateUpdate, {
      args: [{ noPaymentCreated: true, reason: 'not in GET /payments/customer/cus_1' }],
    });
    const outcome = await closedPaymentOutcome(handle);
    expect(outcome).toMatchObject({
      outcome: 'REJECTED',
      violations: [{ rule: 'CREATE_OUTCOME_UNKNOWN' }],
    });
  });

  it('a cancel while the create needs an operator ends CANCELLED (nobody got funding instructions)', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
    );
    const handle = await bed.startPayment();
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
    const state = await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'gave up' }] });
    expect(state.phase).toBe('CANCELLED');
    expect(await closedPaymentOutcome(handle)).toMatchObject({
      outcome: 'CANCELLED',
      reason: 'gave up',
      payment: null,
    });
  });
});

describe('unknown values never freeze a payment', () => {
  it('an unknown status is taken, counted as in progress (no cancel), and error/statusReasons pass through', async () => {
    bed.newFake();
    const handle = await bed.startPayment();
    const c = await created(handle);
    const current = bed.fake.payments.get(c.providerPaymentId)!;
    const onHold = {
      ...current,
      status: 'ON_HOLD',
      statusReasons: [{ kind: 'COMPLIANCE_REVIEW', note: 'shape not in the spec' }],
      error: { code: 'SOMETHING_NEW', extra: 1 },
    } as unknown as Payment;
    await handle.signal(providerPaymentChangedSignal, {
      providerPaymentId: c.providerPaymentId,
      payment: onHold,
      cause: 'event',
    });
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.providerStatus === 'ON_HOLD',
    );
    expect(state.phase).toBe('IN_PROGRESS');
    expect(state.providerStatusReasons).toEqual(onHold.statusReasons);
    expect(state.providerError).toEqual(onHold.error);
    expect(state.alerts?.map((a) => a.kind)).toEqual(['UNKNOWN_STATUS']);
    expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
  });
});

// The same requote update ID sent twice (a retry after an RPC timeout) is tested on the real stack
// (test/e2e/payment-cancel-requote.e2e.test.ts): on the time-skipping server an update ID sent twice leaves time
// skipping locked for the rest of the server's life, and the test hung there under CI load.
