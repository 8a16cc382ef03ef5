// What one providerCustomer entity run holds, and the bodies of its handlers. The review status only moves
// PENDING_REVIEW → APPROVED | REJECTED (docs/spec-gaps.md, "Customer review status"); a late or duplicate event
// never moves it back.
import type { Customer } from '../../src/contract';
import { BoundedIdSet } from '../payment-merge';
import {
  isReviewFinal,
  type ProviderCustomerEvent,
  type ProviderCustomerInput,
  type SubscribeRequest,
} from './api';

const RANK: Record<string, number> = { PENDING_REVIEW: 0, APPROVED: 1, REJECTED: 1 };

export interface ProviderCustomerSnapshot {
  customerId: string;
  customer: Customer | null;
  subscribers: string[];
}

export class ProviderCustomerState {
  readonly customerId: string;
  readonly seen: BoundedIdSet;
  readonly subscribers: Set<string>;
  /** the version each subscriber last received */
  readonly forwarded = new Map<string, number>();
  customer: Customer | null;
  version: number;
  /** every subscribe lets the loop look again */
  wakeups = 0;
  lastChangeAt: number;

  constructor(readonly input: ProviderCustomerInput) {
    this.customerId = input.customerId;
    this.seen = new BoundedIdSet(input.seenEventIds ?? []);
    this.subscribers = new Set(input.subscribers ?? []);
    this.customer = input.customer ?? null; // parsed at the edge, or carried over by continue-as-new
    this.version = this.customer ? 1 : 0;
    this.lastChangeAt = Date.now();
  }

  /** The `customerEvent` signal. */
  onEvent(event: ProviderCustomerEvent): void {
    if (this.seen.add(event.eventId)) this.accept(event.customer);
  }

  /** The `subscribe` signal. */
  onSubscribe({ workflowId }: SubscribeRequest): void {
    this.subscribers.add(workflowId);
    this.forwarded.delete(workflowId);
    this.wakeups++;
  }

  /** The `customerSnapshot` query. */
  snapshot(): ProviderCustomerSnapshot {
    return { customerId: this.customerId, customer: this.customer, subscribers: [...this.subscribers] };
  }

  /** The customer as the ingress parsed it (api.ts); null when its body did not fit the contract. */
  private accept(incoming: Customer | null): void {
    const { customer } = this;
    if (!incoming || incoming.id !== this.customerId) return;
    if (customer && (RANK[incoming.status] ?? 0) < (RANK[customer.status] ?? 0)) return; // never backwards
    if (customer && isReviewFinal(customer) && incoming.status !== customer.status) return; // a decision stands
    this.customer = incoming;
    this.version++;
    this.lastChangeAt = Date.now();
  }

  /** A subscriber has not been sent the current version (a change that landed while a forward was in flight). */
  unforwarded(): boolean {
    return (
      this.customer !== null && [...this.subscribers].some((s) => this.forwarded.get(s) !== this.version)
    );
  }

  /** The next run takes the customer, the subscribers (told again: harmless) and the seen event ids. */
  carriedOver(): ProviderCustomerInput {
    const { input } = this;
    return {
      customerId: this.customerId,
      customer: this.customer ?? undefined,
      subscribers: [...this.subscribers],
      seenEventIds: this.seen.toArray(),
      lingerAfterFinalMs: input.lingerAfterFinalMs,
      maxReviewIdleMs: input.maxReviewIdleMs,
      continueAsNewAfterEvents: input.continueAsNewAfterEvents,
    };
  }
}
