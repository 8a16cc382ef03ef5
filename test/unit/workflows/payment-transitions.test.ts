// The payment's named transitions (workflows/payment/state.ts, "transitions"): what each changes, on a state built
// outside a workflow (no test server). Fixed clocks: `now` is passed in, or Date.now is fixed.
import type { CreatePaymentRequest, Payment } from '../../../src/contract';
import type { PaymentInput } from '../../../workflows/payment/api';
import { PaymentWorkflowState } from '../../../workflows/payment/state';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const HOUR = 60 * 60 * 1000;

const request = {
  customerId: 'cus_1',
  source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xabc' },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
  paymentReason: 'GIFTS',
} as unknown as CreatePaymentRequest;

const payment = (id: string): Payment =>
  ({
    id,
    status: 'AWAITING_FUNDS',
    customerId: 'cus_1',
    quote: { expiresAt: '2026-03-02T13:00:00Z' },
    lifecycle: { createdAt: '2026-03-02T11:00:00Z', sentAt: null },
    fundingInstructions: { address: '0xdep' },
    source: { currencyCode: 'USDC', amount: 100 },
    destination: { currencyCode: 'BRL', amount: 500 },
    fee: 1,
  }) as unknown as Payment;

function newState(): PaymentWorkflowState {
  jest.spyOn(Date, 'now').mockReturnValue(T0);
  return new PaymentWorkflowState('payment:order-1', {
    paymentKey: 'order-1',
    request,
  } as unknown as PaymentInput);
}

afterEach(() => jest.restoreAllMocks());

describe('the linger after the provider’s EXPIRED (beginLinger)', () => {
  it('starts at the first EXPIRED and is not moved by the same payment’s later turns', () => {
    const state = newState();
    expect(state.beginLinger('pay_1', T0)).toBe(T0);
    expect(state.beginLinger('pay_1', T0 + HOUR)).toBe(T0);
    expect([state.expiredOf, state.expiredSince]).toEqual(['pay_1', T0]);
  });

  it('starts again for another followed payment (a requote’s payment expiring later)', () => {
    const state = newState();
    state.beginLinger('pay_1', T0);
    expect(state.beginLinger('pay_2', T0 + HOUR)).toBe(T0 + HOUR);
    expect([state.expiredOf, state.expiredSince]).toEqual(['pay_2', T0 + HOUR]);
  });
});

describe('a requote’s number (numberRequote)', () => {
  it('gives each new update ID the next number and keeps it for that ID', () => {
    const state = newState();
    expect(state.numberRequote('u1', undefined)).toBe(1);
    expect(state.numberRequote('u2', undefined)).toBe(2);
    expect([...state.requoteNumbers]).toEqual([
      ['u1', 1],
      ['u2', 2],
    ]);
    expect(state.requotes).toBe(2);
  });

  it('gives a known update ID its number again, with no new number used', () => {
    const state = newState();
    state.numberRequote('u1', undefined);
    expect(state.numberRequote('u1', 1)).toBe(1);
    expect(state.requotes).toBe(1);
  });

  it('numbers a requote without update ID and remembers nothing for it', () => {
    const state = newState();
    expect(state.numberRequote(undefined, undefined)).toBe(1);
    expect(state.requoteNumbers.size).toBe(0);
    state.answerRequote(undefined, { refused: 'x' });
    state.answerRequote('u1', { refused: 'y' });
    expect([...state.requoteAnswers]).toEqual([['u1', { refused: 'y' }]]);
  });

  it('runs one at a time (requoteRunning)', () => {
    const state = newState();
    state.requoteRunning(true);
    expect(state.requoting).toBe(true);
    state.requoteRunning(false);
    expect(state.requoting).toBe(false);
  });
});

describe('a created payment going live (goLive)', () => {
  it('is followed, and awaitCreated answers with it', () => {
    const state = newState();
    const answer = state.goLive(payment('pay_1'));
    expect(state.activeId).toBe('pay_1');
    expect(answer).toMatchObject({ outcome: 'CREATED', providerPaymentId: 'pay_1' });
    expect(state.created).toBe(answer);
    expect(state.createdAnswerNow()).toBe(answer);
  });
});

describe('an operator’s decision on a create whose outcome is unknown', () => {
  it('the first create: waits, is handed the decision, and adopting the payment settles it', () => {
    const state = newState();
    state.firstCreateNeedsOperator('no answer', 'payment:order-1:create:0');
    expect(state.attention).toEqual({
      reason: 'no answer',
      idempotencyKey: 'payment:order-1:create:0',
      first: true,
    });
    expect(state.createdAnswerNow()).toEqual({ outcome: 'NEEDS_ATTENTION', reason: 'no answer' });
    state.operatorDecided({ providerPaymentId: 'pay_1' });
    expect(state.resolution).toEqual({ providerPaymentId: 'pay_1' });
    state.operatorPaymentAdopted(payment('pay_1'));
    expect([state.attention, state.resolution, state.activeId]).toEqual([null, null, 'pay_1']);
    expect(state.created).toMatchObject({ outcome: 'CREATED', providerPaymentId: 'pay_1' });
  });

  it('a decision that fails keeps the operator asked, says why, and takes another', () => {
    const state = newState();
    state.firstCreateNeedsOperator('no answer', 'k');
    state.operatorDecided({ providerPaymentId: 'pay_x' });
    state.operatorDecisionFailed('could not read provider payment pay_x');
    expect(state.resolution).toBeNull();
    expect(state.resolveFailure).toBe('could not read provider payment pay_x');
    expect(state.attention).not.toBeNull();
  });

  it('"no payment was created" settles it with nothing followed', () => {
    const state = newState();
    state.firstCreateNeedsOperator('no answer', 'k');
    state.operatorDecided({ noPaymentCreated: true, reason: 'checked the service' });
    state.operatorSaidNoPayment();
    expect([state.attention, state.resolution, state.activeId, state.created]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('a requote’s create: not the first, settled on its own', () => {
    const state = newState();
    state.requoteCreateNeedsOperator('no answer', 'payment:order-1:create:1');
    expect(state.attention?.first).toBe(false);
    expect(state.createdAnswerNow()).toBeNull();
    state.resolvingRequoteCreate(true);
    expect(state.resolvingRequote).toBe(true);
    state.resolvingRequoteCreate(false);
    state.attentionSettled();
    expect([state.attention, state.resolvingRequote]).toEqual([null, false]);
  });
});

describe('a pending cancel decided (acceptCancel, refuseCancel)', () => {
  it('is decided in place, and the main loop’s wait sees the decision change', () => {
    const state = newState();
    state.onTemporalCancel();
    const asked = state.cancel;
    const before = state.seen();
    state.acceptCancel();
    expect(state.cancel).toBe(asked);
    expect(state.cancel?.decision).toBe('ACCEPTED');
    expect(state.changedSince(before)).toBe(true);
  });

  it('refused: the payment goes on', () => {
    const state = newState();
    state.onTemporalCancel();
    state.refuseCancel();
    expect(state.cancel?.decision).toBe('REFUSED');
  });
});

describe('the waits’ start times', () => {
  it('another funded payment still moving: since the first time it was seen', () => {
    const state = newState();
    expect(state.otherStillMoving(T0)).toBe(T0);
    expect(state.otherStillMoving(T0 + HOUR)).toBe(T0);
  });

  it('after a cancel, unfundable since the first time, again from scratch once one is fundable', () => {
    const state = newState();
    expect(state.allUnfundable(T0)).toBe(T0);
    expect(state.allUnfundable(T0 + HOUR)).toBe(T0);
    state.someFundable();
    expect(state.unfundableSince).toBeNull();
    expect(state.allUnfundable(T0 + 2 * HOUR)).toBe(T0 + 2 * HOUR);
  });

  it('a read ended: the safety read counts from now', () => {
    const state = newState();
    jest.spyOn(Date, 'now').mockReturnValue(T0 + HOUR);
    state.readDone();
    expect(state.lastHeardAt).toBe(T0 + HOUR);
  });
});

describe('reads made once', () => {
  it('remembers each payment read at quote expiry, at the deadline, before the outcome, after a cancel', () => {
    const state = newState();
    state.markQuoteExpiryRead('pay_1');
    state.markDeadlineRead('pay_2');
    state.markReadBeforeOutcome('pay_3');
    state.markCancelRead('pay_4', T0);
    expect([...state.quoteExpiryReconciled]).toEqual(['pay_1']);
    expect([...state.deadlineReconciled]).toEqual(['pay_2']);
    expect([...state.readBeforeOutcome]).toEqual(['pay_3']);
    expect([...state.cancelReads]).toEqual([['pay_4', T0]]);
  });
});
