// The reconcile sweep's decision per listed payment (workflows/provider-payment/sweep-decision.ts): a running entity
// not final is told only a final status; any other is told a record that moved after its outcome within the window,
// under an event id that carries the record's timestamps (a refund that keeps the status is a new id).
import {
  movedAfterOutcomeAt,
  sweepEventId,
  sweepTellOf,
} from '../../../../workflows/provider-payment/sweep-decision';
import { snapshot, T0, T1, T2, T3, withoutLifecycle } from './fixtures';

const ms = (iso: string) => Date.parse(iso);

describe('movedAfterOutcomeAt', () => {
  it('is the newest lifecycle timestamp of a record refunded after its outcome (late funds on EXPIRED: row 4)', () => {
    expect(movedAfterOutcomeAt(snapshot('EXPIRED', { expiredAt: T1, refundedAt: T2 }))).toBe(ms(T2));
    // a return after COMPLETED (REFUNDED): the refund is the newest stamp
    expect(movedAfterOutcomeAt(snapshot('REFUNDED', { sentAt: T1, completedAt: T2, refundedAt: T3 }))).toBe(
      ms(T3),
    );
  });

  it('takes the newest stamp whatever the field order (a legacy late funding that revived EXPIRED: row 5)', () => {
    expect(movedAfterOutcomeAt(snapshot('COMPLETED', { expiredAt: T1, sentAt: T3, completedAt: T2 }))).toBe(
      ms(T3),
    );
    expect(movedAfterOutcomeAt(snapshot('SENT', { expiredAt: T2, sentAt: T1 }))).toBe(ms(T2));
  });

  it('is null for a record that shows no move after an outcome', () => {
    expect(movedAfterOutcomeAt(snapshot('EXPIRED', { expiredAt: T1 }))).toBeNull();
    expect(movedAfterOutcomeAt(snapshot('COMPLETED', { sentAt: T1, completedAt: T2 }))).toBeNull();
    expect(movedAfterOutcomeAt(snapshot('AWAITING_FUNDS'))).toBeNull();
  });

  it('skips a timestamp that does not parse, and is null when none does (it cannot be placed in a window)', () => {
    expect(movedAfterOutcomeAt(snapshot('REFUNDED', { completedAt: T1, refundedAt: 'not a time' }))).toBe(
      ms(T1),
    );
    expect(
      movedAfterOutcomeAt(snapshot('REFUNDED', { createdAt: 'x' as never, refundedAt: 'not a time' })),
    ).toBeNull();
    expect(movedAfterOutcomeAt(withoutLifecycle(snapshot('REFUNDED')))).toBeNull();
  });
});

describe('sweepTellOf', () => {
  const refunded = snapshot('EXPIRED', { expiredAt: T1, refundedAt: T2 });

  it('tells a running entity not final only a final status, moved or not', () => {
    expect(sweepTellOf(snapshot('COMPLETED', { completedAt: T1 }), true, ms(T3))).toBe('final');
    expect(sweepTellOf(refunded, true, ms(T0))).toBe('final');
    expect(sweepTellOf(snapshot('SENT', { sentAt: T1 }), true, ms(T0))).toBeNull();
    // a legacy revival still on its way: the running entity follows it by its own reads
    expect(sweepTellOf(snapshot('SENT', { expiredAt: T1, sentAt: T2 }), true, ms(T0))).toBeNull();
  });

  it('tells any other entity a record that moved after its outcome at or after the window start', () => {
    expect(sweepTellOf(refunded, false, ms(T1))).toBe('moved');
    expect(sweepTellOf(refunded, false, ms(T2))).toBe('moved'); // the window's first instant counts
    expect(sweepTellOf(refunded, false, ms(T2) + 1)).toBeNull(); // moved before the window: an earlier run's
  });

  it('tells no other entity a record that did not move after its outcome, however recent', () => {
    expect(sweepTellOf(snapshot('COMPLETED', { completedAt: T2 }), false, ms(T0))).toBeNull();
    expect(sweepTellOf(snapshot('EXPIRED', { expiredAt: T2 }), false, ms(T0))).toBeNull();
    // whatever the window: no time is not an old time
    expect(sweepTellOf(snapshot('EXPIRED', { expiredAt: T2 }), false, Number.NEGATIVE_INFINITY)).toBeNull();
  });
});

describe('sweepEventId', () => {
  it('is one per status for a record that shows no move after its outcome (as the sweep always named it)', () => {
    const p = snapshot('COMPLETED', { completedAt: T1 });
    expect(sweepEventId(p)).toBe(`reconcile:${p.id}:COMPLETED`);
  });

  it('carries every timestamp, sorted, for a record that moved after its outcome: a refund keeping EXPIRED is a new id', () => {
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    const refunded = snapshot('EXPIRED', { expiredAt: T1, refundedAt: T2 });
    expect(sweepEventId(refunded)).toBe(
      `reconcile:${refunded.id}:EXPIRED:createdAt=${T0},expiredAt=${T1},refundedAt=${T2}`,
    );
    expect(sweepEventId(refunded)).not.toBe(sweepEventId(expired));
    // another refund time is another move
    expect(sweepEventId(snapshot('EXPIRED', { expiredAt: T1, refundedAt: T3 }))).not.toBe(
      sweepEventId(refunded),
    );
  });

  it('names the timestamps in one order whatever order the record lists them in', () => {
    const p = snapshot('REFUNDED');
    const reordered = { ...p, lifecycle: { refundedAt: T2, completedAt: T1, createdAt: T0 } } as typeof p;
    expect(sweepEventId(reordered)).toBe(
      `reconcile:${p.id}:REFUNDED:completedAt=${T1},createdAt=${T0},refundedAt=${T2}`,
    );
  });

  it('leaves out empty timestamps', () => {
    const p = snapshot('REFUNDED', { refundedAt: T2, sentAt: '' as never });
    expect(sweepEventId(p)).toBe(`reconcile:${p.id}:REFUNDED:createdAt=${T0},refundedAt=${T2}`);
  });
});
