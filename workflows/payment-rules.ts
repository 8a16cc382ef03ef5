// Pure decisions of the payment workflow: phase of a provider payment, outcome, limits, funding deadline.
// Zod-free imports only (docs/performance.md: no zod in the workflow bundle).
import type { Payment, Rate, Violation } from '../src/contract';
import { addBusinessDays } from '../src/contract/business-days';
import { PAYMENT_STATUSES } from '../src/contract/enums';
import { isInForce } from '../src/contract/rules';
import type { PaymentOutcome } from './payment/api';
import type { PaymentPhase } from './types';

export const AWAITING_FUNDS_BUSINESS_DAYS = 3;

/** The code carried by payment.error (its type is "not shown": a string or an object with `code`). */
export function failureCodeOf(payment: Payment): string | null {
  const error: unknown = (payment as { error?: unknown }).error;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object') {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return null;
}

/**
 * The payment ended in a refund: status REFUNDED, or refundedAt on a payment that did not fail (EXPIRED with
 * funds after the quote, spec: States and transitions, row 4). A FAILED payment whose held funds went back to the
 * sender stays FAILED(code): the failure is the outcome, the return of funds is part of it (docs/spec-gaps.md).
 */
export function isRefunded(payment: Payment): boolean {
  if (payment.status === 'REFUNDED') return true;
  return payment.status !== 'FAILED' && Boolean(payment.lifecycle?.refundedAt);
}

/** A status the contract names; the spec does not show the complete set (States and transitions). */
export function isKnownStatus(status: string): boolean {
  return (PAYMENT_STATUSES as readonly string[]).includes(status);
}

/**
 * Funds are in: the provider moved past AWAITING_FUNDS without expiring (spec: States and transitions, row 2).
 * A status the contract does not name counts as in progress, so as funded: a cancel or requote is refused
 * rather than walking away from money that may be moving (docs/spec-gaps.md).
 */
export function isFunded(payment: Payment): boolean {
  return hasFundsIn(payment) || !isKnownStatus(payment.status);
}

/**
 * Funds are known to be in: a funded status the contract names, or lifecycle.sentAt. An unknown status alone is
 * no proof: it blocks a cancel or requote (isFunded) but never makes a superseded payment the followed one, nor
 * raises DOUBLE_FUNDED, nor keeps the workflow open waiting for it (docs/spec-gaps.md, "Unknown status").
 */
export function hasFundsIn(payment: Payment): boolean {
  return (
    ['PENDING', 'PROCESSING', 'SENT', 'COMPLETED'].includes(payment.status) ||
    Boolean(payment.lifecycle?.sentAt)
  );
}

/**
 * Statuses a provider may give a payment it stopped before funds. Not in the contract (spec: States and
 * transitions — the complete set is not shown): passed through as unknown, but read as final and unfunded.
 */
export const PROVIDER_CANCELLED_STATUSES: readonly string[] = ['CANCELLED', 'CANCELED'];

/**
 * The provider says this payment can no longer be funded, and no funds are known in: EXPIRED (spec: States and
 * transitions, row 1), another final status (FAILED, REFUNDED, or refunded), or a cancelled status of its own.
 * Only the provider's word counts, never our clock: its AWAITING_FUNDS lifetime is in business days, and its
 * holiday calendar is not ours (docs/spec-gaps.md).
 */
export function isUnfundable(payment: Payment): boolean {
  if (hasFundsIn(payment)) return false;
  return (
    ['EXPIRED', 'FAILED', 'REFUNDED'].includes(payment.status) ||
    isRefunded(payment) ||
    PROVIDER_CANCELLED_STATUSES.includes(payment.status)
  );
}

export function pullsFromAccount(payment: { source?: { accountId?: string | null } | null }): boolean {
  return Boolean(payment.source?.accountId); // spec: States and transitions, rule 1
}

/** The phase a provider payment puts the workflow in; `quoteExpired` is judged on workflow time. */
export function phaseOf(payment: Payment, quoteExpired: boolean): PaymentPhase {
  if (isRefunded(payment)) return 'REFUNDED';
  switch (payment.status) {
    case 'COMPLETED':
      return 'COMPLETED';
    case 'FAILED':
      return 'FAILED';
    case 'EXPIRED':
      return 'EXPIRED';
    case 'AWAITING_FUNDS':
      // spec: States and transitions, row 3 — the status does not change at quote expiry; rule 1 — no wait
      // applies to a payment pulled from an account.
      return quoteExpired && !pullsFromAccount(payment) ? 'QUOTE_EXPIRED' : 'AWAITING_FUNDS';
    default:
      // PENDING, PROCESSING, SENT, and any status the spec does not name (States and transitions, rule 3)
      return 'IN_PROGRESS';
  }
}

/** The final outcome for a payment in a final phase, or null. EXPIRED is final after the linger period. */
export function outcomeOf(payment: Payment): PaymentOutcome | null {
  if (isRefunded(payment)) return { outcome: 'REFUNDED', code: failureCodeOf(payment), payment };
  if (payment.status === 'COMPLETED') return { outcome: 'COMPLETED', payment };
  if (payment.status === 'FAILED') return { outcome: 'FAILED', code: failureCodeOf(payment), payment };
  if (payment.status === 'EXPIRED') return { outcome: 'EXPIRED', payment };
  return null;
}

export function quoteExpiresAtMs(payment: Payment): number | null {
  const at = payment.quote?.expiresAt ? Date.parse(payment.quote.expiresAt) : NaN;
  return Number.isFinite(at) ? at : null;
}

/**
 * When the provider will expire an unfunded payment: 3 business days after creation from Mar 30, 2026
 * (spec: Limits, AWAITING_FUNDS lifetime), at quote expiry before that (spec: States and transitions, rule 2).
 */
export function fundingDeadlineOf(payment: Payment, holidays?: ReadonlySet<string>): Date | null {
  if (pullsFromAccount(payment)) return null;
  const createdAt = payment.lifecycle?.createdAt ? new Date(payment.lifecycle.createdAt) : null;
  if (!createdAt || Number.isNaN(createdAt.getTime())) return null;
  if (!isInForce('AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS', createdAt)) {
    const q = quoteExpiresAtMs(payment);
    return q === null ? null : new Date(q);
  }
  return addBusinessDays(createdAt, AWAITING_FUNDS_BUSINESS_DAYS, holidays);
}

export interface PaymentLimits {
  maxTotalFee?: number;
  maxRateDrift?: number;
}

/** Caller's fee limit, checked on the rate before anything is created. */
export function feeViolations(rate: Rate, limits: PaymentLimits | undefined): Violation[] {
  const max = limits?.maxTotalFee;
  const fee = rate.calculatedAmount?.totalFeeInSourceCurrency;
  if (max === undefined || typeof fee !== 'number' || fee <= max) return [];
  return [
    {
      path: 'limits.maxTotalFee',
      rule: 'MAX_TOTAL_FEE_EXCEEDED',
      message: `the total fee ${fee} is above the limit ${max}; raise maxTotalFee or change the amount or rails`,
    },
  ];
}

/** Relative distance between the rate's midMarketRate and the exchange rate the payment's quote locked. */
export function rateDrift(rate: Rate, payment: Payment): number | null {
  const mid = rate.midMarketRate;
  const quoted = payment.quote?.exchangeRate;
  if (typeof mid !== 'number' || typeof quoted !== 'number' || mid <= 0) return null;
  return Math.abs(quoted - mid) / mid;
}

/** Caller's drift limit, checked on the created payment's own quote. */
export function driftViolations(
  rate: Rate,
  payment: Payment,
  limits: PaymentLimits | undefined,
): Violation[] {
  const max = limits?.maxRateDrift;
  const drift = rateDrift(rate, payment);
  if (max === undefined || drift === null || drift <= max) return [];
  return [
    {
      path: 'limits.maxRateDrift',
      rule: 'MAX_RATE_DRIFT_EXCEEDED',
      message: `the quote's exchange rate ${payment.quote.exchangeRate} is ${(drift * 100).toFixed(3)}% away from the mid-market rate ${rate.midMarketRate}; the limit is ${(max * 100).toFixed(3)}%`,
    },
  ];
}
