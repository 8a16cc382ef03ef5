// What a payment shows: the `state` query, the created answer, the UI's current details. Pure functions of what the
// payment knows (state.ts holds it); nothing here changes it.
import type { Payment, Violation } from '../../src/contract';
import { fundingDeadlineOf, pullsFromAccount } from '../payment-rules';
import type { TimelineEntry } from '../types';
import type { PaymentAlert, PaymentCreated, PaymentState } from './api';
import { activeOf, type PaymentFacts } from './guards';

/** The facts a view reads besides the guards' (PaymentWorkflowState holds them). */
export interface PaymentViewFacts extends PaymentFacts {
  readonly workflowId: string;
  readonly holidays: ReadonlySet<string>;
  readonly requotes: number;
  readonly alerts: readonly PaymentAlert[];
  readonly timeline: readonly TimelineEntry[];
  readonly created: PaymentCreated | null;
  readonly attention: { readonly reason: string; readonly first: boolean } | null;
}

/** The funding deadline of a provider payment, on the payment's calendar. */
export function fundingDeadline(p: Payment | null, holidays: ReadonlySet<string>): Date | null {
  return p ? fundingDeadlineOf(p, holidays) : null;
}

/** What `awaitCreated` answers for a created provider payment: what a user must be shown before funding. */
export function createdAnswerOf(
  p: Payment,
  holidays: ReadonlySet<string>,
): PaymentCreated & { outcome: 'CREATED' } {
  return {
    outcome: 'CREATED',
    providerPaymentId: p.id,
    quote: p.quote,
    fundingInstructions: p.fundingInstructions,
    fee: p.fee,
    feeCurrencyCode: p.source?.currencyCode ?? null,
    destinationAmount: p.destination?.amount ?? null,
    destinationCurrencyCode: p.destination?.currencyCode ?? null,
    fundingDeadline: fundingDeadline(p, holidays)?.toISOString() ?? null,
    pulledFromAccount: pullsFromAccount(p),
  };
}

/** awaitCreated's answer once there is one; null while it waits. */
export function createdAnswerNow(f: PaymentViewFacts): PaymentCreated | null {
  // a retried start after an accepted cancel is told of the cancel, never handed live instructions
  if (f.created && f.cancel?.decision === 'ACCEPTED' && f.created.outcome === 'CREATED')
    return { ...f.created, fundingInstructions: null, cancelled: { reason: f.cancel.reason } };
  if (f.created) return f.created;
  if (f.attention?.first) return { outcome: 'NEEDS_ATTENTION', reason: f.attention.reason };
  const outcome = f.outcome;
  if (outcome === null) return null;
  const violations: Violation[] =
    outcome.outcome === 'REJECTED'
      ? outcome.violations
      : [
          {
            path: '',
            rule: outcome.outcome,
            message: 'the payment ended before a provider payment was created',
          },
        ];
  return { outcome: 'REJECTED', violations };
}

/** The `state` query. */
export function stateOf(f: PaymentViewFacts): PaymentState {
  const p = activeOf(f);
  return {
    workflowId: f.workflowId,
    phase: f.phase,
    providerPaymentId: p?.id ?? null,
    providerStatus: p?.status ?? null,
    quote: p?.quote ?? null,
    fundingInstructions: p?.fundingInstructions ?? null,
    fundingDeadline: fundingDeadline(p, f.holidays)?.toISOString() ?? null,
    customerId: p?.customerId ?? '',
    requotes: f.requotes,
    superseded: [...f.tracked.values()]
      .filter((t) => t.id !== f.activeId)
      .map((t) => ({ id: t.id, status: t.status })),
    providerError: (p as { error?: unknown } | null)?.error ?? null,
    providerStatusReasons: (p as { statusReasons?: unknown } | null)?.statusReasons ?? null,
    cancel: f.cancel ? { ...f.cancel } : null,
    alerts: [...f.alerts],
    outcome: f.outcome,
    timeline: [...f.timeline],
  };
}

/** The current details the Temporal UI shows (markdown). */
export function currentDetailsOf(f: PaymentViewFacts): string {
  const p = activeOf(f);
  const lines = [`**${f.phase}**`];
  if (p) lines.push(`provider payment ${p.id}: ${p.status}`, `quote expires ${p.quote?.expiresAt ?? '—'}`);
  const deadline = fundingDeadline(p, f.holidays);
  if (deadline && (f.phase === 'AWAITING_FUNDS' || f.phase === 'QUOTE_EXPIRED' || f.phase === 'CANCELLING'))
    lines.push(`funding deadline ${deadline.toISOString()}`);
  if (f.requotes > 0) lines.push(`requotes: ${f.requotes}`);
  return lines.join('\n\n');
}
