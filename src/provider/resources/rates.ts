// spec: Endpoints, GET /payments/rate ("query sourceRail, destinationRail, plus amount and currency parameters").
import { type Rate } from '../../contract';
import { rateParser } from '../parsers';
import { type Query } from '../transport';
import { type ClientContext } from './context';

/**
 * sourceRail and destinationRail are named by the spec; the currency and amount parameter names are ours
 * (docs/spec-gaps.md, "Provider client"). Give exactly one of sourceAmount / destinationAmount.
 */
export interface RateQuery {
  sourceCurrency: string;
  destinationCurrency: string;
  sourceRail: string;
  destinationRail: string;
  sourceAmount?: number;
  destinationAmount?: number;
  /** The developer fee the team adds on top (spec: What the service does 6); default none. */
  developerFee?: { fixed: number; variable: number };
}

/**
 * The query string sent (the sandbox's names, docs/spec-gaps.md); the one place to change when the real
 * parameter names are known.
 */
export function rateQueryToWire(q: RateQuery): Query {
  return {
    sourceCurrencyCode: q.sourceCurrency,
    destinationCurrencyCode: q.destinationCurrency,
    sourceRail: q.sourceRail,
    destinationRail: q.destinationRail,
    sourceAmount: q.sourceAmount,
    destinationAmount: q.destinationAmount,
    developerFeeFixed: q.developerFee?.fixed,
    developerFeeVariable: q.developerFee?.variable,
  };
}

export interface RatesApi {
  /** The current rate and quote, legacy shape normalised. */
  get(query: RateQuery): Promise<Rate>;
}

export function createRatesApi(ctx: ClientContext): RatesApi {
  return {
    get: (query) =>
      ctx.transport.request({
        method: 'GET',
        path: '/payments/rate',
        query: rateQueryToWire(query),
        parse: rateParser(query.destinationRail),
      }),
  };
}
