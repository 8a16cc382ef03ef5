// spec: Endpoints, GET /payments/rate ("query sourceRail, destinationRail, plus amount and currency parameters").
import { type Rate } from '../../contract';
import { rateParser } from '../parsers';
import { type QueryValue } from '../transport';
import { type ClientContext } from './context';

/**
 * sourceRail and destinationRail are named by the spec; the amount and currency parameter names are ours
 * (docs/spec-gaps.md). Give either sourceAmount or destinationAmount. Extra parameters are passed through.
 */
export interface RateQuery {
  sourceRail: string;
  destinationRail: string;
  sourceCurrencyCode: string;
  destinationCurrencyCode: string;
  sourceAmount?: number;
  destinationAmount?: number;
  [param: string]: QueryValue;
}

export interface RatesApi {
  /** The current rate and quote, legacy shape normalised. */
  get(query: RateQuery): Promise<Rate>;
}

export function createRatesApi(ctx: ClientContext): RatesApi {
  return {
    get: (query) => ctx.transport.request({ method: 'GET', path: '/payments/rate', query, parse: rateParser(query.destinationRail) }),
  };
}
