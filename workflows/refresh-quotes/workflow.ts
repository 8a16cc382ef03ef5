// refreshQuotes: run by the Schedule `quote-refresh` (ARCHITECTURE: Workflows). Reads the corridors, fetches an
// indicative rate for each configured pair that a corridor offers, one call at a time with a pause between
// calls (spec: Limits, "Rate limit" — the numbers are not shown, so the pause is configurable), and hands the
// quotes to the rateBoard entity in one signal.
//
// Delivery: deliver.ts. AUTO_UPGRADE (workflows/versioning.ts): its commands change only behind patched().
import { ApplicationFailure, sleep, workflowInfo } from '@temporalio/workflow';
import type { Corridor } from '../../src/contract';
import { RATE_BOARD_WORKFLOW_ID, ratePairKey, type RateBoardEntry, type RatePair } from '../rate-board/api';
import {
  DEFAULT_PAUSE_BETWEEN_CALLS_MS,
  DEFAULT_REFERENCE_AMOUNT,
  type RefreshQuotesInput,
  type RefreshQuotesResult,
} from './api';
import { deliverToBoard, errorMessage } from './deliver';
import { quoteActivities } from '../activity-options';

/** spec: Corridor — a pair is offered when one corridor lists both currencies and both rails. */
export function corridorOffers(corridors: readonly Corridor[], pair: RatePair): boolean {
  return corridors.some(
    (c) =>
      c.source.currencyCodes.includes(pair.sourceCurrency) &&
      c.source.rails.includes(pair.sourceRail) &&
      c.destination.currencyCodes.includes(pair.destinationCurrency) &&
      c.destination.rails.includes(pair.destinationRail),
  );
}

export async function refreshQuotes(input: RefreshQuotesInput): Promise<RefreshQuotesResult> {
  const referenceAmount = input.referenceAmount ?? DEFAULT_REFERENCE_AMOUNT;
  const pauseMs = input.pauseBetweenCallsMs ?? DEFAULT_PAUSE_BETWEEN_CALLS_MS;
  const boardId = input.boardWorkflowId ?? RATE_BOARD_WORKFLOW_ID;
  if (!(referenceAmount > 0))
    throw ApplicationFailure.nonRetryable('referenceAmount must be positive', 'INVALID_INPUT');

  const corridors = await quoteActivities.listCorridors();
  const unique = new Map(input.pairs.map((p) => [ratePairKey(p), p]));
  const result: RefreshQuotesResult = { fetched: [], skipped: [], failed: [], delivery: 'signal' };
  const entries: RateBoardEntry[] = [];
  let calls = 0;
  for (const [key, pair] of unique) {
    if (!corridorOffers(corridors, pair)) {
      result.skipped.push(key);
      continue;
    }
    if (calls > 0 && pauseMs > 0) await sleep(pauseMs);
    calls += 1;
    try {
      const rate = await quoteActivities.getPairRate(pair, referenceAmount);
      entries.push({ pair, rate, fetchedAt: new Date(Date.now()).toISOString() });
      result.fetched.push(key);
    } catch (err) {
      result.failed.push({ pair: key, error: errorMessage(err) });
    }
  }
  if (entries.length === 0) return result;

  const update = { entries, refreshedBy: `${workflowInfo().workflowId}/${workflowInfo().runId}` };
  result.delivery = await deliverToBoard(boardId, update);
  return result;
}
