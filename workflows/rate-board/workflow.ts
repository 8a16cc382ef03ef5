// rateBoard: the entity workflow that keeps the latest indicative quote per currency/rail pair with its fetch
// time (ARCHITECTURE: refreshQuotes). Services query it instead of calling the rate-limited provider
// (spec: Limits, "Rate limit"). It continues-as-new, carrying its entries, before its history grows large.
// AUTO_UPGRADE (workflows/versioning.ts): its commands change only behind patched().
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  DEFAULT_MAX_UPDATES_PER_RUN,
  rateBoardQuery,
  rateBoardUpdateSignal,
  type RateBoardInput,
} from './api';
import { RateBoardState } from './state';

export async function rateBoard(input: RateBoardInput = {}): Promise<void> {
  const maxUpdates = input.maxUpdatesPerRun ?? DEFAULT_MAX_UPDATES_PER_RUN;
  const board = new RateBoardState(input.entries ?? [], input.lastRefreshedBy ?? null, input.generation ?? 0);
  setHandler(rateBoardUpdateSignal, (update) => board.onUpdate(update));
  setHandler(rateBoardQuery, () => board.snapshot());

  // Each update is one signal event: 500 of them stay far below the history limits; the server's own
  // suggestion (continueAsNewSuggested) wins if it comes first.
  await condition(() => board.updatesThisRun >= maxUpdates || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  await continueAsNew<typeof rateBoard>({
    entries: board.entries(),
    maxUpdatesPerRun: maxUpdates,
    generation: board.generation + 1,
    lastRefreshedBy: board.lastRefreshedBy,
  });
}
