// What the entity keeps when a snapshot (push or read) comes: never backwards, a timestamp once seen never lost
// (workflows/payment-merge.ts; spec: Events 5 — delivery and order not shown; States and transitions).
import {
  BoundedIdSet,
  compareSnapshots,
  isTerminalStatus,
  mergePayment,
  stampsOf,
} from '../../../../workflows/payment-merge';
import { snapshot, T1, T2, T3, withoutLifecycle } from './fixtures';

describe('compareSnapshots: lifecycle timestamps only ever get set, so they decide before the status', () => {
  it('a snapshot with a timestamp the payment lacks is newer, even when its status ranks lower (transitions not shown: States and transitions, rule 3)', () => {
    const pending = snapshot('PENDING');
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    expect(compareSnapshots(pending, expired)).toBe('NEWER');
  });
  it('a snapshot lacking a timestamp the payment has is older, even when its status ranks higher (a delayed push)', () => {
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    expect(compareSnapshots(expired, snapshot('PENDING'))).toBe('STALE');
    expect(compareSnapshots(expired, snapshot('PROCESSING'))).toBe('STALE');
  });
  it('an inconsistent pair (each has a timestamp the other lacks) is decided by the status order', () => {
    const sent = snapshot('SENT', { sentAt: T1 });
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    expect(compareSnapshots(sent, expired)).toBe('STALE');
    expect(compareSnapshots(expired, sent)).toBe('NEWER');
  });
});

describe('compareSnapshots: with the same timestamps, the status order decides', () => {
  it('AWAITING_FUNDS after PENDING is a delayed push: older', () => {
    expect(compareSnapshots(snapshot('PENDING'), snapshot('AWAITING_FUNDS'))).toBe('STALE');
  });
  it('PENDING after AWAITING_FUNDS is news (row 2: funding notification)', () => {
    expect(compareSnapshots(snapshot('AWAITING_FUNDS'), snapshot('PENDING'))).toBe('NEWER');
  });
  it('the same status with new content (a tracking number filled in) is news; the same content is the same', () => {
    const sent = snapshot('SENT', { sentAt: T1 });
    const traced = snapshot('SENT', { sentAt: T1 }, { tracking: { ...sent.tracking, traceNumber: 'TR-9' } });
    expect(compareSnapshots(sent, traced)).toBe('NEWER');
    expect(compareSnapshots(sent, { ...sent })).toBe('SAME');
  });
  it('a status the contract does not name is news after any known status, even one further along (rule 3: not shown)', () => {
    const onHold = snapshot('ON_HOLD');
    expect(compareSnapshots(snapshot('PROCESSING'), onHold)).toBe('NEWER');
    expect(compareSnapshots(snapshot('SENT', { sentAt: T1 }), snapshot('ON_HOLD', { sentAt: T1 }))).toBe(
      'NEWER',
    );
    expect(compareSnapshots(onHold, snapshot('PROCESSING'))).toBe('NEWER');
    expect(compareSnapshots(onHold, { ...onHold })).toBe('SAME');
  });
});

describe('mergePayment', () => {
  const sent = snapshot('SENT', { sentAt: T1 });
  const completed = snapshot('COMPLETED', { sentAt: T1, completedAt: T2 });

  it('the first snapshot is taken as it is, as a change of status', () => {
    expect(mergePayment(null, sent)).toEqual({ payment: sent, changed: true, statusChanged: true });
  });
  it('a newer snapshot brings its new timestamps and keeps those it lost', () => {
    const merged = mergePayment(sent, snapshot('COMPLETED', { completedAt: T2 }));
    expect(merged.payment.lifecycle).toMatchObject({ sentAt: T1, completedAt: T2 });
    expect(merged.payment.status).toBe('COMPLETED');
  });
  it('an older or the same snapshot changes nothing and moves no status', () => {
    expect(mergePayment(completed, sent)).toEqual({
      payment: completed,
      changed: false,
      statusChanged: false,
    });
    expect(mergePayment(completed, { ...completed })).toEqual({
      payment: completed,
      changed: false,
      statusChanged: false,
    });
  });
  it('new content under the same status is a change, not a move of status', () => {
    const traced = snapshot('SENT', { sentAt: T1 }, { tracking: { ...sent.tracking, traceNumber: 'TR-9' } });
    expect(mergePayment(sent, traced)).toMatchObject({
      changed: true,
      statusChanged: false,
      payment: traced,
    });
  });
  it('a refund after EXPIRED keeps the status and adds refundedAt: a change, not a move of status (row 4)', () => {
    const expired = snapshot('EXPIRED', { expiredAt: T1 });
    const refunded = snapshot('EXPIRED', { expiredAt: T1, refundedAt: T3 });
    const merged = mergePayment(expired, refunded);
    expect(merged).toMatchObject({ changed: true, statusChanged: false });
    expect(merged.payment.lifecycle.refundedAt).toBe(T3);
  });
  it('a snapshot without a lifecycle object is read as one without timestamps', () => {
    const bare = withoutLifecycle(snapshot('PROCESSING'));
    expect(stampsOf(bare).size).toBe(0);
    const merged = mergePayment(withoutLifecycle(snapshot('PENDING')), bare);
    expect(merged).toMatchObject({ changed: true, statusChanged: true });
    expect(merged.payment.status).toBe('PROCESSING');
  });
});

describe('isTerminalStatus: after these only a refund or a legacy late funding follow (rows 4–5)', () => {
  it.each(['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED'])('%s is terminal', (status) => {
    expect(isTerminalStatus(snapshot(status))).toBe(true);
  });
  it.each(['AWAITING_FUNDS', 'PENDING', 'PROCESSING', 'SENT', 'ON_HOLD'])('%s is not', (status) => {
    expect(isTerminalStatus(snapshot(status))).toBe(false);
  });
});

describe('BoundedIdSet: dedupe of event ids carried over continue-as-new', () => {
  it('starts empty', () => {
    const set = new BoundedIdSet();
    expect(set.size).toBe(0);
    expect(set.toArray()).toEqual([]);
  });
  it('keeps only the newest ids it is carried over with, up to its bound', () => {
    const set = new BoundedIdSet(['a', 'b', 'c', 'd', 'e'], 2);
    expect(set.toArray()).toEqual(['d', 'e']);
    expect(set.size).toBe(2);
    expect(set.add('e')).toBe(false);
    expect(set.add('a')).toBe(true);
  });
});

describe('compareSnapshots: a status the contract does not name (States and transitions: the set is not shown)', () => {
  it('to or from one, on the way, is news', () => {
    expect(compareSnapshots(snapshot('PENDING'), snapshot('ON_HOLD'))).toBe('NEWER');
    expect(compareSnapshots(snapshot('ON_HOLD'), snapshot('PROCESSING'))).toBe('NEWER');
    expect(compareSnapshots(snapshot('ON_HOLD'), snapshot('ON_HOLD'))).toBe('SAME');
  });
  it('a final named status is never left for one without a new timestamp: a stale read landing late', () => {
    const failed = snapshot('FAILED');
    expect(compareSnapshots(failed, snapshot('ON_HOLD'))).toBe('STALE');
    expect(mergePayment(failed, snapshot('ON_HOLD'))).toMatchObject({ changed: false, payment: failed });
    const completed = snapshot('COMPLETED', { sentAt: T1, completedAt: T2 });
    expect(compareSnapshots(completed, snapshot('ON_HOLD', { sentAt: T1, completedAt: T2 }))).toBe('STALE');
  });
  it('a move after a final named status carries a timestamp, and is news even under an unnamed status', () => {
    const completed = snapshot('COMPLETED', { sentAt: T1, completedAt: T2 });
    expect(
      compareSnapshots(completed, snapshot('RETURNED', { sentAt: T1, completedAt: T2, refundedAt: T3 })),
    ).toBe('NEWER');
  });
});
