// Plain types shared by the workflows and their clients.
import type { Payment } from '../src/contract';

/**
 * Where a payment workflow is. QUOTE_EXPIRED: the quote ended with no funds seen; the provider status is
 * still AWAITING_FUNDS (spec: States and transitions, row 3) and a late notice may still be honoured.
 * IN_PROGRESS: funds are in (PENDING, PROCESSING, SENT, or a status the contract does not name).
 * NEEDS_ATTENTION: POST /payments may have created a payment we never saw (a retry after a network error or
 * timeout was refused, or a 2xx body did not parse): an operator decides (`resolveCreate` update; docs/spec-gaps.md).
 * CANCELLING: the cancel was accepted; the provider payment is still followed until the provider says it can
 * no longer be funded (EXPIRED, or a cancelled status), then the workflow ends CANCELLED (workflows/README.md,
 * "Cancel"). CANCELLED while running: the same, in runs whose cancel was accepted before CANCELLING existed.
 */
export const PAYMENT_PHASES = [
  'VALIDATING',
  'QUOTING',
  'CREATING',
  'AWAITING_FUNDS',
  'QUOTE_EXPIRED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'EXPIRED',
  'REFUNDED',
  'REJECTED',
  'CANCELLED',
  'NEEDS_ATTENTION',
  'CANCELLING',
] as const;
/** Where the payment workflow is (PAYMENT_PHASES); also the PaymentPhase search attribute. */
export type PaymentPhase = (typeof PAYMENT_PHASES)[number];

/** One step of a payment's history as the workflow records it (PaymentState.timeline). */
export interface TimelineEntry {
  at: string;
  kind: string;
  detail?: string;
}

/** A pushed final status waiting for the read that confirms it. */
export interface UnconfirmedPush {
  eventId: string;
  payment: Payment;
  /** the cause the push would have had (a state our payment workflow read itself is a `reconcile`) */
  cause?: 'event' | 'reconcile';
}

/** A push the service's own answer did not bear out. */
export interface PushMismatch {
  eventId: string;
  /** the status the push claimed */
  pushed: string;
  /** the status the GET answered (what the entity kept and forwarded) */
  read: string;
  /** when the GET answered (workflow time) */
  at: string;
}
