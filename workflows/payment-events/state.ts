// The state of one payment's delivery workflow: the events waiting, oldest first, and what the handlers do with
// them. Pure (no Temporal calls): the workflow function reads it, the handlers change it.
import type { XborderOutboundEvent } from '../../src/contract';
import type { PaymentEventsInput, PaymentEventsSnapshot } from './api';

/** ids kept to drop a retried hand-over: the emitter hands over one at a time, so a few suffice */
const RECENT_IDS_KEPT = 100;

export class PaymentEventsState {
  readonly paymentKey: string;
  readonly endpointUrl: string | null;
  private readonly pending: XborderOutboundEvent[];
  private readonly recent: string[];
  delivered = 0;
  /** the highest sequence handed over: a late event (moved_after_outcome) is numbered after it */
  lastSequence: number;
  undeliveredSince: string | null;
  lastError: string | null = null;
  redeliverAsked = false;

  constructor(input: PaymentEventsInput) {
    this.paymentKey = input.paymentKey;
    this.endpointUrl = input.endpointUrl;
    this.pending = [...(input.pending ?? [])];
    this.recent = [...(input.recentlyDelivered ?? [])];
    this.undeliveredSince = input.undeliveredSince ?? null;
    this.lastSequence = Math.max(input.lastSequence ?? 0, ...this.pending.map((e) => e.sequence));
  }

  /** The paymentEvent signal. Order is the order of hand-over: the emitter hands over the next only after this one. */
  add(event: XborderOutboundEvent): void {
    if (this.recent.includes(event.id) || this.pending.some((e) => e.id === event.id)) return;
    this.pending.push(event);
    this.lastSequence = Math.max(this.lastSequence, event.sequence);
  }

  /** The redeliverEvents signal. */
  askRedeliver(): void {
    this.redeliverAsked = true;
  }

  oldest(): XborderOutboundEvent | undefined {
    return this.pending[0];
  }

  hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** The oldest event reached the receiver (a 2xx): the next may go. */
  deliveredOldest(): void {
    const done = this.pending.shift();
    if (!done) return;
    this.recent.push(done.id);
    if (this.recent.length > RECENT_IDS_KEPT) this.recent.shift();
    this.delivered++;
    this.undeliveredSince = null;
    this.lastError = null;
  }

  /** A whole retry window failed: visible until a delivery goes through. Returns true when it just became so. */
  undeliverable(error: string, now: Date): boolean {
    this.lastError = error;
    this.redeliverAsked = false;
    if (this.undeliveredSince !== null) return false;
    this.undeliveredSince = now.toISOString();
    return true;
  }

  /** What continue-as-new carries over. */
  carryOver(options: PaymentEventsInput['options']): PaymentEventsInput {
    return {
      paymentKey: this.paymentKey,
      endpointUrl: this.endpointUrl,
      pending: [...this.pending],
      recentlyDelivered: [...this.recent],
      undeliveredSince: this.undeliveredSince,
      lastSequence: this.lastSequence,
      ...(options ? { options } : {}),
    };
  }

  snapshot(): PaymentEventsSnapshot {
    return {
      paymentKey: this.paymentKey,
      endpointUrl: this.endpointUrl,
      pending: this.pending.map((e) => ({ id: e.id, type: e.type, sequence: e.sequence })),
      delivered: this.delivered,
      lastSequence: this.lastSequence,
      undeliveredSince: this.undeliveredSince,
      lastError: this.lastError,
      recentIds: [...this.recent],
    };
  }
}
