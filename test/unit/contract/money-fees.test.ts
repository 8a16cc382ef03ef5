import fc from 'fast-check';
import {
  FeeCalculationError,
  destinationFromSource,
  minorUnit,
  minorUnits,
  roundMinor,
  sourceFromDestination,
} from '../../../src/contract';

describe('minor units and rounding', () => {
  test('JPY 0, USD 2, KWD 3, stablecoins 6, unknown 2', () => {
    expect(minorUnits('JPY')).toBe(0);
    expect(minorUnits('USD')).toBe(2);
    expect(minorUnits('eur')).toBe(2);
    expect(minorUnits('KWD')).toBe(3);
    for (const c of ['USDC', 'USDT', 'EURC']) expect(minorUnits(c)).toBe(6);
    expect(minorUnits('XYZ')).toBe(2);
    expect(minorUnit('JPY')).toBe(1);
    expect(minorUnit('USD')).toBe(0.01);
  });

  test('half-up away from zero, with binary noise removed', () => {
    expect(roundMinor(1.005, 'USD')).toBe(1.01); // 1.005 is 1.00499999… in binary
    expect(roundMinor(0.1 + 0.2, 'USD')).toBe(0.3);
    expect(roundMinor(-2.345, 'USD')).toBe(-2.35);
    expect(roundMinor(1234.5, 'JPY')).toBe(1235);
    expect(roundMinor(1234.49, 'JPY')).toBe(1234);
    expect(roundMinor(1.2345675, 'USDC')).toBe(1.234568);
    expect(roundMinor(-0.001, 'USD')).toBe(0);
    expect(Object.is(roundMinor(-0.001, 'USD'), -0)).toBe(false);
  });

  test('large amounts keep every minor unit (found by the round-trip property: 12 digits were too few)', () => {
    expect(roundMinor(8920104.4143451, 'USDC')).toBe(8920104.414345);
    expect(roundMinor(4043449.1947149, 'USDT')).toBe(4043449.194715);
    expect(roundMinor(123456789012.345, 'USD')).toBe(123456789012.35);
  });

  test('up and down modes', () => {
    expect(roundMinor(1.001, 'USD', 'up')).toBe(1.01);
    expect(roundMinor(1.009, 'USD', 'down')).toBe(1);
    expect(roundMinor(1.1, 'USD', 'up')).toBe(1.1);
  });

  test('refuses non-finite amounts', () => {
    expect(() => roundMinor(Number.NaN, 'USD')).toThrow(RangeError);
  });
});

describe('fee formulas (spec: Rate (quote), Calculation)', () => {
  const fees = { serviceFee: { fixed: 1, variable: 0.01 }, developerFee: { fixed: 0.5, variable: 0.002 } };

  test('S → D follows D = (((S - sF)(1 - sV)) - dF) m (1 - dV) exactly', () => {
    const r = destinationFromSource({ sourceAmount: 100, midMarketRate: 5, ...fees });
    const D = ((100 - 1) * (1 - 0.01) - 0.5) * 5 * (1 - 0.002);
    expect(r.destinationAmount).toBeCloseTo(D, 10);
    expect(r.sourceAmount).toBe(100);
    // total = S − D/m = sF + (S−sF)sV + dF + ((S−sF)(1−sV) − dF)dV
    expect(r.totalFeeInSourceCurrency).toBeCloseTo(1 + 99 * 0.01 + 0.5 + (99 * 0.99 - 0.5) * 0.002, 10);
  });

  test('D → S follows S = (((D / (m (1 - dV))) + dF) / (1 - sV)) + sF exactly', () => {
    const r = sourceFromDestination({ destinationAmount: 500, midMarketRate: 5, ...fees });
    expect(r.sourceAmount).toBeCloseTo((500 / (5 * 0.998) + 0.5) / 0.99 + 1, 10);
    expect(r.totalFeeInSourceCurrency).toBeCloseTo(r.sourceAmount - 100, 10);
  });

  test('rounds each side to its currency: USDC → JPY', () => {
    const r = destinationFromSource({
      sourceAmount: 100,
      midMarketRate: 150.123,
      ...fees,
      sourceCurrency: 'USDC',
      destinationCurrency: 'JPY',
    });
    expect(Number.isInteger(r.destinationAmount)).toBe(true);
    expect(r.destinationAmount).toBe(Math.round(((100 - 1) * 0.99 - 0.5) * 150.123 * 0.998));
    expect(r.totalFeeInSourceCurrency).toBe(roundMinor(1 + 0.99 + 0.5 + (99 * 0.99 - 0.5) * 0.002, 'USDC'));
  });

  test('without fees D = S·m and the total fee is 0', () => {
    const r = destinationFromSource({
      sourceAmount: 10,
      midMarketRate: 2,
      serviceFee: { fixed: 0, variable: 0 },
      developerFee: { fixed: 0, variable: 0 },
    });
    expect(r).toEqual({ sourceAmount: 10, destinationAmount: 20, totalFeeInSourceCurrency: 0 });
  });

  test('fees that take the whole amount, and out-of-range inputs, throw FeeCalculationError', () => {
    expect(() => destinationFromSource({ sourceAmount: 1, midMarketRate: 5, ...fees })).toThrow(
      FeeCalculationError,
    );
    expect(() => destinationFromSource({ sourceAmount: 100, midMarketRate: 0, ...fees })).toThrow(
      'midMarketRate',
    );
    expect(() =>
      destinationFromSource({
        sourceAmount: 100,
        midMarketRate: 1,
        serviceFee: { fixed: 0, variable: 1 },
        developerFee: { fixed: 0, variable: 0 },
      }),
    ).toThrow('serviceFee.variable');
    expect(() => sourceFromDestination({ destinationAmount: 0, midMarketRate: 1, ...fees })).toThrow(
      'destinationAmount',
    );
    try {
      destinationFromSource({ sourceAmount: 1, midMarketRate: 5, ...fees });
    } catch (e) {
      expect((e as FeeCalculationError).type).toBe('FEE_CALCULATION_ERROR');
      expect((e as FeeCalculationError).retryable).toBe(false);
    }
  });
});

describe('property: S → D → S round-trips', () => {
  const pairs = [
    ['USDC', 'BRL'],
    ['USD', 'JPY'],
    ['USDT', 'USD'],
    ['EUR', 'USDC'],
    ['JPY', 'PHP'],
    ['USD', 'INR'],
  ] as const;
  /** A source amount that leaves at least 1 after the fees (so D > 0). */
  const minimumSource = (s: { fixed: number; variable: number }, d: { fixed: number; variable: number }) =>
    s.fixed + (d.fixed + 1) / (1 - s.variable) + 1;
  const feeArb = fc.record({
    fixed: fc.double({ min: 0, max: 50, noNaN: true }),
    variable: fc.double({ min: 0, max: 0.2, noNaN: true }),
  });

  test.each(pairs)(
    '%s → %s within one source minor unit (plus the value of one destination minor unit)',
    (src, dst) => {
      fc.assert(
        fc.property(
          fc.double({ min: 1e-3, max: 1e4, noNaN: true }), // midMarketRate
          fc.double({ min: 0, max: 1e7, noNaN: true }), // amount above the fees
          feeArb,
          feeArb,
          (m, extra, serviceFee, developerFee) => {
            const S = roundMinor(minimumSource(serviceFee, developerFee) + extra, src);
            const there = destinationFromSource({
              sourceAmount: S,
              midMarketRate: m,
              serviceFee,
              developerFee,
              sourceCurrency: src,
              destinationCurrency: dst,
            });
            fc.pre(there.destinationAmount > 0);
            const back = sourceFromDestination({
              destinationAmount: there.destinationAmount,
              midMarketRate: m,
              serviceFee,
              developerFee,
              sourceCurrency: src,
              destinationCurrency: dst,
            });
            // Rounding D to its minor unit moves S by up to half a destination unit valued in source.
            const destUnitInSource =
              minorUnit(dst) / (m * (1 - developerFee.variable) * (1 - serviceFee.variable));
            const tolerance = minorUnit(src) + destUnitInSource / 2 + S * 1e-12;
            expect(Math.abs(back.sourceAmount - S)).toBeLessThanOrEqual(tolerance);
            // When a destination unit is worth no more than a source unit, the trip is within one source unit.
            if (destUnitInSource <= minorUnit(src))
              expect(Math.abs(back.sourceAmount - S)).toBeLessThanOrEqual(minorUnit(src) + S * 1e-12);
          },
        ),
        { numRuns: 500 },
      );
    },
  );

  test('exact (unrounded) S → D → S is the identity to 1e-9 relative', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-4, max: 1e5, noNaN: true }),
        fc.double({ min: 1, max: 1e9, noNaN: true }),
        feeArb,
        feeArb,
        (m, S0, serviceFee, developerFee) => {
          const S = minimumSource(serviceFee, developerFee) + S0;
          const D = destinationFromSource({
            sourceAmount: S,
            midMarketRate: m,
            serviceFee,
            developerFee,
          }).destinationAmount;
          const back = sourceFromDestination({
            destinationAmount: D,
            midMarketRate: m,
            serviceFee,
            developerFee,
          }).sourceAmount;
          expect(Math.abs(back - S) / S).toBeLessThan(1e-9);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('the total fee is never negative and never exceeds S', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        feeArb,
        feeArb,
        (m, extra, serviceFee, developerFee) => {
          const S = minimumSource(serviceFee, developerFee) + extra;
          const r = destinationFromSource({ sourceAmount: S, midMarketRate: m, serviceFee, developerFee });
          expect(r.totalFeeInSourceCurrency).toBeGreaterThanOrEqual(-1e-9 * S);
          expect(r.totalFeeInSourceCurrency).toBeLessThan(S);
        },
      ),
      { numRuns: 300 },
    );
  });
});
