// How the providerPayment entity treats a final status that came by push (a webhook, or anything else that
// arrives on the `event` signal) rather than from its own read (ARCHITECTURE: "an outcome is never decided on a
// pushed event alone"). A signed webhook proves only that its sender holds the webhook secret; the spec says
// nothing of what else a signature vouches for (Events 5: "signatures … not shown"). So a pushed final status
// is held until a GET of the payment answers, and the GET's answer is what the entity keeps and forwards.
// A push the GET does not bear out is kept as a mismatch, shown and counted, and never becomes an outcome.
import type { Payment } from '../../src/contract';
import { stampsOf } from '../payment-merge';
import { FINAL_PAYMENT_STATUSES } from '../search-attributes';

/**
 * Statuses after which a payment workflow decides its outcome (spec: States and transitions). CANCELLED is not
 * in the contract's list; it is held too, so a future status of that name is never taken on a push alone.
 */
export const FINAL_PUSH_STATUSES: readonly string[] = FINAL_PAYMENT_STATUSES;

/** Counted on the workflow metric meter (emitted outside replay only), by pushed and read status. */
export const PUSH_MISMATCH_METRIC = 'xborder_provider_push_mismatches_total';

export { PUSH_MISMATCH_PHASE } from '../search-attributes';

/** How many mismatches an entity keeps (the oldest go first; the metric and the log have them all). */
export const MAX_PUSH_MISMATCHES = 20;
/** After a confirming read failed for good (its 10-minute retry budget spent), the next one starts this much later. */
export const CONFIRM_RETRY_MS = 5 * 60 * 1000;

export type { PushMismatch, UnconfirmedPush } from '../types';

export function claimsFinalStatus(p: Payment): boolean {
  return FINAL_PUSH_STATUSES.includes(p.status);
}

/**
 * Does the service's answer bear the push out? Yes when it has the same status, or when it is final too and has
 * moved past the pushed snapshot: every timestamp the push had and a later one (a refund after a pushed
 * COMPLETED: spec, States and transitions, row 4); then the push was only late. Any other answer (the forged
 * COMPLETED of a payment still AWAITING_FUNDS or SENT, a pushed COMPLETED the service says FAILED) is a mismatch.
 */
export function confirms(read: Payment, pushed: Payment): boolean {
  if (read.status === pushed.status) return true;
  if (!claimsFinalStatus(read)) return false;
  const had = stampsOf(pushed);
  const has = stampsOf(read);
  return [...had].every((k) => has.has(k)) && [...has].some((k) => !had.has(k));
}
