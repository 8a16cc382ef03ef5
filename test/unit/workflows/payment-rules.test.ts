// Pure rules of the workflows (no Temporal): snapshot merging, phases, outcomes, limits, funding deadline,
// requirements check.
import type { AccountRequirement, Payment, Rate } from '../../../src/contract';
import { BoundedIdSet, compareSnapshots, mergePayment } from '../../../workflows/payment-merge';
import {
  driftViolations,
  feeViolations,
  fundingDeadlineOf,
  isFunded,
  isUnfundable,
  outcomeOf,
  phaseOf,
} from '../../../workflows/payment-rules';
import { requirementViolations } from '../../../workflows/register-account/requirements';

function payment(patch: Partial<Payment> = {}, lifecycle: Partial<Payment['lifecycle']> = {}): Payment {
  return {
    id: 'pay_1',
    lifecycle: {
      createdAt: '2026-11-20T12:00:00.000Z',
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
      ...lifecycle,
    },
    customerId: 'cus_1',
    status: 'AWAITING_FUNDS',
    statusReasons: null,
    error: null,
    type: 'PAYOUT',
    comment: null,
    reference: null,
    returnAddress: null,
    paymentReason: 'GIFTS',
    fee: 1,
    developerFee: { fixed: null, variable: null, total: null },
    quote: { exchangeRate: 0.9, expiresAt: '2026-11-20T12:15:00.000Z' },
    tracking: { traceNumber: null, omad: null, imad: null, certificate: null, uetr: null },
    files: [],
    configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
    source: {
      amount: 100,
      currencyCode: 'USD',
      accountId: null,
      rail: 'ACH',
      fromAddress: null,
      transactionHash: null,
      fromAccountNumber: null,
    },
    destination: {
      amount: 90,
      rail: 'SWIFT',
      currencyCode: 'EUR',
      transactionHash: null,
      accountId: 'acc_1',
    },
    fundingInstructions: { rail: 'ACH', amount: 100, toAddress: 'x', fromAddress: null, currencyCode: 'USD' },
    ...patch,
  };
}

const rate = (mid: number, fee: number): Rate => ({
  midMarketRate: mid,
  invertedMidMarketRate: 1 / mid,
  serviceFee: { fixed: 0, variable: 0 },
  developerFee: { fixed: 0, variable: 0 },
  calculatedAmount: {
    description: '',
    sourceAmount: 100,
    destinationAmount: 90,
    totalFeeInSourceCurrency: fee,
  },
  quoteId: 'q',
});

describe('mergePayment: never backwards', () => {
  const sent = payment({ status: 'SENT' }, { sentAt: '2026-11-20T13:00:00Z' });
  const completed = payment(
    { status: 'COMPLETED' },
    { sentAt: '2026-11-20T13:00:00Z', completedAt: '2026-11-20T14:00:00Z' },
  );

  it('takes a snapshot with more lifecycle timestamps', () => {
    expect(compareSnapshots(sent, completed)).toBe('NEWER');
    expect(mergePayment(sent, completed)).toMatchObject({ changed: true, statusChanged: true });
  });
  it('ignores an older snapshot that lacks a timestamp already seen', () => {
    expect(compareSnapshots(completed, sent)).toBe('STALE');
    expect(mergePayment(completed, sent)).toMatchObject({ changed: false, payment: completed });
  });
  it('orders statuses without timestamps of their own by rank (PENDING < PROCESSING)', () => {
    const pending = payment({ status: 'PENDING' });
    const processing = payment({ status: 'PROCESSING' });
    expect(compareSnapshots(pending, processing)).toBe('NEWER');
    expect(compareSnapshots(processing, pending)).toBe('STALE');
  });
  it('treats an identical snapshot as the same', () => {
    expect(compareSnapshots(sent, { ...sent })).toBe('SAME');
  });
  it('accepts a refund after EXPIRED and the legacy EXPIRED → SENT (spec rows 4 and 5)', () => {
    const expired = payment({ status: 'EXPIRED' }, { expiredAt: '2026-11-25T12:00:00Z' });
    const refunded = payment(
      { status: 'EXPIRED', error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' } },
      { expiredAt: '2026-11-25T12:00:00Z', refundedAt: '2026-11-26T12:00:00Z' },
    );
    expect(compareSnapshots(expired, refunded)).toBe('NEWER');
    const legacySent = payment(
      { status: 'SENT' },
      { expiredAt: '2026-11-25T12:00:00Z', sentAt: '2026-11-26T12:00:00Z' },
    );
    expect(compareSnapshots(expired, legacySent)).toBe('NEWER');
  });
  it('never drops a status the contract does not name as "backwards": it would freeze the payment', () => {
    const awaiting = payment();
    const onHold = payment({ status: 'ON_HOLD' as never, statusReasons: [{ what: 'compliance' }] as never });
    expect(compareSnapshots(awaiting, onHold)).toBe('NEWER');
    expect(mergePayment(awaiting, onHold)).toMatchObject({ changed: true, statusChanged: true });
    expect(compareSnapshots(onHold, { ...onHold })).toBe('SAME');
  });
  it('keeps a timestamp the incoming snapshot lost', () => {
    const partial = payment({ status: 'COMPLETED' }, { completedAt: '2026-11-20T14:00:00Z' });
    const merged = mergePayment(sent, partial);
    expect(merged.payment.lifecycle.sentAt).toBe('2026-11-20T13:00:00Z');
  });
});

describe('BoundedIdSet', () => {
  it('drops duplicates and forgets the oldest ids beyond its bound', () => {
    const set = new BoundedIdSet([], 3);
    expect(['a', 'b', 'a', 'c', 'd'].map((id) => set.add(id))).toEqual([true, true, false, true, true]);
    expect(set.toArray()).toEqual(['b', 'c', 'd']);
    expect(set.add('a')).toBe(true);
  });
});

describe('phases and outcomes (spec: States and transitions)', () => {
  it('AWAITING_FUNDS becomes QUOTE_EXPIRED only on our side, and never for a pulled payment', () => {
    expect(phaseOf(payment(), false)).toBe('AWAITING_FUNDS');
    expect(phaseOf(payment(), true)).toBe('QUOTE_EXPIRED');
    const pulled = payment({ source: { ...payment().source, accountId: 'acc_v' } });
    expect(phaseOf(pulled, true)).toBe('AWAITING_FUNDS');
  });
  it('an unknown status counts as in progress: funded (no cancel, no requote), no outcome', () => {
    const onHold = payment({ status: 'ON_HOLD' as never });
    expect(phaseOf(onHold, true)).toBe('IN_PROGRESS');
    expect(isFunded(onHold)).toBe(true);
    expect(outcomeOf(onHold)).toBeNull();
    expect(isFunded(payment())).toBe(false);
    expect(isFunded(payment({ status: 'EXPIRED' }))).toBe(false);
  });
  it('only the provider says a payment can no longer be funded: EXPIRED, another final status, or its own cancelled status, with no funds in', () => {
    expect(isUnfundable(payment({ status: 'AWAITING_FUNDS' }))).toBe(false); // whatever our clock says
    expect(isUnfundable(payment({ status: 'EXPIRED' }))).toBe(true);
    expect(isUnfundable(payment({ status: 'CANCELLED' }))).toBe(true);
    expect(isUnfundable(payment({ status: 'FAILED' }))).toBe(true);
    expect(isUnfundable(payment({ status: 'CANCELLED' }, { sentAt: '2026-11-21T00:00:00.000Z' }))).toBe(
      false,
    );
    expect(isUnfundable(payment({ status: 'PENDING' }))).toBe(false);
    expect(isUnfundable(payment({ status: 'ON_HOLD' }))).toBe(false); // unknown: counted as in progress
  });

  it('maps statuses to outcomes with their failure codes', () => {
    expect(outcomeOf(payment({ status: 'PROCESSING' }))).toBeNull();
    expect(
      outcomeOf(payment({ status: 'FAILED', error: { code: 'RFI_NOT_ANSWERED_IN_TIME' } })),
    ).toMatchObject({ outcome: 'FAILED', code: 'RFI_NOT_ANSWERED_IN_TIME' });
    expect(outcomeOf(payment({ status: 'EXPIRED' }, { refundedAt: '2026-11-26T00:00:00Z' }))).toMatchObject({
      outcome: 'REFUNDED',
    });
  });
  it('funding deadline: 3 business days from creation (Friday → Wednesday); quote expiry before 2026-03-30', () => {
    expect(fundingDeadlineOf(payment())?.toISOString()).toBe('2026-11-25T12:00:00.000Z');
    const old = payment(
      { quote: { exchangeRate: 1, expiresAt: '2026-03-20T12:15:00.000Z' } },
      { createdAt: '2026-03-20T12:00:00.000Z' },
    );
    expect(fundingDeadlineOf(old)?.toISOString()).toBe('2026-03-20T12:15:00.000Z');
    expect(fundingDeadlineOf(payment(), new Set(['2026-11-24']))?.toISOString()).toBe(
      '2026-11-26T12:00:00.000Z',
    );
  });
});

describe('limits', () => {
  it('fee above maxTotalFee is refused; at the limit it passes', () => {
    expect(feeViolations(rate(0.9, 10.01), { maxTotalFee: 10 })[0]?.rule).toBe('MAX_TOTAL_FEE_EXCEEDED');
    expect(feeViolations(rate(0.9, 10), { maxTotalFee: 10 })).toEqual([]);
    expect(feeViolations(rate(0.9, 1000), undefined)).toEqual([]);
  });
  it('drift is relative to the mid-market rate', () => {
    expect(
      driftViolations(rate(1, 0), payment({ quote: { exchangeRate: 0.98, expiresAt: 'x' } }), {
        maxRateDrift: 0.019,
      })[0]?.rule,
    ).toBe('MAX_RATE_DRIFT_EXCEEDED');
    expect(
      driftViolations(rate(1, 0), payment({ quote: { exchangeRate: 0.98, expiresAt: 'x' } }), {
        maxRateDrift: 0.021,
      }),
    ).toEqual([]);
  });
});

describe('requirementViolations', () => {
  const items: AccountRequirement[] = [
    {
      variableName: 'bank.pixCode',
      rails: ['PIX'],
      accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
      regex: '^.+$',
      example: 'x',
      enum: [],
    },
    {
      variableName: 'bank.accountNumber',
      rails: ['TED'],
      accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
      regex: '^\\d+$',
      example: '123',
      enum: [],
    },
    {
      variableName: 'bank.taxId',
      rails: [],
      accountHolderTypes: ['BUSINESS'],
      regex: '',
      example: '',
      enum: [],
    },
  ];
  it('checks only the items of the account rails and holder type, reporting every miss', () => {
    const body = { rails: ['TED'], bank: { accountNumber: '12a' } };
    expect(requirementViolations(body, items, 'BUSINESS').map((v) => `${v.path}:${v.rule}`)).toEqual([
      'bank.accountNumber:PATTERN_MISMATCH',
      'bank.taxId:REQUIRED_BY_REQUIREMENTS',
    ]);
    expect(requirementViolations(body, items, 'INDIVIDUAL').map((v) => v.path)).toEqual([
      'bank.accountNumber',
    ]);
  });
});

describe('a failed payment whose held funds were returned', () => {
  it('ends FAILED with its code, not REFUNDED (the sandbox and the service return held funds on failure)', () => {
    const failed = payment(
      { status: 'FAILED', error: { code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' } as Payment['error'] },
      { refundedAt: '2026-11-26T00:00:00Z' },
    );
    expect(outcomeOf(failed)).toMatchObject({ outcome: 'FAILED', code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER' });
    expect(phaseOf(failed, false)).toBe('FAILED');
  });
});
