// Step 4: follow the provider payment to an outcome (spec: States and transitions). Each turn decides a pending
// cancel, then ends, waits or reads (GET) the provider payment; a wait is a `condition()` on the state (state.wake)
// that ends when something the turn decides on changes, or at the next time to act.
import type { Payment } from '../../../src/contract';
import {
  hasFundsIn,
  isFunded,
  isUnfundable,
  outcomeOf,
  phaseOf,
  pullsFromAccount,
  quoteExpiresAtMs,
} from '../../payment-rules';
import type { PaymentOutcome } from '../api';
import type { PaymentWorkflowState } from '../state';
import { reconcile } from './reconcile';

const DAY = 24 * 60 * 60 * 1000;
/** how long the end of a payment waits for another funded payment of the request to end (then NEEDS_ATTENTION) */
const STILL_MOVING_LIMIT_MS = 30 * DAY;
/** past that limit (NEEDS_ATTENTION), how often the other payment is still read: the run ends once it has ended */
const STILL_MOVING_RECHECK_MS = DAY;

/**
 * The next safety read (`reconcileEveryMs`, a day by default): the payment reads at its decision points, a webhook
 * lost meanwhile is found sooner by the reconcile Schedule's sweep, which tells the entity, which tells the payment
 * (activities/reconcile-activities.ts; spec: Events 5, delivery not shown); this read bounds the wait without it.
 */
function safetyReadAt(state: PaymentWorkflowState): number {
  return state.lastHeardAt + state.reconcileEveryMs;
}

/**
 * Before an outcome is returned, every other tracked payment not known to have ended is read once: a requote's
 * abandoned payment funded with its webhooks lost (its snapshot still AWAITING_FUNDS) must show as DOUBLE_FUNDED
 * before the caller hears an outcome (spec: States and transitions, row 2: funds sent before the quote expired).
 * True when it read one (the turn starts again on what it read).
 */
async function readOthersBeforeOutcome(state: PaymentWorkflowState, p: Payment): Promise<boolean> {
  const unread = [...state.tracked.values()].find(
    (t) => t.id !== p.id && !outcomeOf(t) && !state.readBeforeOutcome.has(t.id),
  );
  if (!unread) return false;
  state.markReadBeforeOutcome(unread.id);
  await reconcile(state, unread.id, 'before the outcome: has the other payment of the request ended?');
  return true;
}

/** Waits for a change, or until `at` (Infinity: a change only). */
function wakeAt(state: PaymentWorkflowState, at: number, now: number): Promise<void> {
  return at === Infinity ? state.wake() : state.wake(at - now);
}

export async function followToOutcome(state: PaymentWorkflowState): Promise<PaymentOutcome> {
  for (;;) {
    const p = state.active()!;
    decidePendingCancel(state);
    const ended = outcomeOf(p);
    if (ended && ended.outcome !== 'EXPIRED') {
      if (await readOthersBeforeOutcome(state, p)) continue;
      const stillMoving = otherStillMoving(state, p);
      if (!stillMoving) return ended;
      await waitForOtherPayment(state, p, stillMoving);
      continue;
    }
    // after an accepted cancel, with no funds in that can still move
    const listeningAfterCancel =
      state.cancel?.decision === 'ACCEPTED' &&
      ![...state.tracked.values()].some((t) => isFunded(t) && !isUnfundable(t));
    const result = listeningAfterCancel
      ? await listenAfterCancel(state, p)
      : await awaitFundsOrEnd(state, p, ended);
    if (result) return result;
  }
}

/** A pending cancel (update or Temporal cancel request) is decided at the top of every turn. */
function decidePendingCancel(state: PaymentWorkflowState): void {
  const asked = state.cancel;
  if (asked?.decision !== 'PENDING') return;
  // spec: States and transitions, rule 1 — a pull payment moves its funds when it is created
  const blocker = state.fundsIn()
    ? 'funds are in'
    : state.pulls()
      ? 'a payment pulled from an account moves its funds when created'
      : null;
  if (blocker) {
    state.refuseCancel();
    state.note('cancel-refused', blocker);
    return;
  }
  // spec: no cancel endpoint — the provider payment expires on its own (docs/spec-gaps.md). Cancel does not lie:
  // a late notice can still fund it (spec: States and transitions, row 2), so it is followed until the provider
  // says it can no longer be funded; funds after all → the real outcome, FUNDED_AFTER_CANCEL.
  state.acceptCancel();
  state.note('cancelled', `${asked.reason} (via ${asked.via})`);
  state.enterPhase('CANCELLING');
}

/**
 * Two payments of one request carry money (DOUBLE_FUNDED): the end waits until neither still moves. Only funds
 * known to be in count (an unknown status without sentAt never keeps the workflow open).
 */
function otherStillMoving(state: PaymentWorkflowState, p: Payment): Payment | undefined {
  return [...state.tracked.values()].find((t) => t.id !== p.id && hasFundsIn(t) && !outcomeOf(t));
}

async function waitForOtherPayment(
  state: PaymentWorkflowState,
  p: Payment,
  stillMoving: Payment,
): Promise<void> {
  const now = Date.now();
  const since = state.otherStillMoving(now);
  if (now >= since + STILL_MOVING_LIMIT_MS) {
    // Bounded: past the limit an operator looks; the workflow reads the other payment once a day (its history
    // stays small) and ends as soon as a notice or a read shows the other payment's end.
    state.raise(
      'STILL_MOVING',
      stillMoving.id,
      `${stillMoving.id} (${stillMoving.status}) has not ended ${STILL_MOVING_LIMIT_MS / DAY} days after ${p.id} did`,
    );
    state.enterPhase('NEEDS_ATTENTION');
    const recheckAt = state.lastHeardAt + STILL_MOVING_RECHECK_MS;
    if (now >= recheckAt) await reconcile(state, stillMoving.id, 'needs attention: is it still moving?');
    else await state.wake(recheckAt - now);
    return;
  }
  state.enterPhase('IN_PROGRESS');
  // the other payment's end comes by push, the sweep or the daily safety read; the limit above still wakes it
  const at = Math.min(safetyReadAt(state), since + STILL_MOVING_LIMIT_MS);
  if (now >= at) await reconcile(state, stillMoving.id, 'the other funded payment is still moving');
  else await wakeAt(state, at, now);
}

/**
 * One turn of the wait after an accepted cancel, with no funds in: CANCELLED once the provider says that no
 * tracked payment can be funded any more (isUnfundable) and the linger has passed, else null. Never decided on our
 * clock: past our estimate of a payment's funding deadline (3 business days; the provider's calendar may differ)
 * the payment is read by GET once (then again every reconcileEveryMs, a day by default); the provider's
 * later EXPIRED comes by push, or by the reconcile sweep when its webhook is lost — or funds come.
 */
async function listenAfterCancel(state: PaymentWorkflowState, p: Payment): Promise<PaymentOutcome | null> {
  const now = Date.now();
  const open = [...state.tracked.values()].filter((t) => !isUnfundable(t));
  if (open.length === 0) {
    // The service's word is in: the payment is cancelled now (phase and payment.cancelled at once, as EXPIRED is),
    // and only then listens for what may still follow. spec: States and transitions, rows 4–5 — a refund or a
    // legacy late funding may still follow EXPIRED; funds after all move it on (FUNDED_AFTER_CANCEL).
    state.enterPhase('CANCELLED');
    const since = state.allUnfundable(now);
    if (now >= since + state.expiredLingerMs) return state.cancelledOutcome(p);
    await state.wake(since + state.expiredLingerMs - now);
    return null;
  }
  state.enterPhase('CANCELLING');
  state.someFundable();
  const readAt = (t: Payment): number => {
    const last = state.cancelReads.get(t.id);
    if (last === undefined) return state.fundingDeadline(t)?.getTime() ?? now;
    return last + state.reconcileEveryMs;
  };
  const next = open.reduce((a, b) => (readAt(b) < readAt(a) ? b : a));
  if (now >= readAt(next)) {
    state.markCancelRead(next.id, now);
    await reconcile(state, next.id, 'cancel accepted: can it still be funded?');
    return null;
  }
  if (now >= safetyReadAt(state)) {
    await reconcile(state, p.id, 'nothing heard');
    return null;
  }
  await wakeAt(state, Math.min(readAt(next), safetyReadAt(state)), now);
  return null;
}

/**
 * One turn while no cancel is accepted: wait for funding until the quote expires (row 2), read once at quote
 * expiry and once at the funding deadline (row 3: the status does not change then), linger after the provider's
 * EXPIRED for a refund or a late funding (rows 4–5); a GET whenever nothing was heard for reconcileEveryMs (a day by
 * default; a lost webhook is found sooner by the reconcile sweep: see safetyReadAt).
 */
async function awaitFundsOrEnd(
  state: PaymentWorkflowState,
  p: Payment,
  ended: PaymentOutcome | null,
): Promise<PaymentOutcome | null> {
  state.enterPhase(phaseOf(p, state.isQuoteExpired(p)));
  const now = Date.now();
  let at = safetyReadAt(state);
  if (ended?.outcome === 'EXPIRED') {
    // the linger is this payment's: one a requote replaced expiring meanwhile must not shorten it
    const since = state.beginLinger(p.id, now);
    if (now >= since + state.expiredLingerMs) return (await readOthersBeforeOutcome(state, p)) ? null : ended;
    at = since + state.expiredLingerMs;
  } else if (state.phase === 'AWAITING_FUNDS' && !pullsFromAccount(p)) {
    at = Math.min(at, quoteExpiresAtMs(p) ?? at);
  } else if (state.phase === 'QUOTE_EXPIRED') {
    if (!state.quoteExpiryReconciled.has(p.id)) {
      state.markQuoteExpiryRead(p.id);
      await reconcile(state, p.id, 'quote expired');
      return null;
    }
    const deadline = state.fundingDeadline(p)?.getTime() ?? null;
    if (deadline !== null && now >= deadline && !state.deadlineReconciled.has(p.id)) {
      state.markDeadlineRead(p.id);
      await reconcile(state, p.id, 'funding deadline passed');
      return null;
    }
    if (deadline !== null && deadline > now) at = Math.min(at, deadline);
  }
  if (now >= at && ended?.outcome !== 'EXPIRED') {
    await reconcile(state, p.id, 'nothing heard');
    return null;
  }
  await wakeAt(state, at, now);
  return null;
}
