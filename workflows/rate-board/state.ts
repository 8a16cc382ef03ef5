// The board's entries: the newest quote of each pair, and how many updates this run has taken (the run's
// continue-as-new waits on it). AUTO_UPGRADE: the handlers' behaviour changes only behind patched().
import { ratePairKey, type RateBoardEntry, type RateBoardSnapshot, type RateBoardUpdate } from './api';

/** Keeps the newer of two quotes of a pair (a late, older refresh never replaces a newer quote). */
export function mergeEntries(board: Map<string, RateBoardEntry>, entries: readonly RateBoardEntry[]): void {
  for (const entry of entries) {
    const key = ratePairKey(entry.pair);
    const current = board.get(key);
    if (!current || Date.parse(entry.fetchedAt) >= Date.parse(current.fetchedAt)) board.set(key, entry);
  }
}

export class RateBoardState {
  private readonly board = new Map<string, RateBoardEntry>();
  updatesThisRun = 0;

  constructor(
    entries: readonly RateBoardEntry[],
    public lastRefreshedBy: string | null,
    readonly generation: number,
  ) {
    mergeEntries(this.board, entries);
  }

  /** the rateBoardUpdate signal */
  onUpdate(update: RateBoardUpdate): void {
    mergeEntries(this.board, update.entries);
    this.lastRefreshedBy = update.refreshedBy;
    this.updatesThisRun += 1;
  }

  /** the rateBoard query: entries in pair order */
  snapshot(): RateBoardSnapshot {
    return {
      entries: this.entries().sort((a, b) => ratePairKey(a.pair).localeCompare(ratePairKey(b.pair))),
      lastRefreshedBy: this.lastRefreshedBy,
      generation: this.generation,
      updatesThisRun: this.updatesThisRun,
    };
  }

  entries(): RateBoardEntry[] {
    return [...this.board.values()];
  }
}
