import { STABLECOINS } from './enums';

// Minor units per currency (ISO 4217 exponents; stablecoins: our choice of 6, docs/spec-gaps.md).
// The spec does not state rounding; amounts are JSON numbers (spec: Resources and their fields).
const ZERO_DECIMALS = [
  'JPY',
  'KRW',
  'VND',
  'CLP',
  'ISK',
  'PYG',
  'UGX',
  'XAF',
  'XOF',
  'XPF',
  'KMF',
  'DJF',
  'GNF',
  'RWF',
  'VUV',
];
const THREE_DECIMALS = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
export const STABLECOIN_DECIMALS = 6;
export const DEFAULT_DECIMALS = 2;

/** Number of decimals of a currency: JPY 0, USD 2, KWD 3, USDC/USDT/EURC 6; unknown codes 2. */
export function minorUnits(currency: string): number {
  const code = currency.toUpperCase();
  if ((STABLECOINS as readonly string[]).includes(code)) return STABLECOIN_DECIMALS;
  if (ZERO_DECIMALS.includes(code)) return 0;
  if (THREE_DECIMALS.includes(code)) return 3;
  return DEFAULT_DECIMALS;
}

/** Size of one minor unit: 0.01 for USD, 1 for JPY. */
export function minorUnit(currency: string): number {
  return 10 ** -minorUnits(currency);
}

export type RoundingMode = 'half-up' | 'up' | 'down';

/**
 * Round to the currency's minor units. 'half-up' rounds halves away from zero; 'up'/'down' round the
 * magnitude up/down. Binary noise (1.005 * 100 = 100.49999…) is removed first by going through 15 significant digits
 * (exact for amounts up to 10^15 minor units, e.g. 10^9 USDC).
 */
export function roundMinor(amount: number, currency: string, mode: RoundingMode = 'half-up'): number {
  if (!Number.isFinite(amount)) throw new RangeError(`amount must be finite, got ${amount}`);
  const factor = 10 ** minorUnits(currency);
  const scaled = Number((Math.abs(amount) * factor).toPrecision(15));
  const rounded =
    mode === 'up' ? Math.ceil(scaled) : mode === 'down' ? Math.floor(scaled) : Math.round(scaled);
  const result = (Math.sign(amount) * rounded) / factor;
  return result === 0 ? 0 : result; // no -0
}
