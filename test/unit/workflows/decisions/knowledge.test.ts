// What the providerPayment entity may know (workflows/provider-payment/knowledge.ts): a push is a trigger to read,
// the read decides; a move after the outcome is the status and a refund the status does not show (spec: States and
// transitions, row 4).
import type { Payment } from '../../../../src/contract';
import {
  bearsOut,
  isRefundKeepingStatus,
  isUntoldMove,
  mayHaveMovedAfterOutcome,
  moveKey,
  mayBeOlderTold,
  mustHoldForRead,
  sentBeforeUpgrade,
  sourceOf,
} from '../../../../workflows/provider-payment/knowledge';

const T0 = '2026-01-05T10:00:00.000Z';
const T1 = '2026-01-05T11:00:00.000Z';
const T2 = '2026-01-05T12:00:00.000Z';

function p(
  status: string,
  lifecycle: Partial<Payment['lifecycle']> = {},
  over: Record<string, unknown> = {},
): Payment {
  return {
    id: 'pay_1',
    status,
    lifecycle: {
      createdAt: T0,
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
      ...lifecycle,
    },
    source: { amount: 100, currencyCode: 'USD' },
    destination: { amount: 90, currencyCode: 'EUR' },
    fee: 1,
    error: null,
    ...over,
  } as unknown as Payment;
}

describe('sourceOf: only our own known readers say who read (the ingress never sets `from`)', () => {
  const known = (from: string) => ['payment:k', 'reconcile-sweep'].includes(from);
  it.each([
    [{}, 'push'],
    [{ from: '' }, 'push'],
    [{ from: undefined }, 'push'],
    [{ from: 'payment:k' }, 'read'],
    [{ from: 'reconcile-sweep' }, 'read'],
    [{ from: 'payment:stranger' }, 'push'],
    [{ from: 'anyone' }, 'push'],
  ])('%j → %s', (event, source) => {
    expect(sourceOf(event as { from?: string }, known)).toBe(source);
  });
});

describe('mustHoldForRead: a push that would change what the entity holds waits', () => {
  it('anything, when the entity holds nothing yet', () => {
    expect(mustHoldForRead(null, p('AWAITING_FUNDS'))).toBe(true);
  });
  it('a status on the way, a timestamp, a figure', () => {
    expect(mustHoldForRead(p('AWAITING_FUNDS'), p('PENDING'))).toBe(true);
    expect(mustHoldForRead(p('PROCESSING'), p('PROCESSING', { refundedAt: T1 }))).toBe(true);
    expect(mustHoldForRead(p('PROCESSING'), p('PROCESSING', {}, { fee: 2 }))).toBe(true);
  });
  it('not a duplicate, nor a stale copy', () => {
    expect(mustHoldForRead(p('PENDING'), p('PENDING'))).toBe(false);
    expect(mustHoldForRead(p('SENT', { sentAt: T1 }), p('PENDING'))).toBe(false);
  });
});

describe('bearsOut: the read decides whether the push was true', () => {
  it('the same status, timestamps and figures', () => {
    expect(bearsOut(p('PENDING'), p('PENDING'))).toBe(true);
  });
  it('a read that moved past the push (the push was late)', () => {
    expect(bearsOut(p('SENT', { sentAt: T1 }), p('PENDING'))).toBe(true);
    expect(bearsOut(p('PROCESSING'), p('PENDING'))).toBe(true);
    expect(
      bearsOut(p('REFUNDED', { completedAt: T1, refundedAt: T2 }), p('COMPLETED', { completedAt: T1 })),
    ).toBe(true);
  });
  it('a timestamp the service does not have', () => {
    expect(bearsOut(p('PROCESSING'), p('PROCESSING', { refundedAt: T1 }))).toBe(false);
    expect(bearsOut(p('AWAITING_FUNDS'), p('AWAITING_FUNDS', { refundedAt: T1 }))).toBe(false);
  });
  it('a status the read is not past', () => {
    expect(bearsOut(p('AWAITING_FUNDS'), p('PENDING'))).toBe(false);
    expect(bearsOut(p('PENDING'), p('PROCESSING'))).toBe(false);
  });
  it.each([
    ['source.amount', { source: { amount: 1_000_000, currencyCode: 'USD' } }],
    ['source.currencyCode', { source: { amount: 100, currencyCode: 'EUR' } }],
    ['destination.amount', { destination: { amount: 1, currencyCode: 'EUR' } }],
    ['destination.currencyCode', { destination: { amount: 90, currencyCode: 'GBP' } }],
    ['fee', { fee: 0 }],
    ['error code (object)', { error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'x' } }],
    ['error code (string)', { error: 'RFI_NOT_ANSWERED_IN_TIME' }],
  ])('other figures under the same status: %s', (_what, over) => {
    expect(bearsOut(p('PENDING'), p('PENDING', {}, over))).toBe(false);
  });
  it('the same error code written either way is the same figure', () => {
    expect(
      bearsOut(p('FAILED', {}, { error: { code: 'X', message: 'a' } }), p('FAILED', {}, { error: 'X' })),
    ).toBe(true);
  });
  it('more timestamps on the read under the same status: moved on, not the same', () => {
    expect(bearsOut(p('EXPIRED', { expiredAt: T1, refundedAt: T2 }), p('EXPIRED', { expiredAt: T1 }))).toBe(
      true,
    );
  });
});

describe('moveKey and what is told after the outcome', () => {
  it('the status, and a refund the status does not show', () => {
    expect(moveKey(p('COMPLETED', { completedAt: T1 }))).toBe('COMPLETED');
    expect(moveKey(p('EXPIRED', { expiredAt: T1, refundedAt: T2 }))).toBe('EXPIRED+REFUNDED');
    expect(moveKey(p('REFUNDED', { refundedAt: T2 }))).toBe('REFUNDED');
  });
  it('a move is untold until its key was told', () => {
    const refunded = p('EXPIRED', { expiredAt: T1, refundedAt: T2 });
    expect(isUntoldMove('EXPIRED', refunded)).toBe(true);
    expect(isUntoldMove('EXPIRED+REFUNDED', refunded)).toBe(false);
    expect(isUntoldMove(null, refunded)).toBe(true);
  });
  it('a refund that kept the status is what the older rule missed', () => {
    expect(isRefundKeepingStatus('EXPIRED', p('EXPIRED', { expiredAt: T1, refundedAt: T2 }))).toBe(true);
    expect(isRefundKeepingStatus('EXPIRED', p('EXPIRED', { expiredAt: T1 }))).toBe(false);
    expect(isRefundKeepingStatus('COMPLETED', p('REFUNDED', { refundedAt: T2 }))).toBe(false);
    expect(isRefundKeepingStatus(null, p('EXPIRED', { expiredAt: T1, refundedAt: T2 }))).toBe(false);
  });
  it("an older build's told (no `keyed`) is ambiguous only for a refund that kept the status", () => {
    const refunded = p('EXPIRED', { expiredAt: T1, refundedAt: T2 });
    expect(mayBeOlderTold({ told: 'EXPIRED' }, refunded)).toBe(true);
    expect(mayBeOlderTold({ told: 'EXPIRED', keyed: true }, refunded)).toBe(false);
    expect(mayBeOlderTold({ told: 'EXPIRED' }, p('EXPIRED', { expiredAt: T1 }))).toBe(false);
    expect(mayBeOlderTold({ told: 'COMPLETED' }, p('REFUNDED', { refundedAt: T2 }))).toBe(false);
  });
  it("an older build's told stands for the refund it sent only when it still had the subscriber", () => {
    const refunded = p('EXPIRED', { expiredAt: T1, refundedAt: T2 });
    // carried over while subscribed: it was sent the refunded snapshot
    expect(sentBeforeUpgrade({ told: 'EXPIRED', sentKey: 'EXPIRED+REFUNDED' }, refunded)).toBe(true);
    // carried over after it closed: nothing says it was sent the refund
    expect(sentBeforeUpgrade({ told: 'EXPIRED' }, refunded)).toBe(false);
    // it was sent the payment before the refund
    expect(sentBeforeUpgrade({ told: 'EXPIRED', sentKey: 'EXPIRED' }, refunded)).toBe(false);
    // written by the refund rule: "EXPIRED" is what it was told
    expect(sentBeforeUpgrade({ told: 'EXPIRED', keyed: true, sentKey: 'EXPIRED+REFUNDED' }, refunded)).toBe(
      false,
    );
  });
  it('only a refund or a legacy late funding may have moved after the outcome', () => {
    expect(mayHaveMovedAfterOutcome(p('REFUNDED'))).toBe(true);
    expect(mayHaveMovedAfterOutcome(p('COMPLETED', { refundedAt: T2 }))).toBe(true);
    expect(mayHaveMovedAfterOutcome(p('SENT', { expiredAt: T1, sentAt: T2 }))).toBe(true);
    expect(mayHaveMovedAfterOutcome(p('COMPLETED', { expiredAt: T1 }))).toBe(true);
    expect(mayHaveMovedAfterOutcome(p('COMPLETED', { completedAt: T1 }))).toBe(false);
    expect(mayHaveMovedAfterOutcome(p('PENDING', { expiredAt: T1 }))).toBe(false);
    expect(mayHaveMovedAfterOutcome(p('EXPIRED', { expiredAt: T1 }))).toBe(false);
  });
});

describe('bearsOut, edge cases a review would miss', () => {
  it('a read that moved on by status but lacks a timestamp the push claimed does not bear it out', () => {
    // an inconsistent pair: the read has sentAt/completedAt the push lacks, the push has refundedAt the read lacks
    expect(
      bearsOut(p('COMPLETED', { sentAt: T1, completedAt: T2 }), p('PROCESSING', { refundedAt: T1 })),
    ).toBe(false);
    expect(bearsOut(p('SENT', { sentAt: T1 }), p('PROCESSING', { refundedAt: T1 }))).toBe(false);
  });
  it('a read that moved on bears the push out whatever its figures became', () => {
    expect(bearsOut(p('SENT', { sentAt: T1 }, { fee: 2 }), p('PENDING'))).toBe(true);
  });
  it('two fees, both set, are two figures', () => {
    expect(bearsOut(p('PENDING', {}, { fee: 1 }), p('PENDING', {}, { fee: 2 }))).toBe(false);
  });
  it('a payment without source, destination or lifecycle is read, never a crash', () => {
    const bare = { id: 'pay_1', status: 'PENDING' } as unknown as Payment;
    expect(bearsOut(bare, bare)).toBe(true);
    expect(moveKey(bare)).toBe('PENDING');
    expect(mayHaveMovedAfterOutcome(bare)).toBe(false);
    expect(mayHaveMovedAfterOutcome({ id: 'pay_1', status: 'REFUNDED' } as unknown as Payment)).toBe(true);
  });
});
