// The payment's side of outbound events (docs/outbound-events.md): at each phase change the payment calls
// `emit`, which hands the events that change makes to the payment's delivery workflow (paymentEvents) by a local
// activity (signalWithStart). Hand-overs run one after another, in the order of the changes, and the payment
// never waits for them except before it returns its outcome (`settled`): a receiver's outage never slows it.
// A payment started without `events` in its input emits nothing and records nothing (runs recorded before events
// existed replay unchanged).
import { workflowInfo } from '@temporalio/workflow';
import type { Payment } from '../../src/contract';
import type { PaymentInput } from '../inputs';
import type { PaymentState } from '../payment/api';
import { eventBody, eventTypesFor, type EmittedSoFar } from './event-body';
import { paymentEventHandOverActivities } from '../activity-options';

export interface PaymentEventEmitter {
  /**
   * Call at every phase change (a call with no change emits nothing): the state after it and the followed provider
   * payment, read only when events are on. Never waits.
   */
  emit(state: () => PaymentState, followed: () => Payment | null): void;
  /** Resolves when every event emitted so far is handed over: await it before the workflow returns. */
  settled(): Promise<void>;
}

const SILENT: PaymentEventEmitter = { emit: () => undefined, settled: () => Promise.resolve() };

/** One per payment run (no module state: workflow modules may be shared between runs). */
export function paymentEventEmitter(input: Pick<PaymentInput, 'paymentKey' | 'events'>): PaymentEventEmitter {
  if (!input.events) return SILENT;
  const endpointUrl = input.events.url ?? null;
  // the run's first run id: a key reused by a later payment never repeats an event id
  const idPrefix = workflowInfo().firstExecutionRunId;
  const so: EmittedSoFar = { phase: null, announced: [], fundsAnnounced: false };
  let sequence = 0;
  let tail: Promise<void> = Promise.resolve();
  return {
    emit(readState, readFollowed) {
      const state = readState();
      for (const type of eventTypesFor(so, state)) {
        sequence++;
        const at = new Date().toISOString();
        const event = eventBody(
          { idPrefix, paymentKey: input.paymentKey, sequence, occurredAt: at },
          type,
          state,
          readFollowed(),
        );
        tail = tail.then(() =>
          paymentEventHandOverActivities.handOverPaymentEvent(input.paymentKey, endpointUrl, event),
        );
      }
    },
    settled: () => tail,
  };
}
