// Messages of the quote refresh (ARCHITECTURE: refreshQuotes, rateBoard): the board's ID, signal and query,
// and the inputs of both workflows. Pure: imported by workflow code and by src/client alike.
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
export const REFRESH_QUOTES_WORKFLOW_TYPE = 'refreshQuotes';

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

export interface RefreshQuotesInput {
  /** the configured pairs; pairs no corridor offers are skipped (reported in the result) */
  pairs: RatePair[];
  /** source amount the rates are asked for; default 1000 */
  referenceAmount?: number;
  /** pause between two rate calls, to stay inside the provider's rate limit (spec: Limits); default 1000 ms */
  pauseBetweenCallsMs?: number;
  /** default RATE_BOARD_WORKFLOW_ID */
  boardWorkflowId?: string;
}

export interface RefreshQuotesResult {
  fetched: string[];
  /** pairs that no corridor offers */
  skipped: string[];
  failed: { pair: string; error: string }[];
  /** how the board got the quotes */
  delivery: 'signal' | 'started';
}

export const DEFAULT_REFERENCE_AMOUNT = 1000;
export const DEFAULT_PAUSE_BETWEEN_CALLS_MS = 1000;
export const DEFAULT_MAX_UPDATES_PER_RUN = 500;
