// Expected amounts of a quote, from a rate with the contract's fee math (spec: Rate (quote), "Calculation"),
// so a caller can compare them with what the service's calculatedAmount or a created payment carries.
import { type CalculatedAmounts, destinationFromSource, type Rate, sourceFromDestination } from '../contract';

export type QuoteAmountInput = { sourceAmount: number } | { destinationAmount: number };

export interface QuoteCurrencies {
  /** Rounds sourceAmount and totalFeeInSourceCurrency to its minor units. */
  sourceCurrency?: string;
  /** Rounds destinationAmount to its minor units. */
  destinationCurrency?: string;
}

/**
 * From a source amount: D = (((S - sF) * (1 - sV)) - dF) * m * (1 - dV); from a destination amount the inverse.
 * Throws the contract's FeeCalculationError (not retryable) when the fees take the whole amount.
 */
export function expectedQuoteAmounts(
  rate: Pick<Rate, 'midMarketRate' | 'serviceFee' | 'developerFee'>,
  amount: QuoteAmountInput,
  currencies: QuoteCurrencies = {},
): CalculatedAmounts {
  const common = {
    midMarketRate: rate.midMarketRate,
    serviceFee: { fixed: rate.serviceFee.fixed, variable: rate.serviceFee.variable },
    developerFee: { fixed: rate.developerFee.fixed, variable: rate.developerFee.variable },
    ...currencies,
  };
  return 'sourceAmount' in amount
    ? destinationFromSource({ ...common, sourceAmount: amount.sourceAmount })
    : sourceFromDestination({ ...common, destinationAmount: amount.destinationAmount });
}

export interface QuoteDifference {
  field: keyof CalculatedAmounts;
  expected: number;
  actual: number;
}

/**
 * Fields of `actual` (e.g. rate.calculatedAmount, or { sourceAmount: payment.source.amount, ... }) that differ
 * from `expected` by more than `tolerance` (absolute, default 0.01 — one cent). Fields absent from actual are skipped.
 */
export function compareQuoteAmounts(
  expected: CalculatedAmounts,
  actual: Partial<CalculatedAmounts>,
  tolerance = 0.01,
): QuoteDifference[] {
  const out: QuoteDifference[] = [];
  for (const field of ['sourceAmount', 'destinationAmount', 'totalFeeInSourceCurrency'] as const) {
    const value = actual[field];
    if (value === undefined) continue;
    if (Math.abs(value - expected[field]) > tolerance + 1e-9)
      out.push({ field, expected: expected[field], actual: value });
  }
  return out;
}
