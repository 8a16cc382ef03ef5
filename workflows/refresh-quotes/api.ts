// The refreshQuotes API (ARCHITECTURE: refreshQuotes): its type name, input and result. Run by the Schedule
// `quote-refresh` (src/client/schedules.ts). Pure: imported by workflow code and by src/client alike.
import type { RatePair } from '../rate-board/api';

/** The workflow type (the function's name in workflows/index.ts). */
export const REFRESH_QUOTES_WORKFLOW_TYPE = 'refreshQuotes';

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

/** source amount the rates are asked for when the input names none */
export const DEFAULT_REFERENCE_AMOUNT = 1000;
export const DEFAULT_PAUSE_BETWEEN_CALLS_MS = 1000;
