// Which outbound event ends its payment (or transfer): the map every backend otherwise writes by hand from
// docs/outbound-events.md. Pure: no Temporal, no Node built-ins.
import type { XborderEventType, XborderTransferEventType } from '../contract/outbound-events';

/**
 * - `final`: the outcome; nothing follows but `payment.moved_after_outcome` (a bank's return or refund after it).
 *   `payment.rejected` with nothing created frees the key (docs/backend.md, "Keys"): a corrected request under the same key
 *   is a new run, whose events start again at sequence 1 (a new stream: src/client/event-receiver.ts).
 * - `not-final`: the payment goes on.
 * - `expired`: `payment.expired` — the provider payment can no longer be funded, but the payment waits a while for
 *   funds sent late (spec: States and transitions, rows 4–5): funds then arrive (`payment.funds_received`) and it
 *   ends otherwise (`payment.refunded`, `payment.completed`). Treat the order as expired, ready to change.
 * - `after-final`: `payment.moved_after_outcome`, money moving after a final event (a return after `completed`).
 */
export type EventFinality = 'final' | 'not-final' | 'expired' | 'after-final';

/** The finality of every event type this version sends (docs/outbound-events.md). */
export const EVENT_FINALITY: Readonly<Record<XborderEventType | XborderTransferEventType, EventFinality>> = {
  'payment.created': 'not-final',
  'payment.quote_expired': 'not-final',
  'payment.funds_received': 'not-final',
  'payment.cancel_accepted': 'not-final',
  'payment.needs_attention': 'not-final',
  'payment.completed': 'final',
  'payment.failed': 'final',
  'payment.expired': 'expired',
  'payment.refunded': 'final',
  'payment.rejected': 'final',
  'payment.cancelled': 'final',
  'payment.moved_after_outcome': 'after-final',
  'transfer.customer_approved': 'not-final',
  'transfer.customer_not_approved': 'final',
  'transfer.account_registered': 'not-final',
  'transfer.account_rejected': 'final',
  'transfer.payment_started': 'not-final',
  'transfer.completed': 'final',
  'transfer.payment_not_completed': 'final',
  'transfer.not_completed': 'final',
  'transfer.cancelled': 'final',
};

/** The finality of a type; a type this version does not know (a newer sender) is `not-final`. */
export function eventFinality(type: string): EventFinality {
  return (EVENT_FINALITY as Record<string, EventFinality>)[type] ?? 'not-final';
}

/** True for the event that ends its payment or transfer (its outcome). `payment.expired` is not: late funds may follow. */
export function isFinalEvent(event: { type: string } | string): boolean {
  return eventFinality(typeof event === 'string' ? event : event.type) === 'final';
}
