// Which outbound events a payment's change makes, and their bodies (the schema is XborderEventSchema in
// src/contract/outbound-events.ts). Pure and zod-free: the payment workflow runs it at each phase change.
// Only ids, amounts, currencies, statuses and codes leave: no customer data, no caller text (a cancel reason,
// a violation's message), no addresses but the provider's deposit address the payer must send to.
import type { XborderEvent, XborderEventData, XborderEventType } from '../../src/contract';
import type { Payment } from '../../src/contract';
import type { PaymentState } from '../payment/api';

/** What the emitter remembers between changes (one per payment run). */
export interface EmittedSoFar {
  phase: string | null;
  /** provider payments whose payment.created went out (a requote makes a new one) */
  announced: string[];
  fundsAnnounced: boolean;
}

const PHASE_EVENTS: Partial<Record<string, XborderEventType>> = {
  QUOTE_EXPIRED: 'payment.quote_expired',
  IN_PROGRESS: 'payment.funds_received',
  CANCELLING: 'payment.cancel_accepted',
  NEEDS_ATTENTION: 'payment.needs_attention',
  COMPLETED: 'payment.completed',
  FAILED: 'payment.failed',
  EXPIRED: 'payment.expired',
  REFUNDED: 'payment.refunded',
  REJECTED: 'payment.rejected',
  CANCELLED: 'payment.cancelled',
};

/** Phases at which a followed provider payment is live (its funding instructions can be shown). */
const LIVE_PHASES = new Set([
  'AWAITING_FUNDS',
  'QUOTE_EXPIRED',
  'IN_PROGRESS',
  'COMPLETED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
]);

/** The event types this change makes, in order; `so` is updated. */
export function eventTypesFor(so: EmittedSoFar, state: PaymentState): XborderEventType[] {
  const types: XborderEventType[] = [];
  const id = state.providerPaymentId;
  if (id !== null && LIVE_PHASES.has(state.phase) && !so.announced.includes(id) && state.outcome === null) {
    so.announced.push(id);
    types.push('payment.created');
  }
  if (state.phase !== so.phase) {
    so.phase = state.phase;
    const type = PHASE_EVENTS[state.phase];
    // funds_received once: IN_PROGRESS is shown again while another funded payment still moves
    if (type && !(type === 'payment.funds_received' && so.fundsAnnounced)) types.push(type);
    if (type === 'payment.funds_received') so.fundsAnnounced = true;
  }
  return types;
}

function codeOf(state: PaymentState): string | null {
  const o = state.outcome;
  if (o && (o.outcome === 'FAILED' || o.outcome === 'REFUNDED')) return o.code;
  if (o?.outcome === 'REJECTED') return o.violations[0]?.rule ?? null;
  if (state.phase === 'NEEDS_ATTENTION') return state.alerts?.at(-1)?.kind ?? null;
  return null;
}

/** `followed`: the provider payment the workflow follows (its amounts), or null before one exists. */
export function eventData(state: PaymentState, followed: Payment | null): XborderEventData {
  const p = followed ?? state.outcome?.payment ?? null;
  const fi = state.fundingInstructions;
  const amount = (side: { amount: number; currencyCode: string } | null | undefined) =>
    side ? { amount: side.amount, currencyCode: side.currencyCode } : null;
  return {
    phase: state.phase,
    providerPaymentId: state.providerPaymentId,
    providerStatus: state.providerStatus,
    source: amount(p?.source ?? (fi ? { amount: fi.amount, currencyCode: fi.currencyCode } : null)),
    destination: amount(p?.destination),
    fee: p?.fee ?? null,
    quote: state.quote ? { exchangeRate: state.quote.exchangeRate, expiresAt: state.quote.expiresAt } : null,
    fundingInstructions: fi
      ? { rail: fi.rail, amount: fi.amount, currencyCode: fi.currencyCode, toAddress: fi.toAddress }
      : null,
    fundingDeadline: state.fundingDeadline,
    code: codeOf(state),
    requotes: state.requotes,
  };
}

export function eventBody(
  meta: { idPrefix: string; paymentKey: string; sequence: number; occurredAt: string },
  type: XborderEventType,
  state: PaymentState,
  followed: Payment | null,
): XborderEvent {
  return {
    id: `${meta.idPrefix}:${meta.sequence}`,
    type,
    version: 1,
    sequence: meta.sequence,
    occurredAt: meta.occurredAt,
    paymentKey: meta.paymentKey,
    data: eventData(state, followed),
  };
}
