// paymentEvents: delivers one payment's outbound events to the backend's endpoint, in order, each until it is
// accepted (docs/outbound-events.md). Started by the first hand-over (signalWithStart from the emitter's local
// activity), so it exists before anyone waits on it; AUTO_UPGRADE (workflows/versioning.ts): changes go behind
// patched(). A receiver's outage never reaches the payment: the payment only hands events over.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  metricMeter,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { PaymentPhaseKey } from '../search-attributes';
import {
  EVENTS_UNDELIVERED_PHASE,
  paymentEventSignal,
  paymentEventsStateQuery,
  redeliverEventsSignal,
  type PaymentEventsInput,
} from './api';
import { PaymentEventsState } from './state';
import { deliverOldest } from './steps/deliver';

const HOUR = 3_600_000;
export const UNDELIVERED_EVENTS_METRIC = 'xborder_outbound_events_undelivered';

export async function paymentEvents(input: PaymentEventsInput): Promise<void> {
  const idleCloseMs = input.options?.idleCloseMs ?? 24 * HOUR;
  const retryPauseMs = input.options?.retryPauseMs ?? HOUR;
  const continueAsNewAfter = input.options?.continueAsNewAfter ?? 200;
  const state = new PaymentEventsState(input);
  setHandler(paymentEventSignal, (event) => state.add(event));
  setHandler(redeliverEventsSignal, () => state.askRedeliver());
  setHandler(paymentEventsStateQuery, () => state.snapshot());

  for (;;) {
    if (!state.hasPending()) {
      // nothing to send: end when nothing comes for a while (a later event starts a new run by signalWithStart)
      const more = await condition(() => state.hasPending(), idleCloseMs);
      if (!more) break;
    }
    if (state.delivered >= continueAsNewAfter || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof paymentEvents>(state.carryOver(input.options));
    }
    const event = state.oldest()!;
    const result = await deliverOldest(state.endpointUrl, event);
    if (result.delivered) {
      const wasUndelivered = state.undeliveredSince !== null;
      state.deliveredOldest();
      if (wasUndelivered) upsertSearchAttributes([{ key: PaymentPhaseKey, value: null }]);
      continue;
    }
    if (state.undeliverable(result.error, new Date())) {
      upsertSearchAttributes([{ key: PaymentPhaseKey, value: EVENTS_UNDELIVERED_PHASE }]);
      metricMeter
        .createCounter(
          UNDELIVERED_EVENTS_METRIC,
          undefined,
          'Outbound events that failed a whole retry window',
        )
        .add(1, { type: event.type });
    }
    await condition(() => state.redeliverAsked, retryPauseMs);
  }
  await condition(allHandlersFinished);
}
