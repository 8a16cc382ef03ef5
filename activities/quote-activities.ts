// Activities of the quote refresh (ARCHITECTURE: refreshQuotes): read the corridors and fetch one indicative
// rate per configured currency/rail pair. Thin: one provider call each; errors become ApplicationFailures
// (a 429 retries after its Retry-After, activities/errors.ts).
import type { Corridor } from '../src/contract';
import type { ProviderPort } from './provider-port';
import { callProvider } from './errors';
import type { IndicativeRate, RatePair } from '../workflows/rate-board/api';

export type { IndicativeRate, RatePair };

export interface QuoteActivities {
  /** GET /payments/corridors (legacy corridors normalised by the client). */
  listCorridors(): Promise<Corridor[]>;
  /** GET /payments/rate for one pair and a reference source amount. Named apart from the payment's getRate. */
  getPairRate(pair: RatePair, referenceAmount: number): Promise<IndicativeRate>;
}

export function createQuoteActivities(deps: {
  provider: Pick<ProviderPort, 'rates' | 'corridors'>;
}): QuoteActivities {
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
