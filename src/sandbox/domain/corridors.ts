import { type Corridor } from '../../contract';

// LOCAL's country default lives in the contract, where the workflows read it too.
export { LOCAL_DEFAULT_RAIL, resolveLocalRail } from '../../contract';

/**
 * Reference corridors of the sandbox (spec: Corridor). Gap: which corridors exist and their fees are not
 * shown; ours are deterministic. One corridor per (source currencies, source rail) × (destination currency,
 * destination rail, country), so `fees` are specific to the rail pair as the spec says. Fixed fees are in
 * units of the source currency (all source currencies are worth about one USD or EUR).
 */
interface SourceSide {
  currencyCodes: string[];
  rails: string[];
}
interface DestinationSide {
  currencyCode: string;
  rails: string[];
  countryCode: string;
}

const CHAINS = ['POLYGON', 'ETHEREUM', 'BASE', 'SOLANA', 'TRON'];

export const SOURCES: SourceSide[] = [
  { currencyCodes: ['USD'], rails: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE', 'SWIFT'] },
  { currencyCodes: ['EUR'], rails: ['LOCAL', 'SWIFT'] },
  { currencyCodes: ['GBP'], rails: ['LOCAL', 'SWIFT'] },
  { currencyCodes: ['USDC', 'USDT'], rails: CHAINS },
  { currencyCodes: ['EURC'], rails: ['ETHEREUM', 'BASE', 'SOLANA'] },
];

export const DESTINATIONS: DestinationSide[] = [
  { currencyCode: 'USD', rails: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE', 'SWIFT'], countryCode: 'US' },
  ...['DE', 'FR', 'ES', 'NL', 'IT'].map((countryCode) => ({
    currencyCode: 'EUR',
    rails: ['LOCAL', 'SWIFT'],
    countryCode,
  })),
  { currencyCode: 'GBP', rails: ['LOCAL', 'SWIFT'], countryCode: 'GB' },
  { currencyCode: 'BRL', rails: ['TED', 'PIX'], countryCode: 'BR' },
  { currencyCode: 'INR', rails: ['IMPS', 'IMPS_WITH_FIRC'], countryCode: 'IN' },
  { currencyCode: 'MXN', rails: ['LOCAL', 'SWIFT'], countryCode: 'MX' },
  { currencyCode: 'PHP', rails: ['LOCAL', 'SWIFT'], countryCode: 'PH' },
  { currencyCode: 'JPY', rails: ['LOCAL', 'SWIFT'], countryCode: 'JP' },
  { currencyCode: 'CAD', rails: ['LOCAL', 'SWIFT'], countryCode: 'CA' },
  { currencyCode: 'HKD', rails: ['LOCAL', 'SWIFT'], countryCode: 'HK' },
  { currencyCode: 'AUD', rails: ['LOCAL', 'SWIFT'], countryCode: 'AU' },
  // On-chain destinations have no country; 'US' marks them (gap, docs/spec-gaps.md ## Sandbox).
  { currencyCode: 'USDC', rails: CHAINS, countryCode: 'US' },
  { currencyCode: 'USDT', rails: CHAINS, countryCode: 'US' },
  { currencyCode: 'EURC', rails: ['ETHEREUM', 'BASE', 'SOLANA'], countryCode: 'US' },
];

const DESTINATION_RAIL_FIXED: Record<string, number> = {
  ACH: 0.5,
  ACH_SAME_DAY: 1.5,
  DOMESTIC_WIRE: 15,
  SWIFT: 25,
  LOCAL: 1,
  TED: 1,
  PIX: 0.5,
  IMPS: 1,
  IMPS_WITH_FIRC: 3,
};
const SOURCE_RAIL_FIXED: Record<string, number> = { SWIFT: 10, DOMESTIC_WIRE: 5 };

function isChain(rail: string): boolean {
  return CHAINS.includes(rail);
}

export function corridorFees(
  sourceRail: string,
  destinationRail: string,
): { fixed: number; variable: number } {
  const fixed =
    (isChain(destinationRail) ? 0 : (DESTINATION_RAIL_FIXED[destinationRail] ?? 1)) +
    (SOURCE_RAIL_FIXED[sourceRail] ?? 0);
  const variable =
    isChain(sourceRail) && isChain(destinationRail)
      ? 0.001
      : isChain(sourceRail) || isChain(destinationRail)
        ? 0.005
        : 0.01;
  return { fixed, variable };
}

let cache: Corridor[] | null = null;

export function allCorridors(): Corridor[] {
  if (cache) return cache;
  const out: Corridor[] = [];
  for (const s of SOURCES) {
    for (const sourceRail of s.rails) {
      for (const d of DESTINATIONS) {
        for (const destinationRail of d.rails) {
          out.push({
            source: { currencyCodes: s.currencyCodes, rails: [sourceRail] },
            destination: {
              currencyCodes: [d.currencyCode],
              rails: [destinationRail],
              countryCode: d.countryCode,
            },
            fees: corridorFees(sourceRail, destinationRail),
          });
        }
      }
    }
  }
  cache = out;
  return out;
}

export interface CorridorQuery {
  sourceCurrencyCode?: string;
  sourceRail?: string;
  destinationCurrencyCode?: string;
  destinationRail?: string;
  destinationCountryCode?: string;
}

export function findCorridors(q: CorridorQuery): Corridor[] {
  return allCorridors().filter(
    (c) =>
      (q.sourceCurrencyCode === undefined || c.source.currencyCodes.includes(q.sourceCurrencyCode)) &&
      (q.sourceRail === undefined || c.source.rails.includes(q.sourceRail)) &&
      (q.destinationCurrencyCode === undefined ||
        c.destination.currencyCodes.includes(q.destinationCurrencyCode)) &&
      (q.destinationRail === undefined || c.destination.rails.includes(q.destinationRail)) &&
      (q.destinationCountryCode === undefined || c.destination.countryCode === q.destinationCountryCode),
  );
}

/**
 * Legacy corridor list (spec: Corridor, legacy; GET /configurations/corridors before 2025-09-30). The legacy
 * fee is `fixedFeeInUSD`: our fixed fees are in source-currency units, so each is converted to USD with
 * `toUsd` (the sandbox's own mid-market rate at the instant of the call).
 */
export function legacyCorridors(
  toUsd: (amount: number, currency: string) => number,
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const s of SOURCES) {
    for (const currencyCode of s.currencyCodes) {
      const chain = s.rails.find(isChain) ?? null;
      for (const d of DESTINATIONS) {
        const fee = (rail: string) => {
          const f = corridorFees(chain ?? s.rails[0]!, rail);
          return { fixedFeeInUSD: toUsd(f.fixed, currencyCode), variableFeeInSourceCurrency: f.variable };
        };
        const destChain = d.rails.find(isChain) ?? null;
        const fees: Record<string, unknown> = {};
        if (destChain) fees.CRYPTO = fee(destChain);
        else {
          fees.LOCAL = fee(d.rails[0]!);
          if (d.rails.includes('SWIFT')) fees.WIRE = fee('SWIFT');
        }
        out.push({
          source: { currencyCode, chain },
          destination: { currencyCode: d.currencyCode, chain: destChain, countryCode: d.countryCode },
          fees,
        });
      }
    }
  }
  return out;
}
