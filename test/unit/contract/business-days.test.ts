import fc from 'fast-check';
import { AWAITING_FUNDS_LIFETIME_BUSINESS_DAYS, addBusinessDays, isBusinessDay } from '../../../src/contract';

const at = (iso: string) => new Date(iso);

describe('addBusinessDays (UTC, Saturday and Sunday skipped)', () => {
  test('the AWAITING_FUNDS lifetime is 3 business days (spec: Limits)', () => {
    expect(AWAITING_FUNDS_LIFETIME_BUSINESS_DAYS).toBe(3);
  });

  test('Friday 15:00 + 3 = Wednesday 15:00', () => {
    // 2026-04-03 is a Friday
    expect(addBusinessDays(at('2026-04-03T15:00:00Z'), 3).toISOString()).toBe('2026-04-08T15:00:00.000Z');
  });

  test('Monday 09:30 + 3 = Thursday 09:30; + 5 = next Monday', () => {
    expect(addBusinessDays(at('2026-03-30T09:30:00Z'), 3).toISOString()).toBe('2026-04-02T09:30:00.000Z');
    expect(addBusinessDays(at('2026-03-30T09:30:00Z'), 5).toISOString()).toBe('2026-04-06T09:30:00.000Z');
  });

  test('an instant on a weekend counts from 00:00 UTC of the next business day: Saturday 10:00 + 3 = Thursday 00:00', () => {
    expect(addBusinessDays(at('2026-04-04T10:00:00Z'), 3).toISOString()).toBe('2026-04-09T00:00:00.000Z');
    expect(addBusinessDays(at('2026-04-05T23:59:59Z'), 1).toISOString()).toBe('2026-04-07T00:00:00.000Z');
  });

  test('n = 0: a business-day instant is unchanged, a weekend instant moves to Monday 00:00', () => {
    expect(addBusinessDays(at('2026-04-03T15:00:00Z'), 0).toISOString()).toBe('2026-04-03T15:00:00.000Z');
    expect(addBusinessDays(at('2026-04-04T15:00:00Z'), 0).toISOString()).toBe('2026-04-06T00:00:00.000Z');
  });

  test('holidays are skipped: Good Friday and Easter Monday 2026', () => {
    const holidays = new Set(['2026-04-03', '2026-04-06']);
    // Thursday 2026-04-02 12:00 + 1 → Tuesday 04-07 12:00
    expect(addBusinessDays(at('2026-04-02T12:00:00Z'), 1, holidays).toISOString()).toBe(
      '2026-04-07T12:00:00.000Z',
    );
    // an instant on a holiday counts from the next business day
    expect(addBusinessDays(at('2026-04-03T12:00:00Z'), 1, holidays).toISOString()).toBe(
      '2026-04-08T00:00:00.000Z',
    );
  });

  test('days are UTC days: Friday 23:30 UTC is Friday, whatever the local zone', () => {
    expect(addBusinessDays(at('2026-04-03T23:30:00Z'), 1).toISOString()).toBe('2026-04-06T23:30:00.000Z');
    expect(addBusinessDays(at('2026-04-03T20:30:00-05:00'), 1).toISOString()).toBe(
      '2026-04-07T00:00:00.000Z',
    ); // = Sat 01:30 UTC
  });

  test('refuses negative or fractional n, invalid instants and malformed holidays', () => {
    expect(() => addBusinessDays(at('2026-04-03T00:00:00Z'), -1)).toThrow(RangeError);
    expect(() => addBusinessDays(at('2026-04-03T00:00:00Z'), 1.5)).toThrow(RangeError);
    expect(() => addBusinessDays(new Date('nope'), 1)).toThrow(RangeError);
    expect(() => addBusinessDays(at('2026-04-03T00:00:00Z'), 1, new Set(['3 April']))).toThrow('3 April');
  });

  test('does not mutate its input', () => {
    const d = at('2026-04-03T15:00:00Z');
    addBusinessDays(d, 3);
    expect(d.toISOString()).toBe('2026-04-03T15:00:00.000Z');
  });

  test('property: the result is a business day, later than the instant, and at most n + 2·⌈n/5⌉ + 3 calendar days away', () => {
    fc.assert(
      fc.property(
        fc.date({ min: at('2020-01-01T00:00:00Z'), max: at('2035-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 40 }),
        (d, n) => {
          const r = addBusinessDays(d, n);
          expect(isBusinessDay(r)).toBe(true);
          expect(r.getTime()).toBeGreaterThan(d.getTime());
          const days = (r.getTime() - d.getTime()) / 86_400_000;
          expect(days).toBeLessThanOrEqual(n + 2 * Math.ceil(n / 5) + 3);
          // adding in two steps gives the same result when the midpoint is a business day
          expect(addBusinessDays(addBusinessDays(d, 1), n - 1).getTime()).toBe(r.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});
