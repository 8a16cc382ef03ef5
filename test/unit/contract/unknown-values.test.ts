// Values the contract does not know are passed through, never refused.
import { normalizePayment, unknownPaymentValues, isKnownPaymentStatus } from '../../../src/contract';
import { compareSnapshots, mergePayment } from '../../../workflows/payment-merge';
import { currentPayment } from './fixtures';

describe('unknown values of a payment', () => {
  test('an unlisted status is kept as sent and reported', () => {
    const p = normalizePayment({ ...currentPayment(), status: 'ON_HOLD' });
    expect(p.status).toBe('ON_HOLD');
    expect(isKnownPaymentStatus(p.status)).toBe(false);
    expect(unknownPaymentValues(p)).toEqual(['status ON_HOLD']);
  });

  test('statusReasons and error in other shapes are kept as sent and reported', () => {
    const reasons = [{ code: 'RFI', detail: 'documents requested' }];
    const p = normalizePayment({ ...currentPayment(), statusReasons: reasons, error: 'SOMETHING_NEW' });
    expect(p.statusReasons).toEqual(reasons);
    expect(p.error).toBe('SOMETHING_NEW');
    expect(unknownPaymentValues(p)).toEqual(['statusReasons shape', 'error shape']);
    const q = normalizePayment({ ...currentPayment(), error: { reason: 'no code here' } });
    expect(q.error).toEqual({ reason: 'no code here' });
    expect(unknownPaymentValues(q)).toEqual(['error shape']);
  });

  test('a known payment reports nothing', () => {
    expect(unknownPaymentValues(normalizePayment(currentPayment()))).toEqual([]);
  });

  test('timestamps with an offset are accepted and kept as sent', () => {
    const raw = currentPayment();
    raw.lifecycle.createdAt = '2026-02-01T10:00:00+00:00';
    raw.quote.expiresAt = '2026-02-01T12:15:00+02:00';
    const p = normalizePayment(raw);
    expect(p.lifecycle.createdAt).toBe('2026-02-01T10:00:00+00:00');
    expect(Date.parse(p.quote.expiresAt)).toBe(Date.parse('2026-02-01T10:15:00Z'));
  });

  test('a change to or from an unknown status is news, never dropped', () => {
    const known = normalizePayment({ ...currentPayment(), status: 'PROCESSING' });
    const unknown = normalizePayment({ ...known, status: 'ON_HOLD' });
    expect(compareSnapshots(known, unknown)).toBe('NEWER');
    expect(mergePayment(known, unknown).payment.status).toBe('ON_HOLD');
    expect(compareSnapshots(unknown, known)).toBe('NEWER');
    expect(compareSnapshots(unknown, unknown)).toBe('SAME');
  });
});
