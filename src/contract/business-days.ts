// Zod-free: the payment workflow computes funding deadlines (docs/performance.md).
import { ISO_DATE } from './iso-formats';

// spec: States and transitions row 1 / Limits — "3 business days" (from 2026-03-30). Which days are
// business days is not shown; our decision (docs/spec-gaps.md, Contract):
// - days are UTC calendar days; Saturday and Sunday are never business days, nor any date in `holidays`
//   (YYYY-MM-DD strings, UTC);
// - an instant on a business day keeps its time of day: Friday 15:00 + 3 = Wednesday 15:00;
// - an instant on a non-business day first moves to 00:00 UTC of the next business day, then counts:
//   Saturday 10:00 + 3 = Thursday 00:00 (the clock starts when business opens);
// - n = 0 returns the instant itself on a business day, else the start of the next business day.

/** spec: Limits — AWAITING_FUNDS lifetime, in business days (from 2026-03-30, rule AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS). */
export const AWAITING_FUNDS_LIFETIME_BUSINESS_DAYS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;
function dateKey(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function isBusinessDay(instant: Date, holidays: ReadonlySet<string> = new Set()): boolean {
  const day = instant.getUTCDay();
  return day !== 0 && day !== 6 && !holidays.has(dateKey(instant));
}

export function addBusinessDays(instant: Date, n: number, holidays: ReadonlySet<string> = new Set()): Date {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${n}`);
  if (Number.isNaN(instant.getTime())) throw new RangeError('instant is not a valid date');
  for (const h of holidays) {
    if (typeof h !== 'string' || !ISO_DATE.test(h))
      throw new RangeError(`holiday ${h} is not a YYYY-MM-DD date`);
  }
  let t = instant.getTime();
  if (!isBusinessDay(new Date(t), holidays)) {
    t = Math.floor(t / DAY_MS) * DAY_MS; // 00:00 UTC of that day
    do t += DAY_MS;
    while (!isBusinessDay(new Date(t), holidays));
  }
  let left = n;
  while (left > 0) {
    t += DAY_MS;
    if (isBusinessDay(new Date(t), holidays)) left -= 1;
  }
  return new Date(t);
}
