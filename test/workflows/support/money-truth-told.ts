// What the backend was told, judged against the service's history (the time-skipping simulation,
// money-truth-world.ts): each move once, in the order the service made them, and only moves a read of ours returned.
// Invariant names are the pure tier's (test/unit/simulation/world.ts).
import type { XborderEvent, XborderOutboundEvent } from '../../../src/contract';
import { isTransferEvent } from '../../../src/contract';
import { Violation } from '../../unit/simulation/world';

/** Late funds refunded on an EXPIRED payment: the status stays EXPIRED (spec: States and transitions, row 4). */
const REFUND_KEEPING_STATUS = 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED';
/** Outcomes told once (src/client/event-finality.ts, `final`). */
const FINAL_EVENTS = new Set([
  'payment.completed',
  'payment.failed',
  'payment.refunded',
  'payment.cancelled',
]);
/** Events that tell where the money is: the outcomes, payment.expired, and the moves after the outcome. */
const TOLD_EVENTS = new Set([...FINAL_EVENTS, 'payment.expired', 'payment.moved_after_outcome']);

/** The move an event tells, keyed as knowledge.ts's moveKey keys the service's records. */
export function toldKey(e: XborderEvent): string {
  const status = e.data.providerStatus ?? 'null';
  return status !== 'REFUNDED' && e.data.code === REFUND_KEEPING_STATUS ? `${status}+REFUNDED` : status;
}

/** One payment's events as its backend keeps them: deduplicated on the event id (docs/outbound-events.md). */
export function backendEventsOf(
  delivered: readonly XborderOutboundEvent[],
  paymentKey: string,
): XborderEvent[] {
  const byId = new Map<string, XborderEvent>();
  for (const e of delivered)
    if (!isTransferEvent(e) && e.paymentKey === paymentKey && !byId.has(e.id)) byId.set(e.id, e);
  return [...byId.values()];
}

/** The last move told, or null. */
export function lastToldKey(events: readonly XborderEvent[]): string | null {
  const told = events.filter((e) => TOLD_EVENTS.has(e.type));
  return told.length > 0 ? toldKey(told[told.length - 1]) : null;
}

/**
 * TOLD IN ORDER: sequences 1, 2, 3… as delivered; no move told before one it followed in `truthKeys` (the service's
 * records, oldest first). TOLD EXACTLY ONCE: no move twice, one final outcome (payment.expired is no final event: a
 * refund of funds sent late may follow it as payment.refunded). NOTHING FROM A PUSH ALONE: every move told is one a
 * read returned (`readKeys`).
 */
export function checkTold(
  events: readonly XborderEvent[],
  truthKeys: readonly string[],
  readKeys: ReadonlySet<string>,
): void {
  events.forEach((e, i) => {
    if (e.sequence !== i + 1)
      throw new Violation(
        'TOLD IN ORDER',
        `event ${e.type} has sequence ${e.sequence} at position ${i + 1}: ${events.map((x) => `${x.sequence}:${x.type}`).join(', ')}`,
      );
  });
  const told = events.filter((e) => TOLD_EVENTS.has(e.type));
  if (told.filter((e) => FINAL_EVENTS.has(e.type)).length > 1)
    throw new Violation(
      'TOLD EXACTLY ONCE',
      `two final outcomes told: ${told.map((e) => e.type).join(', ')}`,
    );
  const keys: string[] = [];
  for (const e of told) {
    const key = toldKey(e);
    if (e.type === 'payment.cancelled' && key === 'AWAITING_FUNDS') continue; // a cancel before any move: no move
    if (!readKeys.has(key))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `the backend was told ${e.type} ${key}, which no read returned`,
      );
    if (keys.includes(key))
      throw new Violation(
        'TOLD EXACTLY ONCE',
        `the backend was told ${key} twice: ${told.map(toldKey).join(', ')}`,
      );
    const last = keys[keys.length - 1];
    if (last !== undefined && truthKeys.indexOf(key) < truthKeys.indexOf(last))
      throw new Violation(
        'TOLD IN ORDER',
        `the backend was told ${key} after ${last}; the service went ${truthKeys.join(' → ')}`,
      );
    keys.push(key);
  }
}
