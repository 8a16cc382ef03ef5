// providerPayment: the entity workflow of one provider payment, ID `provider-payment:<id>` (ARCHITECTURE:
// Workflows). Webhooks reach it by signalWithStart (api.ts), so an event for a payment nobody here started (PAYIN,
// automatic conversion — spec: Payment rule 2, Events 2) is never lost. AUTO_UPGRADE: its commands change only
// behind the patches of patches.ts.
import '../polyfills';
import { condition, continueAsNew, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import { workflowIdMismatch } from '../workflow-id-check';
import { isTerminalStatus } from '../payment-merge';
import {
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
  subscribeSignal,
  type ProviderPaymentInput,
  type ProviderPaymentSnapshot,
} from './api';
import { Waiter } from '../waiter';
import { ENTITY_PATCHES } from './patches';
import { ProviderPaymentState } from './state';
import { announceMovesAfterOutcome, recoverRegistrationAfterLinger } from './steps/announce-late';
import { forwardChanges, forwardUntilSettled } from './steps/forward';
import { confirmHeldPushes, reconcile } from './steps/reconcile';
import { nextQuietReadAt, QuietReadPatches } from './quiet-reads';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/**
 * Under ENTITY_PATCHES.fewerActions, while a payment subscribes: past the quiet ladder the entity reads once a day,
 * not hourly. Its subscriber reads the same payment every 6 h and at each of its deadlines, and tells the entity
 * what it found (payment/steps/reconcile.ts, tellEntity): two workflows reading one payment hourly and 6-hourly
 * bought nothing. The payment keeps the reads, since it is the one that decides on them (an outcome is confirmed
 * with the service by the workflow that decides it); the daily read is the entity's own floor for a subscriber that
 * ended without its knowing (it learns that only at its next signal). Webhook delivery and retries are not shown
 * (spec: Events 5), so no wait is without a read. Runs under ENTITY_PATCHES.leavesPeriodicReadsToSweep no longer
 * take this read (nor the hourly one): the reconcile Schedule's sweep is that read (quiet-reads.ts).
 */
export const SUBSCRIBED_READ_EVERY_MS = DAY;

/**
 * The input is typed at the edge (api.ts, signalWithStartProviderPayment; continue-as-new below): the workflow
 * does not parse it again.
 */
export async function providerPayment(input: ProviderPaymentInput): Promise<ProviderPaymentSnapshot> {
  // An input copied under another ID never acts (workflow-id-check.ts). patched() is asked only then: a run under
  // its own ID gets no marker and no new command; one recorded before the check replays as it ran.
  const mismatch = workflowIdMismatch(
    providerPaymentWorkflowId(input.providerPaymentId),
    workflowInfo().workflowId,
  );
  if (mismatch && patched(ENTITY_PATCHES.refusesAnotherId)) throw mismatch;
  const lingerMs = input.lingerAfterTerminalMs ?? 7 * DAY;
  const continueAsNewAfter = input.continueAsNewAfterEvents ?? 2000;
  const state = new ProviderPaymentState(input);
  const waiter = new Waiter();
  const quietPatches = new QuietReadPatches();
  const readEveryMs = (): number =>
    input.reconcileEveryMs ?? (state.fewer && state.subscribers.size > 0 ? SUBSCRIBED_READ_EVERY_MS : HOUR);
  setHandler(providerPaymentEventSignal, (event) => state.onEvent(event));
  setHandler(subscribeSignal, (request) => state.onSubscribe(request));
  setHandler(providerPaymentSnapshotQuery, () => state.snapshot());

  // A fresh run with no snapshot (started by a webhook, or by an event after the entity closed) reads the
  // payment first, so it never trusts one event alone — unless a subscriber already sent the service's answer
  // (its POST's, in a signal delivered with this first task: lean runs only), or the sweep's listing came with it.
  if (input.payment === undefined && !workflowInfo().continuedFromExecutionRunId && !state.readBySubscriber) {
    // the sweep's listing in this first task (its tell started the run) is our own read: no GET of what it just listed
    if (!state.readBySweep || !patched(ENTITY_PATCHES.takesSweepReadFirst)) await reconcile(state);
    await recoverRegistrationAfterLinger(state); // following outlives a run: a return weeks after the outcome
  }
  if (state.payment) {
    state.noteUnknownValues();
    state.reindex();
    state.updateMemo();
  }

  for (;;) {
    if (state.unconfirmed.length > 0 && Date.now() >= state.confirmNotBefore) await confirmHeldPushes(state);
    await forwardChanges(state);
    await announceMovesAfterOutcome(state);
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength >= continueAsNewAfter) {
      await forwardUntilSettled(state); // the next run takes every subscriber as told
      return continueAsNew<typeof providerPayment>(state.carriedOver());
    }
    const now = Date.now();
    let wakeAt: number;
    if (state.payment && isTerminalStatus(state.payment)) {
      // Linger: a refund (row 4) or a legacy late funding (row 5) may still follow a terminal status.
      wakeAt = state.lingerFrom(now) + lingerMs;
      // a held push is judged, and an unanswered registration lookup asked again, before the entity ends
      if (now >= wakeAt && state.unconfirmed.length === 0 && !state.lookupPending()) break;
    } else {
      wakeAt = nextQuietReadAt(state, quietPatches, {
        every: readEveryMs(),
        optedIn: input.reconcileEveryMs !== undefined,
        ladder: state.isPatched(ENTITY_PATCHES.readsSoonerWhenQuiet),
      });
      if (now >= wakeAt) {
        state.quietReadTaken();
        await reconcile(state); // events are overdue
        continue;
      }
    }
    // an unanswered registration lookup is asked again at registrationNotBefore (steps/announce-late.ts), at most
    // MAX_REGISTRATION_LOOKUPS times: a timer, not only a signal, wakes for it
    if (state.lookupPending())
      wakeAt = wakeAt > now ? Math.min(wakeAt, state.registrationNotBefore) : state.registrationNotBefore;
    // a held push is judged at once, or, after a confirming read that failed, at confirmNotBefore
    if (state.unconfirmed.length > 0) {
      if (now >= state.confirmNotBefore) continue; // pushed while a read was in flight: judged at the top now
      wakeAt = wakeAt > now ? Math.min(wakeAt, state.confirmNotBefore) : state.confirmNotBefore;
    }
    const { version, wakeups } = state;
    const woken = () => state.version !== version || state.wakeups !== wakeups || state.unforwarded();
    if (state.fewer) await waiter.until(woken, wakeAt === Infinity ? undefined : Math.max(now + 1, wakeAt));
    else await condition(woken, Math.max(1, wakeAt - now));
  }

  await forwardUntilSettled(state);
  await announceMovesAfterOutcome(state);
  return { ...state.snapshot(), completedAfterTerminal: true };
}
