// The caller's limits and the funding deadline (workflows/payment-rules.ts; spec: Limits, States and
// transitions rows 1–3 and rule 2).
import type { Rate } from '../../../../src/contract';
import {
  driftViolations,
  feeViolations,
  fundingDeadlineOf,
  quoteExpiresAtMs,
  rateDrift,
} from '../../../../workflows/payment-rules';
import { snapshot, withoutLifecycle } from './fixtures';

function rate(mid: unknown, fee?: unknown): Rate {
  return {
    midMarketRate: mid,
    invertedMidMarketRate: 1,
    serviceFee: { fixed: 0, variable: 0 },
    developerFee: { fixed: 0, variable: 0 },
    calculatedAmount:
      fee === undefined
        ? undefined
        : { description: '', sourceAmount: 100, destinationAmount: 90, totalFeeInSourceCurrency: fee },
    quoteId: 'q',
  } as unknown as Rate;
}
const quoted = (exchangeRate: unknown) =>
  snapshot('AWAITING_FUNDS', {}, { quote: { exchangeRate, expiresAt: '2026-11-20T12:15:00.000Z' } as never });

describe('fee limit (maxTotalFee)', () => {
  it('a fee above the limit is refused, naming the field, the fee and the limit', () => {
    expect(feeViolations(rate(0.9, 12.5), { maxTotalFee: 10 })).toEqual([
      {
        path: 'limits.maxTotalFee',
        rule: 'MAX_TOTAL_FEE_EXCEEDED',
        message: 'the total fee 12.5 is above the limit 10; raise maxTotalFee or change the amount or rails',
      },
    ]);
  });
  it('a rate that states no fee is not refused on it', () => {
    expect(feeViolations(rate(0.9), { maxTotalFee: 10 })).toEqual([]);
    expect(feeViolations(rate(0.9, 'n/a'), { maxTotalFee: 10 })).toEqual([]);
  });
});

describe('rate drift: distance of the quote from the mid-market rate, relative to the mid-market rate', () => {
  it('is |quoted − mid| / mid', () => {
    expect(rateDrift(rate(4), quoted(3))).toBe(0.25);
    expect(rateDrift(rate(4), quoted(5))).toBe(0.25);
  });
  it('is unknown without a positive mid-market rate or a quoted rate', () => {
    expect(rateDrift(rate(0), quoted(3))).toBeNull();
    expect(rateDrift(rate(-4), quoted(3))).toBeNull();
    expect(rateDrift(rate('4'), quoted(3))).toBeNull();
    expect(rateDrift(rate(4), quoted('3'))).toBeNull();
    expect(rateDrift(rate(4), snapshot('AWAITING_FUNDS', {}, { quote: undefined as never }))).toBeNull();
  });
  it('a drift above maxRateDrift is refused, in percent; at the limit it passes', () => {
    expect(driftViolations(rate(4), quoted(3), { maxRateDrift: 0.2 })).toEqual([
      {
        path: 'limits.maxRateDrift',
        rule: 'MAX_RATE_DRIFT_EXCEEDED',
        message:
          "the quote's exchange rate 3 is 25.000% away from the mid-market rate 4; the limit is 20.000%",
      },
    ]);
    expect(driftViolations(rate(4), quoted(3), { maxRateDrift: 0.25 })).toEqual([]);
  });
  it('no limit, or an unknown drift whatever the limit, refuses nothing', () => {
    expect(driftViolations(rate(4), quoted(1), undefined)).toEqual([]);
    expect(driftViolations(rate(4), quoted(1), {})).toEqual([]);
    expect(driftViolations(rate(0), quoted(1), { maxRateDrift: 0 })).toEqual([]);
    expect(driftViolations(rate(0), quoted(1), { maxRateDrift: -1 })).toEqual([]);
  });
});

describe('funding deadline', () => {
  it('none for a payment pulled from an account (rule 1)', () => {
    const pulled = snapshot(
      'AWAITING_FUNDS',
      {},
      { source: { ...snapshot('SENT').source, accountId: 'acc_v' } },
    );
    expect(fundingDeadlineOf(pulled)).toBeNull();
  });
  it('none without a valid createdAt', () => {
    expect(fundingDeadlineOf(snapshot('AWAITING_FUNDS', { createdAt: null }))).toBeNull();
    expect(fundingDeadlineOf(snapshot('AWAITING_FUNDS', { createdAt: 'not a date' }))).toBeNull();
    expect(fundingDeadlineOf(withoutLifecycle(snapshot('AWAITING_FUNDS')))).toBeNull();
  });
  it('before 2026-03-30, the quote expiry (rule 2); none when the quote has no valid expiry', () => {
    const old = { createdAt: '2026-03-20T12:00:00.000Z' };
    expect(
      fundingDeadlineOf(snapshot('AWAITING_FUNDS', old, { quote: { exchangeRate: 1, expiresAt: 'soon' } })),
    ).toBeNull();
    expect(fundingDeadlineOf(snapshot('AWAITING_FUNDS', old, { quote: undefined as never }))).toBeNull();
    expect(quoteExpiresAtMs(snapshot('AWAITING_FUNDS', old, { quote: undefined as never }))).toBeNull();
  });
});
