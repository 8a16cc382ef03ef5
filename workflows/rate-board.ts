// rateBoard: the entity workflow that keeps the latest indicative quote per currency/rail pair with its fetch
// time (ARCHITECTURE: refreshQuotes). Services query it instead of calling the rate-limited provider
// (spec: Limits, "Rate limit"). It continues-as-new, carrying its entries, before its history grows large.
import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  DEFAULT_MAX_UPDATES_PER_RUN,
  rateBoardQuery,
  rateBoardUpdateSignal,
  ratePairKey,
  type RateBoardEntry,
  type RateBoardInput,
} from './rate-board-messages';

/** Keeps the newer of two quotes of a pair (a late, older refresh never replaces a newer quote). */
export function mergeEntries(board: Map<string, RateBoardEntry>, entries: readonly RateBoardEntry[]): void {
  for (const entry of entries) {
    const key = ratePairKey(entry.pair);
    const current = board.get(key);
    if (!current || Date.parse(entry.fetchedAt) >= Date.parse(current.fetchedAt)) board.set(key, entry);
  }
}

export async function rateBoard(input: RateBoardInput = {}): Promise<void> {
  const maxUpdates = input.maxUpdatesPerRun ?? DEFAULT_MAX_UPDATES_PER_RUN;
  const generation = input.generation ?? 0;
  const board = new Map<string, RateBoardEntry>();
  mergeEntries(board, input.entries ?? []);
  let lastRefreshedBy = input.lastRefreshedBy ?? null;
  let updatesThisRun = 0;

  setHandler(rateBoardUpdateSignal, (update) => {
    mergeEntries(board, update.entries);
    lastRefreshedBy = update.refreshedBy;
    updatesThisRun += 1;
  });
  setHandler(rateBoardQuery, () => ({
    entries: [...board.values()].sort((a, b) => ratePairKey(a.pair).localeCompare(ratePairKey(b.pair))),
    lastRefreshedBy,
    generation,
    updatesThisRun,
  }));

  // Each update is one signal event: 500 of them stay far below the history limits; the server's own
  // suggestion (continueAsNewSuggested) wins if it comes first.
  await condition(() => updatesThisRun >= maxUpdates || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  await continueAsNew<typeof rateBoard>({
    entries: [...board.values()],
    maxUpdatesPerRun: maxUpdates,
    generation: generation + 1,
    lastRefreshedBy,
  });
}
