import { z } from 'zod';
import { CountryCode, CurrencyCode, isRecord } from './primitives';
import { ContractParseError, zodIssuesToViolations } from './errors';

// spec: Corridor.
export const CorridorSchema = z.looseObject({
  source: z.looseObject({ currencyCodes: z.array(CurrencyCode), rails: z.array(z.string()) }),
  destination: z.looseObject({
    currencyCodes: z.array(CurrencyCode),
    rails: z.array(z.string()),
    countryCode: CountryCode,
  }),
  fees: z.looseObject({ fixed: z.number(), variable: z.number() }),
});
export type Corridor = z.infer<typeof CorridorSchema>;

const LegacyFeeSchema = z.looseObject({ fixedFeeInUSD: z.number(), variableFeeInSourceCurrency: z.number() });

// spec: Corridor — "Legacy corridor (ends September 30)".
export const LegacyCorridorSchema = z.looseObject({
  source: z.looseObject({ currencyCode: CurrencyCode, chain: z.string().nullable().optional() }),
  destination: z.looseObject({
    currencyCode: CurrencyCode,
    chain: z.string().nullable().optional(),
    countryCode: CountryCode,
  }),
  fees: z.looseObject({
    LOCAL: LegacyFeeSchema.optional(),
    CRYPTO: LegacyFeeSchema.optional(),
    WIRE: LegacyFeeSchema.optional(),
  }),
});
export type LegacyCorridor = z.infer<typeof LegacyCorridorSchema>;

/**
 * Current or legacy corridor → current corridors. A legacy corridor becomes one corridor per fee key:
 * LOCAL → rail LOCAL, WIRE → SWIFT, CRYPTO → the chain of that side (skipped without a chain).
 * The source side takes its chain when it has one, else LOCAL. fixedFeeInUSD is copied to fees.fixed
 * as is (docs/spec-gaps.md, Contract).
 */
export function normalizeCorridor(raw: unknown): Corridor[] {
  const current = CorridorSchema.safeParse(raw);
  if (current.success) return [current.data];
  if (!isLegacyShape(raw)) {
    throw new ContractParseError('corridor', zodIssuesToViolations(current.error));
  }
  const legacy = LegacyCorridorSchema.safeParse(raw);
  if (!legacy.success) throw new ContractParseError('legacy corridor', zodIssuesToViolations(legacy.error));
  const { source, destination, fees } = legacy.data;
  const sourceRail = source.chain ?? 'LOCAL';
  const out: Corridor[] = [];
  for (const key of ['LOCAL', 'WIRE', 'CRYPTO'] as const) {
    const fee = fees[key];
    if (!fee) continue;
    const destinationRail = key === 'LOCAL' ? 'LOCAL' : key === 'WIRE' ? 'SWIFT' : destination.chain;
    if (!destinationRail) continue;
    out.push({
      source: { currencyCodes: [source.currencyCode], rails: [sourceRail] },
      destination: {
        currencyCodes: [destination.currencyCode],
        rails: [destinationRail],
        countryCode: destination.countryCode,
      },
      fees: { fixed: fee.fixedFeeInUSD, variable: fee.variableFeeInSourceCurrency },
    });
  }
  return out;
}

/** A legacy corridor has source.currencyCode (singular); a current one has source.currencyCodes. */
function isLegacyShape(raw: unknown): boolean {
  return isRecord(raw) && isRecord(raw.source) && 'currencyCode' in raw.source;
}
