// payment workflow: a cancel around a create whose outcome is uncertain (no time passes). A file of its own:
// one time-skipping server per file (refused updates here can lock time skipping: see
// payment-requote-races.test.ts).
import { ApplicationFailure } from '@temporalio/common';
import { awaitCreatedUpdate, cancelUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import { wrapActivities } from '../support/fake-provider';
import { closedPaymentOutcome, eventually, refusalType } from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

const unknownOutcome = () =>
  ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true });

const pullRequest = () =>
  paymentRequest({ source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' } });

describe('a pull payment whose create needs an operator is never cancelled', () => {
  it('a cancel update in NEEDS_ATTENTION is refused: the create may have pulled the funds', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(unknownOutcome());
    const handle = await bed.startPayment({ request: pullRequest() });
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
    expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
    const state = await handle.query(paymentStateQuery);
    expect(state.phase).toBe('NEEDS_ATTENTION');
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it('a Temporal cancel in NEEDS_ATTENTION is ignored', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(unknownOutcome());
    const handle = await bed.startPayment({ request: pullRequest() });
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
    await handle.cancel();
    const state = await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.timeline.some((t) => t.kind === 'cancel-ignored'),
    );
    expect(state.phase).toBe('NEEDS_ATTENTION');
    expect(state.cancel).toBeNull();
  });

  it('a cancel accepted while the create ran is refused once the create needs an operator', async () => {
    const fake = bed.newFake();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered = false;
    wrapActivities(fake, () => ({
      createPayment: async () => {
        entered = true;
        await gate;
        throw unknownOutcome();
      },
    }));
    const handle = await bed.startPayment({ request: pullRequest() });
    await eventually(
      async () => entered,
      (x) => x,
    );
    const cancelling = refusalType(handle.executeUpdate(cancelUpdate, { args: [{ reason: 'stop' }] }));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.cancel?.decision === 'PENDING',
    );
    open();
    expect(await cancelling).toBe('CANCEL_REFUSED');
    const state = await handle.query(paymentStateQuery);
    expect(state.phase).toBe('NEEDS_ATTENTION');
    expect(state.outcome).toBeNull();
  });
});

describe('the first create checks for a cancel after getRate', () => {
  it('a cancel while the first getRate runs: CANCELLED, nothing created', async () => {
    const fake = bed.newFake();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered = false;
    wrapActivities(fake, (inner) => ({
      getRate: async (query) => {
        entered = true;
        await gate;
        return inner.getRate(query);
      },
    }));
    const handle = await bed.startPayment();
    await eventually(
      async () => entered,
      (x) => x,
    );
    const cancelling = handle.executeUpdate(cancelUpdate, { args: [{ reason: 'changed my mind' }] });
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.cancel?.decision === 'PENDING',
    );
    open();
    expect((await cancelling).phase).toBe('CANCELLED');
    expect(await closedPaymentOutcome(handle)).toMatchObject({
      outcome: 'CANCELLED',
      reason: 'changed my mind',
      payment: null,
    });
    expect(fake.callsOf('createPayment')).toHaveLength(0);
    const answer = await handle.query(paymentStateQuery);
    expect(answer.fundingInstructions).toBeNull();
  });
});
