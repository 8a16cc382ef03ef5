// The payment workflow tells the providerPayment entity what its own GET found (issue 15: the stale-entity gap).
// Webhooks may be dropped; the payment reconciles by GET on its own timer, but the entity, which others read
// (`xborder status`, the PAYIN/conversion links, later subscribers), re-read only on its hourly timer. The read
// travels as an `event` the entity folds in like any webhook: by timestamps and status rank, never backwards
// (payment-merge.ts), and an event id per observed state, so the same state told twice is dropped.
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import type { Payment } from '../src/contract';
import { providerPaymentEventSignal, providerPaymentWorkflowId, type ProviderPaymentEvent } from './messages';

/** The event type of a state the payment workflow read itself (the entity records its cause as `reconcile`). */
export const OBSERVED_EVENT_TYPE = 'payment.observed';

export function observedEvent(p: Payment): ProviderPaymentEvent {
  const stamps = Object.entries(p.lifecycle ?? {})
    .filter(([, v]) => Boolean(v))
    .map(([k]) => k)
    .sort()
    .join(',');
  return { eventId: `observed:${p.id}:${p.status}:${stamps}`, type: OBSERVED_EVENT_TYPE, payment: p };
}

/** Signals the entity; an error (the entity ended after its linger period) is returned, never thrown. */
export async function tellEntity(p: Payment): Promise<string | null> {
  try {
    await getExternalWorkflowHandle(providerPaymentWorkflowId(p.id)).signal(providerPaymentEventSignal, observedEvent(p));
    return null;
  } catch (err) {
    return String(err);
  }
}
