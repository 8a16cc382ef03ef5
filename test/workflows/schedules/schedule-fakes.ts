// Fake quote activities for the schedule tests: corridors and rates in memory, with every call recorded
// with the server's scheduled time of the activity (time-skipping time on the test server).
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Corridor } from '../../../src/contract';
import type { IndicativeRate, QuoteActivities, RatePair } from '../../../activities/quote-activities';

export const CORRIDORS: Corridor[] = [
  {
    source: { currencyCodes: ['USD'], rails: ['ACH', 'SWIFT'] },
    destination: { currencyCodes: ['EUR'], rails: ['LOCAL', 'SWIFT'], countryCode: 'DE' },
    fees: { fixed: 1, variable: 0.005 },
  },
  {
    source: { currencyCodes: ['USD'], rails: ['ACH'] },
    destination: { currencyCodes: ['BRL'], rails: ['PIX'], countryCode: 'BR' },
    fees: { fixed: 0.5, variable: 0.01 },
  },
];

export const USD_EUR: RatePair = {
  sourceCurrency: 'USD',
  sourceRail: 'ACH',
  destinationCurrency: 'EUR',
  destinationRail: 'LOCAL',
};
export const USD_BRL: RatePair = {
  sourceCurrency: 'USD',
  sourceRail: 'ACH',
  destinationCurrency: 'BRL',
  destinationRail: 'PIX',
};
/** no corridor offers it */
export const USD_JPY: RatePair = {
  sourceCurrency: 'USD',
  sourceRail: 'ACH',
  destinationCurrency: 'JPY',
  destinationRail: 'LOCAL',
};

export class FakeQuoteProvider {
  readonly calls: { name: string; pair?: RatePair; scheduledAtMs: number }[] = [];
  /** mid-market rate per destination currency; bumped by `tick()` so each refresh gives a new quote */
  rates: Record<string, number> = { EUR: 0.9, BRL: 5.2 };
  /** pairs whose rate call fails with a non-retryable error */
  failing = new Set<string>();
  private seq = 0;

  tick(): void {
    for (const k of Object.keys(this.rates)) this.rates[k] = Number((this.rates[k]! * 1.01).toFixed(6));
  }

  activities(): QuoteActivities {
    return {
      listCorridors: async () => {
        this.calls.push({
          name: 'listCorridors',
          scheduledAtMs: Context.current().info.currentAttemptScheduledTimestampMs,
        });
        return CORRIDORS;
      },
      getPairRate: async (pair, referenceAmount): Promise<IndicativeRate> => {
        this.calls.push({
          name: 'getPairRate',
          pair,
          scheduledAtMs: Context.current().info.currentAttemptScheduledTimestampMs,
        });
        if (this.failing.has(pair.destinationCurrency)) {
          throw ApplicationFailure.create({
            type: 'RATE_LIMITED',
            message: 'rate limited (fake)',
            nonRetryable: true,
          });
        }
        const m = this.rates[pair.destinationCurrency] ?? 1;
        return {
          midMarketRate: m,
          invertedMidMarketRate: 1 / m,
          serviceFee: { fixed: 1, variable: 0.005 },
          developerFee: { fixed: 0, variable: 0 },
          quoteId: `q_${++this.seq}`,
          referenceAmount,
        };
      },
    };
  }

  rateCalls() {
    return this.calls.filter((c) => c.name === 'getPairRate');
  }
}
