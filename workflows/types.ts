// Plain types shared by the workflows and their clients.
import type { Account, Customer, Violation } from '../src/contract';

/**
 * Where a payment workflow is. QUOTE_EXPIRED: the quote ended with no funds seen; the provider status is
 * still AWAITING_FUNDS (spec: States and transitions, row 3) and a late notice may still be honoured.
 * IN_PROGRESS: funds are in (PENDING, PROCESSING, SENT).
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
] as const;
export type PaymentPhase = (typeof PAYMENT_PHASES)[number];

export interface TimelineEntry {
  at: string;
  kind: string;
  detail?: string;
}

export type OnboardCustomerResult =
  | { outcome: 'APPROVED'; customer: Customer }
  | { outcome: 'REJECTED'; violations: Violation[]; customer: null }
  | { outcome: 'REVIEW_REJECTED'; customer: Customer }
  | { outcome: 'REVIEW_TIMEOUT'; customer: Customer };

export type RegisterAccountResult =
  | { outcome: 'REGISTERED'; account: Account }
  | { outcome: 'REJECTED'; violations: Violation[] };
