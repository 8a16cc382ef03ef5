// What the reconcile sweep (activities/reconcile-activities.ts) tells the entity of a payment it lists, as pure
// decisions: the activity calls these, and the simulation (test/unit/simulation/world.ts) composes them.
//
// The money rule: every move of the money after the outcome reaches the backend exactly once, however late. Webhook
// delivery and retries are not shown (spec: Events 5), so a move whose webhook is lost must be found by a read; a
// terminal entity no longer reads (workflow.ts: it lingers on pushes) and an ended one not at all. The sweep already
// lists every payment as a read, so it hands a listed record that moved after its outcome, recently, to its entity;
// the entity knows what its backend was told (its registration: state.ts eventsFor, or, in a fresh run,
// activities/late-events-activities.ts) and announces an untold move once (knowledge.ts, isUntoldMove). The sweep
// asks nothing per payment: "recently" is by the record's own timestamps against the run's window.
//
// Zod-free and free of workflow APIs.
import type { Payment } from '../../src/contract';
import { reconcileEventId } from '../internal-event-ids';
import { FINAL_PAYMENT_STATUSES } from '../search-attributes';
import { mayHaveMovedAfterOutcome } from './knowledge';

/**
 * What the sweep tells a listed payment's entity:
 * - `final`: a running entity not final (by its indexed PaymentStatus) is told the final status the listing shows
 *   (a burst the ingress shed and the sender gave up on);
 * - `funded`: the entity of a payment whose workflow still awaits funds (visibility: its phase is one of
 *   AWAITING_FUNDS_PHASES) is told a status past AWAITING_FUNDS the listing shows (its funding webhook lost): the
 *   periodic read the payment and its entity no longer take (quiet-reads.ts), one signal only when they differ;
 * - `moved`: an entity that is not running not final (running terminal, or ended after its linger) is told a record
 *   that moved after its outcome within the window.
 */
export type SweepTell = 'final' | 'moved' | 'funded';

/**
 * The phases in which a payment workflow still waits for funds (payment-rules.ts, phaseOf; an accepted cancel listens
 * for late funds too): a listed status other than AWAITING_FUNDS for its provider payment is a funding it has not
 * heard (its webhook lost: spec, Events 5). The payment upserts its phase on every change (workflows/indexing.ts), so
 * the sweep finds these in visibility without asking any workflow.
 */
export const AWAITING_FUNDS_PHASES: readonly string[] = ['AWAITING_FUNDS', 'QUOTE_EXPIRED', 'CANCELLING'];

/**
 * When the record last moved, if it shows a move after an outcome (knowledge.ts, mayHaveMovedAfterOutcome: a refund
 * — a return, late funds refunded: States and transitions, row 4 — or a legacy late funding, row 5): its newest
 * lifecycle timestamp (the spec's Payment has no updatedAt since March 30, 2026; the lifecycle is what shows a move).
 * Null for a record that shows none, or whose timestamps do not parse (it cannot be placed in a window).
 */
export function movedAfterOutcomeAt(p: Payment): number | null {
  if (!mayHaveMovedAfterOutcome(p)) return null;
  const times = Object.values(p.lifecycle ?? {})
    .map((v) => (typeof v === 'string' ? Date.parse(v) : Number.NaN))
    .filter((t) => Number.isFinite(t));
  return times.length > 0 ? Math.max(...times) : null;
}

/**
 * The sweep's decision for a listed payment that is not a recent PAYIN or conversion (those are handed over whatever
 * their status). `entityNotFinal`: visibility lists its entity running without a final PaymentStatus; such an entity
 * reads by itself and is told only a final status. Any other (running terminal, ended, never started) is told a move
 * after the outcome whose newest timestamp is at or after `sinceMs`. The activity passes, for the move, its window
 * narrowed to 15 minutes before the start of the last completed sweep (reconcile-activities.ts, movedSinceMs): a move is
 * told by the first completed run that lists it and at most one more while runs complete every 15 minutes, and one
 * lost run (a failed attempt, a skipped Schedule action) narrows nothing, so the next completed run covers it.
 */
export function sweepTellOf(
  p: Payment,
  entityNotFinal: boolean,
  sinceMs: number,
  paymentAwaitsFunds = false,
): SweepTell | null {
  if (entityNotFinal && FINAL_PAYMENT_STATUSES.includes(p.status)) return 'final';
  if (paymentAwaitsFunds && p.status !== 'AWAITING_FUNDS') return 'funded';
  if (entityNotFinal) return null;
  const at = movedAfterOutcomeAt(p);
  return at !== null && at >= sinceMs ? 'moved' : null;
}

/**
 * The event id of a sweep's tell: one per status, as before, for a record that shows no move after its outcome (a
 * second run's tell of an unchanged payment is a duplicate the entity drops); with every lifecycle timestamp for one
 * that does, so a move that keeps the status (late funds refunded on EXPIRED) is never deduplicated away by an
 * earlier tell of that status.
 */
export function sweepEventId(p: Payment): string {
  const base = reconcileEventId(p.id, p.status);
  if (!mayHaveMovedAfterOutcome(p)) return base;
  const stamps = Object.entries(p.lifecycle ?? {})
    .filter(([, v]) => typeof v === 'string' && v.length > 0)
    .map(([k, v]) => `${k}=${String(v)}`)
    .sort()
    .join(',');
  return `${base}:${stamps}`;
}
