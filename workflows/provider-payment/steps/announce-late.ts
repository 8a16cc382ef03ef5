// A payment's outcome is not the end of its money: a COMPLETED payout can still be RETURNED or REFUNDED (spec:
// "States and transitions"). The payment workflow has closed by then, so the entity that hears the move sends it
// to the payment's delivery workflow as payment.moved_after_outcome (docs/outbound-events.md), numbered there
// after the payment's last event. Only ids, amounts, currencies, statuses and codes leave (no personal data).
import { log, patched } from '@temporalio/workflow';
import type { LateEventsLookup, LateEventsNotYet } from '../../../activities/late-events-activities';
import { lateEventHandOverActivities, lateEventsActivities } from '../../activity-options';
import type { Payment, XborderEvent } from '../../../src/contract';
import {
  isRefundKeepingStatus,
  isUntoldMove,
  lookupStands,
  mayBeOlderTold,
  moveKey,
  sentBeforeUpgrade,
} from '../knowledge';
import { failureCodeOf } from '../../payment-rules';
import { ENTITY_PATCHES } from '../patches';
import type { ProviderPaymentState } from '../state';

/** The event of one move; its id is stable per payment, provider payment and status (a move heard twice is one event). */
export function movedAfterOutcomeEvent(
  paymentKey: string,
  p: Payment,
  occurredAt: string,
): Omit<XborderEvent, 'sequence'> {
  return {
    id: `${paymentKey}:moved:${p.id}:${moveKey(p)}`,
    type: 'payment.moved_after_outcome',
    version: 1,
    occurredAt,
    paymentKey,
    data: {
      // the payment's own phase stays its outcome; this names what happened after it
      phase: 'MOVED_AFTER_OUTCOME',
      providerPaymentId: p.id,
      providerStatus: p.status,
      source: p.source ? { amount: p.source.amount, currencyCode: p.source.currencyCode } : null,
      destination: p.destination
        ? { amount: p.destination.amount, currencyCode: p.destination.currencyCode }
        : null,
      fee: p.fee ?? null,
      quote: null,
      fundingInstructions: null,
      fundingDeadline: null,
      code: failureCodeOf(p),
      requotes: 0,
    },
  };
}

/**
 * After changes were forwarded: each subscriber that asked for events and is gone (forwardChanges dropped it: its
 * outcome was returned) is sent the move it was not told (knowledge.ts, moveKey: the status, and a refund that kept
 * it). One hand-over per move: `told` moves on. What the subscriber read itself and told its backend is no move.
 */
export async function announceMovesAfterOutcome(state: ProviderPaymentState): Promise<void> {
  const p = state.payment;
  if (!p) return;
  // a fresh run that began before the record moved (a late or forged push after the linger) looks now, once it has
  await recoverRegistrationAfterLinger(state);
  const key = moveKey(p);
  for (const [subscriber, events] of state.eventsFor) {
    if (state.subscribers.has(subscriber) || !isUntoldMove(events.told, p)) continue;
    if (events.readByIt === key && patched(ENTITY_PATCHES.subscriberReadIsTold)) {
      state.toldMove(subscriber, key);
      continue;
    }
    // an older build's "EXPIRED" may stand for the EXPIRED+refunded snapshot it sent (knowledge.ts, mayBeOlderTold)
    if (mayBeOlderTold(events, p) && patched(ENTITY_PATCHES.oldToldKeepsRefund)) {
      const told = sentBeforeUpgrade(events, p) ? key : await toldByClosedPayment(state.id, subscriber);
      if (told !== null) {
        state.toldMove(subscriber, told); // in place: events.told below reads it
        if (!isUntoldMove(told, p)) continue;
      }
    }
    if (isRefundKeepingStatus(events.told, p) && !patched(ENTITY_PATCHES.announcesRefundKeepingStatus))
      continue;
    if (!patched(ENTITY_PATCHES.sendsMovedAfterOutcome)) return;
    state.toldMove(subscriber, key);
    await lateEventHandOverActivities.handOverLatePaymentEvent(
      events.paymentKey,
      events.endpointUrl,
      movedAfterOutcomeEvent(events.paymentKey, p, new Date().toISOString()),
    );
  }
}

/** An unanswered lookup is asked again after this, on the run's own timer (workflow.ts, state.ts lookupPending). */
export const REGISTRATION_RETRY_MS = 10 * 60 * 1000;
/**
 * A lookup answered "not yet" (the payment still runs: stuck, since its entity ended 7 days after a final status) is
 * asked again after this, for as long as the payment runs: the payment's own reading pace (every 6 h), so a stuck
 * payment costs its entity 4 timers a day, and its move is announced within 6 hours of its closing.
 */
export const RUNNING_PAYMENT_RETRY_MS = 6 * 60 * 60 * 1000;

function isNotYet(found: LateEventsLookup): found is LateEventsNotYet {
  return found !== null && 'notYet' in found;
}

/**
 * What a closed subscriber told its backend, from its registration (its outcome, or the last move handed over), for
 * an older build's ambiguous `told` (knowledge.ts, mayBeOlderTold). null when it cannot be said: not found, another
 * payment, no answer — the caller then announces (a refund the backend never hears loses money).
 */
async function toldByClosedPayment(providerPaymentId: string, subscriber: string): Promise<string | null> {
  try {
    const found = await lateEventsActivities.findLateEventsRegistration(providerPaymentId);
    if (found && !isNotYet(found) && found.subscriber === subscriber) return found.told;
  } catch (err) {
    log.warn('what a closed payment told could not be read; a refund that kept its status is announced', {
      providerPaymentId,
      error: String(err),
    });
  }
  return null;
}

/**
 * A fresh run (no snapshot, not continued: its predecessor ended after its linger) that holds a payment which may have
 * moved after its outcome — read at its start, or heard later in the run — finds the closed payment's events
 * registration, so the move still reaches its backend (following outlives a run). A definitive answer (found, or none:
 * no payment of ours, no events asked) stands for the run. No answer — Temporal not answering for the lookup's
 * 10 minutes — is asked again REGISTRATION_RETRY_MS later, on the run's timer (it does not end before), at most
 * MAX_REGISTRATION_LOOKUPS times (carried over continue-as-new). The payment still running (one stuck for an operator:
 * 7 days after its provider payment's final status) is waited for (waitsForRunningPayment).
 * The rule: knowledge.ts, lookupStands; before ENTITY_PATCHES.retriesRegistrationLookup one try stood.
 */
/**
 * "Not yet" is an answer, not a failure: the payment still runs and speaks for itself (its outcome tells its
 * backend what it read), but once it closes only this entity can announce a move it did not see. Counting it as a
 * failed try gave up after 4 tries (40 minutes) and lost a move heard after the payment's closing, or one it closed
 * without reading. So it takes no try (MAX_REGISTRATION_LOOKUPS counts failures), and the lookup stays pending, asked
 * again every RUNNING_PAYMENT_RETRY_MS: the run does not end before it stands (workflow.ts, lookupPending). Asked only
 * at a "not yet" answer (ENTITY_PATCHES.waitsForRunningPayment): before it, the answer counted as a failed try.
 */
function waitsForRunningPayment(state: ProviderPaymentState): boolean {
  if (!patched(ENTITY_PATCHES.waitsForRunningPayment)) return false;
  state.lookupWaitsForRunningPayment(RUNNING_PAYMENT_RETRY_MS); // still pending, no try taken
  return true;
}

export async function recoverRegistrationAfterLinger(state: ProviderPaymentState): Promise<void> {
  if (!state.needsRegistration() || Date.now() < state.registrationNotBefore) return;
  if (!patched(ENTITY_PATCHES.findsRegistrationAfterLinger)) return;
  state.lookupTried();
  let answered = true;
  try {
    const found = await lateEventsActivities.findLateEventsRegistration(state.id);
    if (isNotYet(found)) {
      answered = false;
      if (waitsForRunningPayment(state)) return;
    } else if (found) {
      const { subscriber, ...events } = found;
      state.registered(subscriber, events);
    }
  } catch (err) {
    answered = false;
    log.warn('events registration of a closed payment not found; looked up again later', {
      providerPaymentId: state.id,
      lookups: state.registrationLookups,
      error: String(err),
    });
  }
  // Asked only where the older code gave up (one try per run), so a run whose lookup answered has no marker.
  if (
    !lookupStands(answered, state.registrationLookups) &&
    patched(ENTITY_PATCHES.retriesRegistrationLookup)
  ) {
    state.lookupRetryAfter(REGISTRATION_RETRY_MS);
    return;
  }
  state.lookupSettled(); // what was found (or not) stands for the run
}
