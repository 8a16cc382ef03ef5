// paymentEvents: delivers one payment's outbound events to the backend's endpoint, in order, each until it is
// accepted (docs/outbound-events.md). Started by the first hand-over (signalWithStart from the emitter's local
// activity), so it exists before anyone waits on it; AUTO_UPGRADE (workflows/versioning.ts): changes go behind
// patched(). A receiver's outage never reaches the payment: the payment only hands events over.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  metricMeter,
  patched,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { PaymentPhaseKey } from '../search-attributes';
import { workflowIdMismatch } from '../workflow-id-check';
import {
  EVENTS_UNDELIVERED_PHASE,
  paymentEventsWorkflowId,
  paymentEventSignal,
  transferEventsWorkflowId,
  paymentEventsStateQuery,
  redeliverEventsSignal,
  type PaymentEventsInput,
} from './api';
import { PaymentEventsState } from './state';
import { deliverOldest } from './steps/deliver';

const HOUR = 3_600_000;
export const UNDELIVERED_EVENTS_METRIC = 'xborder_outbound_events_undelivered';

/**
 * This workflow's patches (AUTO_UPGRADE): one owner, each asked only where the older code took the other branch.
 * | id                        | stage   | kept histories                                            |
 * | events-refuses-another-id | patched | new: asked only by a run under another ID than its key's (none kept) |
 */
export const EVENTS_PATCHES = { refusesAnotherId: 'events-refuses-another-id' } as const;

/**
 * The run's ID must be its input key's (`payment-events:<key>`, or `transfer-events:<key>` for a transfer's): a
 * delivery run signs what it delivers with xborder's webhook secret, so pending events given under another ID (a
 * copied or forged start) never leave (workflows/workflow-id-check.ts). The patch is asked only on a mismatch.
 */
function refuseAnotherId(paymentKey: string): void {
  const { workflowId } = workflowInfo();
  const expected = workflowId.toLowerCase().startsWith('transfer-events:')
    ? transferEventsWorkflowId(paymentKey)
    : paymentEventsWorkflowId(paymentKey);
  const mismatch = workflowIdMismatch(expected, workflowId);
  if (mismatch && patched(EVENTS_PATCHES.refusesAnotherId)) throw mismatch;
}

export async function paymentEvents(input: PaymentEventsInput): Promise<void> {
  refuseAnotherId(input.paymentKey);
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
