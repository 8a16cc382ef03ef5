// When the entity reads by itself while its payment is not final and nothing is heard: the quiet ladder after the
// last news, then (before ENTITY_PATCHES.leavesPeriodicReadsToSweep) a read every `reconcileEveryMs`. Under that patch
// the periodic "did we miss a webhook" read is the reconcile Schedule's (activities/reconcile-activities.ts, every 15
// minutes: a running entity is told a final status it lacks, and a funding its waiting payment lacks), and the entity
// keeps only the ladder — and, under ENTITY_PATCHES.noLadderWhileSubscribed, not even that while a payment subscribes:
// the payment reads at its deadlines, every push is confirmed by its own GET, and the sweep finds a lost funding or
// final webhook; a lost status on the way is read past at the next push's confirming read (the backend may then not
// see it, as when one read judges a burst). A caller's `reconcileEveryMs` on the entity's input still opts in to the
// periodic read. Webhook delivery and retries are not shown (spec: Events 5),
// so a lost webhook is found by a read; which read is what this file decides. Pushes are confirmed by their own GET
// at once (steps/reconcile.ts, confirmHeldPushes), never by this ladder.
import { patched } from '@temporalio/workflow';
import { ENTITY_PATCHES } from './patches';
import type { ProviderPaymentState } from './state';

const MINUTE = 60 * 1000;
/**
 * The stale-entity gap: while the payment is not final and nothing is heard, the entity re-reads it after 1, 5 and 15
 * quiet minutes: a webhook dropped right after another leaves it behind for minutes. A new event starts it again.
 */
export const QUIET_READS_MS = [MINUTE, 5 * MINUTE, 15 * MINUTE];

/** The patches read once they would change a command, then remembered (patched() is true for the rest of the run). */
export class QuietReadPatches {
  private sweep = false;
  private subscribed = false;

  /** the periodic read is left to the sweep (asked only where the older code would read or wait for it) */
  leavesToSweep(): boolean {
    return (this.sweep ||= patched(ENTITY_PATCHES.leavesPeriodicReadsToSweep));
  }

  /** no ladder while a payment subscribes (asked only where the ladder would run then) */
  noLadderWhileSubscribed(): boolean {
    return (this.subscribed ||= patched(ENTITY_PATCHES.noLadderWhileSubscribed));
  }
}

/**
 * When the entity next reads by itself (Infinity: never; a push, the sweep or a subscriber's read wakes it). `every` is
 * the older code's periodic read (the caller's reconcileEveryMs, or the entity's default); `ladder` whether the
 * quiet ladder is on (ENTITY_PATCHES.readsSoonerWhenQuiet).
 */
export function nextQuietReadAt(
  state: ProviderPaymentState,
  patches: QuietReadPatches,
  opts: { every: number; optedIn: boolean; ladder: boolean },
): number {
  const quietMs = opts.ladder ? QUIET_READS_MS[state.quietReads] : undefined;
  const older = state.lastHeardAt + Math.min(quietMs ?? opts.every, opts.every);
  // runs before entity-fewer-actions, and a caller who opted in, keep the periodic read
  if (!state.fewer || opts.optedIn) return older;
  // while a payment subscribes: no ladder, and no periodic read either (the patch implies leavesPeriodicReadsToSweep,
  // with which it ships: one marker, not two, on every paying path)
  if (quietMs !== undefined && state.subscribers.size > 0 && patches.noLadderWhileSubscribed())
    return Infinity;
  if (quietMs !== undefined) return older;
  return patches.leavesToSweep() ? Infinity : older;
}
