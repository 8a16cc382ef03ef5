import { z } from 'zod';
import { ContractParseError, zodIssuesToViolations } from './errors';
import { isRecord } from './primitives';

// spec: Rate (quote).
const FeePairSchema = z.looseObject({ fixed: z.number(), variable: z.number() });

export const RateSchema = z.looseObject({
  midMarketRate: z.number().positive(),
  invertedMidMarketRate: z.number().positive(),
  serviceFee: FeePairSchema,
  developerFee: FeePairSchema,
  calculatedAmount: z.looseObject({
    description: z.string(),
    sourceAmount: z.number(),
    destinationAmount: z.number(),
    totalFeeInSourceCurrency: z.number(),
  }),
  quoteId: z.string().min(1),
});
export type Rate = z.infer<typeof RateSchema>;

const LegacyAmountsSchema = z.looseObject({
  sourceAmount: z.number(),
  destinationAmount: z.number(),
  totalFeeInSourceCurrency: z.number(),
});

// spec: Rate (quote) — "Legacy rate shape".
export const LegacyRateSchema = z.looseObject({
  midMarketRate: z.number().positive(),
  invertedMidMarketRate: z.number().positive(),
  serviceFees: z.looseObject({
    description: z.string(),
    LOCAL: FeePairSchema.optional(),
    WIRE: FeePairSchema.optional(),
    CRYPTO: FeePairSchema.optional(),
  }),
  /** Deprecated. */
  serviceRates: z
    .looseObject({
      description: z.string(),
      LOCAL: z.number().optional(),
      WIRE: z.number().optional(),
      CRYPTO: z.number().optional(),
    })
    .optional(),
  developerFees: z.looseObject({ description: z.string(), fixed: z.number(), variable: z.number() }),
  calculatedAmounts: z.looseObject({
    LOCAL: LegacyAmountsSchema.optional(),
    WIRE: LegacyAmountsSchema.optional(),
    CRYPTO: LegacyAmountsSchema.optional(),
  }),
  quoteId: z.string().min(1),
});
export type LegacyRate = z.infer<typeof LegacyRateSchema>;
export type LegacyRailKey = 'LOCAL' | 'WIRE' | 'CRYPTO';

/**
 * Current or legacy rate → current rate. For a legacy rate, `railKey` picks which of the per-rail
 * fees and amounts to use (default LOCAL); the description comes from serviceFees.description.
 */
export function normalizeRate(raw: unknown, railKey: LegacyRailKey = 'LOCAL'): Rate {
  const current = RateSchema.safeParse(raw);
  if (current.success) return current.data;
  if (!(isRecord(raw) && 'calculatedAmounts' in raw)) {
    throw new ContractParseError('rate', zodIssuesToViolations(current.error));
  }
  const legacy = LegacyRateSchema.safeParse(raw);
  if (!legacy.success) throw new ContractParseError('legacy rate', zodIssuesToViolations(legacy.error));
  const r = legacy.data;
  const fee = r.serviceFees[railKey];
  const amounts = r.calculatedAmounts[railKey];
  if (!fee || !amounts) {
    throw new ContractParseError('legacy rate', [
      {
        path: `calculatedAmounts.${railKey}`,
        rule: 'SCHEMA',
        message: `calculatedAmounts.${railKey}: the legacy rate has no ${railKey} entry: pick another rail`,
      },
    ]);
  }
  return {
    midMarketRate: r.midMarketRate,
    invertedMidMarketRate: r.invertedMidMarketRate,
    serviceFee: { fixed: fee.fixed, variable: fee.variable },
    developerFee: { fixed: r.developerFees.fixed, variable: r.developerFees.variable },
    calculatedAmount: { description: r.serviceFees.description, ...amounts },
    quoteId: r.quoteId,
  };
}
