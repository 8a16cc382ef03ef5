// One delivery window of the oldest event: the activity POSTs it, Temporal retries it for hours (a receiver that is
// down, deploying, answering 5xx or 4xx, or too slow), then the workflow marks it undeliverable and tries again
// later. Never dropped, never skipped: the next event waits (docs/outbound-events.md, "Ordering and retries").
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { XborderOutboundEvent } from '../../../src/contract';
import { eventDeliveryActivities } from '../../activity-options';

export type DeliveryResult = { delivered: true } | { delivered: false; error: string };

export async function deliverOldest(
  endpointUrl: string | null,
  event: XborderOutboundEvent,
): Promise<DeliveryResult> {
  try {
    await eventDeliveryActivities.deliverPaymentEvent(endpointUrl, event);
    return { delivered: true };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const cause = err.cause;
    // the type and message name the status or the network error, never the secret or the receiver's body
    const error =
      cause instanceof ApplicationFailure
        ? `${cause.type ?? 'Error'}: ${cause.message}`
        : String(cause?.message ?? err.message);
    return { delivered: false, error };
  }
}
