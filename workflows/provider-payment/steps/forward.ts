// The entity tells its subscribers (payment workflows) every accepted change: `providerPaymentChanged`.
import { allHandlersFinished, condition, getExternalWorkflowHandle, log } from '@temporalio/workflow';
import { providerPaymentChangedSignal } from '../api';
import type { Cause, ProviderPaymentState } from '../state';

/** Sends the current version to every subscriber that has not had it; a subscriber that is gone is dropped. */
export async function forwardChanges(state: ProviderPaymentState): Promise<void> {
  if (!state.payment) return;
  // what is sent is captured before awaiting: events may land while a signal is in flight
  const sending = state.payment;
  const sendingVersion = state.version;
  for (const subscriber of [...state.subscribers]) {
    const had = state.forwarded.get(subscriber);
    if (had === sendingVersion) continue;
    const cause: Cause = had === undefined ? 'subscribe' : state.lastCause;
    try {
      await getExternalWorkflowHandle(subscriber).signal(providerPaymentChangedSignal, {
        providerPaymentId: state.id,
        payment: sending,
        cause,
      });
      state.sentTo(subscriber, sendingVersion, sending); // its backend knows this move (facts.ts, toldMove)
    } catch (err) {
      // the subscriber is gone (completed or cancelled): stop telling it
      log.info('subscriber unreachable; removed', {
        providerPaymentId: state.id,
        subscriber,
        error: String(err),
      });
      state.subscriberGone(subscriber);
    }
  }
}

/** Before this run ends: tell every subscriber the latest, again if an event landed while signals were in flight. */
export async function forwardUntilSettled(state: ProviderPaymentState): Promise<void> {
  do {
    await condition(allHandlersFinished);
    await forwardChanges(state);
  } while (state.unforwarded());
}
