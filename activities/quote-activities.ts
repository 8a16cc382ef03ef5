// Activities of the quote refresh (ARCHITECTURE: refreshQuotes): read the corridors and fetch one indicative
// rate per configured currency/rail pair. Thin: one provider call each; errors become ApplicationFailures
// (a 429 retries after its Retry-After, activities/errors.ts).
import type { Corridor } from '../src/contract';
import type { ProviderPort } from './provider-port';
import { callProvider } from './errors';

/** One currency/rail pair of the rate board (spec: Corridor, Rate (quote)). */
export interface RatePair {
  sourceCurrency: string;
  sourceRail: string;
  destinationCurrency: string;
  destinationRail: string;
}

/** What the board keeps of a rate: enough for the contract's fee math (spec: Rate (quote), Calculation). */
export interface IndicativeRate {
  midMarketRate: number;
  invertedMidMarketRate: number;
  serviceFee: { fixed: number; variable: number };
  developerFee: { fixed: number; variable: number };
  quoteId: string;
  /** the source amount the rate was asked for (GET /payments/rate needs an amount) */
  referenceAmount: number;
}

export interface QuoteActivities {
  /** GET /payments/corridors (legacy corridors normalised by the client). */
  listCorridors(): Promise<Corridor[]>;
  /** GET /payments/rate for one pair and a reference source amount. Named apart from the payment's getRate. */
  getPairRate(pair: RatePair, referenceAmount: number): Promise<IndicativeRate>;
}

export function createQuoteActivities(deps: { provider: Pick<ProviderPort, 'rates' | 'corridors'> }): QuoteActivities {
  const { provider } = deps;
  return {
    listCorridors: () => callProvider(() => provider.corridors.list()),
    async getPairRate(pair, referenceAmount) {
      const rate = await callProvider(() =>
        provider.rates.get({
          sourceCurrency: pair.sourceCurrency,
          destinationCurrency: pair.destinationCurrency,
          sourceRail: pair.sourceRail,
          destinationRail: pair.destinationRail,
          sourceAmount: referenceAmount,
        }),
      );
      return {
        midMarketRate: rate.midMarketRate,
        invertedMidMarketRate: rate.invertedMidMarketRate,
        serviceFee: { fixed: rate.serviceFee.fixed, variable: rate.serviceFee.variable },
        developerFee: { fixed: rate.developerFee.fixed, variable: rate.developerFee.variable },
        quoteId: rate.quoteId,
        referenceAmount,
      };
    },
  };
}
