// One delivery window of the oldest event: the activity POSTs it, Temporal retries it for hours (a receiver that is
// down, deploying, answering 5xx or 4xx, or too slow), then the workflow marks it undeliverable and tries again
// later. Never dropped, never skipped: the next event waits (docs/outbound-events.md, "Ordering and retries").
import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { EventDeliveryActivities } from '../../../activities/event-delivery-activities';
import type { XborderOutboundEvent } from '../../../src/contract';

/**
 * Retries spread over two hours: 10 s, 20 s, 40 s … then every 15 min (about 12 attempts). A receiver down for an
 * hour gets the event a few minutes after it is back, with no one looking; past two hours a person should.
 */
const { deliverPaymentEvent } = proxyActivities<EventDeliveryActivities>({
  startToCloseTimeout: '1m',
  scheduleToCloseTimeout: '2h',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '15m' },
});

export type DeliveryResult = { delivered: true } | { delivered: false; error: string };

export async function deliverOldest(
  endpointUrl: string | null,
  event: XborderOutboundEvent,
): Promise<DeliveryResult> {
  try {
    await deliverPaymentEvent(endpointUrl, event);
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
