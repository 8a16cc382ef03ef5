// Unit: ISO_DATE (src/contract/iso-formats.ts), the zod-free date pattern business-days.ts checks holidays with
// inside workflows, accepts exactly what z.iso.date() accepts: real calendar days, YYYY-MM-DD.
import fc from 'fast-check';
import { z } from 'zod';
import { ISO_DATE } from '../../src/contract/iso-formats';

it('ISO_DATE accepts what z.iso.date() accepts', () => {
  const day = fc.oneof(
    fc.constantFrom(
      '2024-02-29',
      '2026-02-29',
      '2000-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-1-01',
      '',
      'x',
    ),
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
      )
      .map(
        ([y, m, d]) =>
          `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
      ),
    fc.string({ maxLength: 12 }),
  );
  fc.assert(
    fc.property(day, (s) => {
      expect(ISO_DATE.test(s)).toBe(z.iso.date().safeParse(s).success);
    }),
    { numRuns: 2000 },
  );
});
