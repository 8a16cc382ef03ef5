// What a payment allows, decided on what it knows: pure functions of its facts, with unit tests that need no test
// server (test/unit/workflows/payment-guards.test.ts). The state's handlers (state.ts) turn an answer into a refusal.
import type { CreatePaymentRequest, Payment } from '../../src/contract';
import { isFunded, pullsFromAccount, quoteExpiresAtMs } from '../payment-rules';
import type { PaymentOutcome, PaymentState, ResolveCreateDecision } from './api';
import type { PaymentPhase } from '../types';

export type CancelRequest = NonNullable<PaymentState['cancel']>;

/** The facts a guard reads (PaymentWorkflowState holds them). */
export interface PaymentFacts {
  readonly phase: PaymentPhase;
  readonly request: CreatePaymentRequest;
  /** every provider payment this workflow created, by id */
  readonly tracked: ReadonlyMap<string, Payment>;
  readonly activeId: string | null;
  readonly outcome: PaymentOutcome | null;
  readonly cancel: CancelRequest | null;
  /** a create whose outcome is unknown, waiting for an operator */
  readonly attention: object | null;
}

/** The provider payment the payment follows, or null. */
export const activeOf = (f: PaymentFacts): Payment | null =>
  f.activeId ? (f.tracked.get(f.activeId) ?? null) : null;
/** Funds are in on any provider payment of this payment (a superseded one too). */
export const fundsIn = (f: PaymentFacts): boolean => [...f.tracked.values()].some(isFunded);
/** The quote of `p` has expired at `nowMs` (a payment without a quote expiry never has). */
export function isQuoteExpired(p: Payment, nowMs: number): boolean {
  const at = quoteExpiresAtMs(p);
  return at !== null && nowMs >= at;
}

/** Why a cancel cannot be accepted now, or null. */
export function cancelBlocker(f: PaymentFacts): string | null {
  if (f.outcome) return `the payment already ended: ${f.outcome.outcome}`;
  if (fundsIn(f)) return 'funds are in: the payment can no longer be cancelled';
  // spec: States and transitions, rule 1 — a pull payment moves the funds when it is created; a create whose
  // outcome is unknown (NEEDS_ATTENTION) may have made one we never saw
  if ((f.tracked.size > 0 || f.attention !== null) && pullsFromAccount(f.request))
    return 'a payment pulled from an account moves its funds when created: it cannot be cancelled';
  // After the provider's EXPIRED a refund of late funds may still come (spec: States and transitions, row 4).
  if (activeOf(f)?.status === 'EXPIRED')
    return 'the provider expired the payment: it is followed until a late refund could no longer arrive';
  return null;
}

/** Why the `cancel` update is refused, or null: a blocker, or a cancel already accepted or being applied. */
export function cancelRefusal(f: PaymentFacts): string | null {
  const blocker = cancelBlocker(f);
  if (blocker) return blocker;
  if (f.cancel?.decision === 'ACCEPTED') return 'the payment is already cancelled';
  if (f.cancel) return 'a cancel is already being applied';
  return null;
}

/** Why a requote cannot go on now, or null (spec: States and transitions; docs/spec-gaps.md, "Requote"). */
export function requoteBlocker(f: PaymentFacts, nowMs: number): string | null {
  if (f.outcome) return `the payment already ended: ${f.outcome.outcome}`;
  if (fundsIn(f)) return 'funds are in: the quote is already used';
  if (f.cancel) return 'the payment is being cancelled or was cancelled';
  if (f.attention) return 'a create of this payment needs an operator first';
  if (f.phase !== 'AWAITING_FUNDS' && f.phase !== 'QUOTE_EXPIRED')
    return `nothing to requote in phase ${f.phase}`;
  if (pullsFromAccount(f.request)) return 'a payment pulled from an account has no quote to wait on';
  const p = activeOf(f);
  // A second set of live funding instructions invites two payments: a requote waits for the quote's end.
  if (p && !isQuoteExpired(p, nowMs))
    return `the quote is still valid until ${p.quote?.expiresAt ?? '?'}: requote once it has expired`;
  return null;
}

/** Why a requote in flight must not make its new payment live, or null. Checked after every await. */
export function requoteLostTo(f: PaymentFacts): string | null {
  if (f.outcome) return `the payment ended (${f.outcome.outcome}) while the requote was in flight`;
  const funded = [...f.tracked.values()].find(isFunded);
  if (funded) return `funds arrived on ${funded.id} while the requote was in flight`;
  if (f.cancel) return 'a cancel came while the requote was in flight';
  return null;
}

/** What is wrong with the shape of an operator's `resolveCreate` decision, or null. */
export function resolveShapeProblem(decision: ResolveCreateDecision): string | null {
  const d = decision as { providerPaymentId?: unknown; noPaymentCreated?: unknown; reason?: unknown } | null;
  const ok =
    (typeof d?.providerPaymentId === 'string' && d.providerPaymentId.length > 0) ||
    (d?.noPaymentCreated === true && typeof d.reason === 'string');
  return ok ? null : 'pass { providerPaymentId } or { noPaymentCreated: true, reason }';
}
