// Workflow code only: the payment workflow tells the providerPayment entity what its own GET found (the stale-entity
// gap). Webhooks may be dropped; the payment reconciles by GET on its own timer, but the entity, which others read
// (`xborder status`, the PAYIN/conversion links, later subscribers), re-read only on its hourly timer. The read
// travels as an `event` the entity folds in like any webhook: by timestamps and status rank, never backwards
// (payment-merge.ts), and an event id per observed state, so the same state told twice is dropped. Moved here from
// api.ts, unchanged, so that callers' API holds no workflow-only call.
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import type { Payment } from '../../src/contract';
import {
  OBSERVED_EVENT_TYPE,
  providerPaymentEventSignal,
  providerPaymentWorkflowId,
  type ProviderPaymentEvent,
} from './api';
import { observedEventId } from '../internal-event-ids';

export function observedEvent(p: Payment, from?: string): ProviderPaymentEvent {
  const stamps = Object.entries(p.lifecycle ?? {})
    .filter(([, v]) => Boolean(v))
    .map(([k]) => k)
    .sort()
    .join(',');
  return {
    eventId: observedEventId(p.id, p.status, stamps),
    type: OBSERVED_EVENT_TYPE,
    payment: p,
    ...(from !== undefined ? { from } : {}),
  };
}

/** From a workflow: signals the entity; an error (the entity ended after its linger period) is returned, never thrown. */
export async function tellEntity(p: Payment, from?: string): Promise<string | null> {
  try {
    await getExternalWorkflowHandle(providerPaymentWorkflowId(p.id)).signal(
      providerPaymentEventSignal,
      observedEvent(p, from),
    );
    return null;
  } catch (err) {
    return String(err);
  }
}
