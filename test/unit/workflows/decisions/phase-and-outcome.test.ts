// What a provider payment means to the payment workflow: refunded, funded, unfundable, phase, outcome
// (workflows/payment-rules.ts; spec: States and transitions; docs/spec-gaps.md).
import {
  failureCodeOf,
  hasFundsIn,
  isRefunded,
  isUnfundable,
  outcomeOf,
  phaseOf,
  pullsFromAccount,
} from '../../../../workflows/payment-rules';
import { snapshot, T1, T2, T3, withoutLifecycle } from './fixtures';

describe('the failure code an outcome carries (spec: Errors 3; error type not shown)', () => {
  it('is the error itself when the error is a string', () => {
    expect(failureCodeOf(snapshot('FAILED', {}, { error: 'RFI_NOT_ANSWERED_IN_TIME' as never }))).toBe(
      'RFI_NOT_ANSWERED_IN_TIME',
    );
    expect(outcomeOf(snapshot('FAILED', {}, { error: 'RFI_NOT_ANSWERED_IN_TIME' as never }))).toMatchObject({
      outcome: 'FAILED',
      code: 'RFI_NOT_ANSWERED_IN_TIME',
    });
  });
  it('is the string code of an error object', () => {
    expect(
      failureCodeOf(snapshot('FAILED', {}, { error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK' } as never })),
    ).toBe('FUNDS_RETURNED_BY_RECEIVING_BANK');
  });
  it('is none when there is no error, or its code is not a string', () => {
    expect(failureCodeOf(snapshot('FAILED'))).toBeNull();
    expect(failureCodeOf(snapshot('FAILED', {}, { error: { code: 42 } as never }))).toBeNull();
    expect(failureCodeOf(snapshot('FAILED', {}, { error: 42 as never }))).toBeNull();
    expect(outcomeOf(snapshot('FAILED'))).toMatchObject({ outcome: 'FAILED', code: null });
  });
});

describe('refunded: status REFUNDED, or refundedAt on a payment that did not fail (row 4)', () => {
  it('REFUNDED without a refundedAt is refunded: phase and outcome REFUNDED', () => {
    const refunded = snapshot('REFUNDED', { sentAt: T1 });
    expect(isRefunded(refunded)).toBe(true);
    expect(phaseOf(refunded, false)).toBe('REFUNDED');
    expect(outcomeOf(refunded)).toMatchObject({ outcome: 'REFUNDED', code: null });
  });
  it('EXPIRED with refundedAt (funds after the quote) ends REFUNDED with its code', () => {
    const late = snapshot(
      'EXPIRED',
      { expiredAt: T1, refundedAt: T3 },
      { error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' } as never },
    );
    expect(phaseOf(late, true)).toBe('REFUNDED');
    expect(outcomeOf(late)).toMatchObject({
      outcome: 'REFUNDED',
      code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
    });
  });
  it('a snapshot without a lifecycle object is neither refunded nor known funded', () => {
    const bare = withoutLifecycle(snapshot('AWAITING_FUNDS'));
    expect(isRefunded(bare)).toBe(false);
    expect(hasFundsIn(bare)).toBe(false);
  });
});

describe('funds are known in: a funded status, or lifecycle.sentAt (row 2)', () => {
  it.each(['PENDING', 'PROCESSING', 'SENT', 'COMPLETED'])(
    '%s: funds are in, so it can no longer be unfundable',
    (status) => {
      expect(hasFundsIn(snapshot(status))).toBe(true);
      expect(isUnfundable(snapshot(status))).toBe(false);
    },
  );
  it.each(['AWAITING_FUNDS', 'EXPIRED', 'FAILED', 'ON_HOLD'])(
    '%s without sentAt: no funds known in',
    (status) => {
      expect(hasFundsIn(snapshot(status))).toBe(false);
    },
  );
  it('sentAt on an EXPIRED payment (legacy late funding, row 5): funds are in', () => {
    expect(hasFundsIn(snapshot('EXPIRED', { expiredAt: T1, sentAt: T2 }))).toBe(true);
  });
});

describe('unfundable: only the provider says so (row 1), with no funds in', () => {
  it.each(['CANCELLED', 'CANCELED', 'EXPIRED', 'FAILED', 'REFUNDED'])('%s is unfundable', (status) => {
    expect(isUnfundable(snapshot(status))).toBe(true);
  });
});

describe('a payment pulled from an account (rule 1)', () => {
  it('pulls when source.accountId is given, and not when the source or its account is missing', () => {
    expect(
      pullsFromAccount(
        snapshot('AWAITING_FUNDS', {}, { source: { ...snapshot('SENT').source, accountId: 'acc_v' } }),
      ),
    ).toBe(true);
    expect(pullsFromAccount(snapshot('AWAITING_FUNDS'))).toBe(false);
    expect(pullsFromAccount({})).toBe(false);
    expect(pullsFromAccount({ source: null })).toBe(false);
  });
});

describe('phase and outcome of each status (States and transitions)', () => {
  it.each([
    ['COMPLETED', { sentAt: T1, completedAt: T2 }, 'COMPLETED'],
    ['EXPIRED', { expiredAt: T1 }, 'EXPIRED'],
    ['FAILED', {}, 'FAILED'],
    ['PENDING', {}, 'IN_PROGRESS'],
    ['SENT', { sentAt: T1 }, 'IN_PROGRESS'],
  ] as const)('%s is phase %s', (status, stamps, phase) => {
    expect(phaseOf(snapshot(status, stamps), false)).toBe(phase);
  });
  it('COMPLETED and EXPIRED are outcomes of their own name, with the payment', () => {
    const completed = snapshot('COMPLETED', { sentAt: T1, completedAt: T2 });
    expect(outcomeOf(completed)).toEqual({ outcome: 'COMPLETED', payment: completed });
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    expect(outcomeOf(expired)).toEqual({ outcome: 'EXPIRED', payment: expired });
  });
  it.each(['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT'])('%s is no outcome', (status) => {
    expect(outcomeOf(snapshot(status))).toBeNull();
  });
});
