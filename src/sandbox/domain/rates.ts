/**
 * Deterministic mid-market rates (gap: the service's rates are not shown). `usdRates` gives units of each
 * currency per 1 USD; a drift of `driftBps` basis points follows a sine over one hour of sandbox time.
 */
export class RateBook {
  constructor(
    private readonly usdRates: Record<string, number>,
    private readonly driftBps: number,
  ) {}

  has(currency: string): boolean {
    return this.usdRates[currency] !== undefined;
  }

  /** Units of `destination` per unit of `source` at clock instant `atMs`. */
  midMarketRate(source: string, destination: string, atMs: number): number {
    const s = this.usdRates[source];
    const d = this.usdRates[destination];
    if (s === undefined || d === undefined) throw new RangeError(`No rate for ${source}/${destination}`);
    if (source === destination) return 1;
    const drift =
      this.driftBps === 0 ? 1 : 1 + (this.driftBps / 10_000) * Math.sin((2 * Math.PI * atMs) / 3_600_000);
    return roundSignificant((d / s) * drift, 8);
  }
}

export function roundSignificant(value: number, digits: number): number {
  if (value === 0) return 0;
  return Number(value.toPrecision(digits));
}
