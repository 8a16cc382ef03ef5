// The rateBoard API (ARCHITECTURE: refreshQuotes, rateBoard): the board's type name, ID, signal, query, input and
// the pairs and quotes it keeps. Pure: imported by workflow code and by src/client alike.
import { defineQuery, defineSignal } from '@temporalio/workflow';

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

/** The one board of a namespace (each namespace has its own workflow IDs). */
export const RATE_BOARD_WORKFLOW_ID = 'rate-board';
export const RATE_BOARD_WORKFLOW_TYPE = 'rateBoard';

/** Stable key of a pair on the board, e.g. `USD:ACH->EUR:SWIFT`. */
export function ratePairKey(pair: RatePair): string {
  return `${pair.sourceCurrency}:${pair.sourceRail}->${pair.destinationCurrency}:${pair.destinationRail}`;
}

/** The latest quote of one pair with its fetch time (workflow time of the refresh, ISO 8601). */
export interface RateBoardEntry {
  pair: RatePair;
  rate: IndicativeRate;
  fetchedAt: string;
}

export interface RateBoardUpdate {
  entries: RateBoardEntry[];
  /** the refreshQuotes run that fetched them (for the UI and the query) */
  refreshedBy: string;
}

export interface RateBoardInput {
  /** entries carried over by continue-as-new (or the first refresh's, when the refresh starts the board) */
  entries?: RateBoardEntry[];
  /** continue-as-new after this many updates in one run (history stays small); default 500 */
  maxUpdatesPerRun?: number;
  /** how many runs came before this one (0 for the first) */
  generation?: number;
  lastRefreshedBy?: string | null;
}

export interface RateBoardSnapshot {
  entries: RateBoardEntry[];
  lastRefreshedBy: string | null;
  generation: number;
  updatesThisRun: number;
}

export const rateBoardUpdateSignal = defineSignal<[RateBoardUpdate]>('rateBoardUpdate');
export const rateBoardQuery = defineQuery<RateBoardSnapshot>('rateBoard');

export const DEFAULT_MAX_UPDATES_PER_RUN = 500;
