// What a client needs to talk to the payment workflows and the entities: IDs, signals, queries, updates,
// search-attribute keys and the input/output types (the other workflows' are in workflows/<name>/api.ts).
// Pure: importable from workflow code and from clients alike.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Payment, Violation } from '../src/contract';
import type { PaymentPhase, TimelineEntry } from './types';
import type { PushMismatch } from './types';

export * from './types';
// Types only: the zod schemas of inputs.ts are for clients (src/client re-exports them); no zod in workflow code.
// The inputs of transfer, onboardCustomer, registerAccount, reconcilePayments are in their own api.ts.
export type { PaymentInput, ProviderCustomerInput, ProviderPaymentInput } from './inputs';

// ---- workflow IDs (business keys; ARCHITECTURE: Workflows) ----

export const paymentWorkflowId = (paymentKey: string): string => `payment:${paymentKey}`;
export const providerPaymentWorkflowId = (providerPaymentId: string): string =>
  `provider-payment:${providerPaymentId}`;
export const providerCustomerWorkflowId = (providerCustomerId: string): string =>
  `provider-customer:${providerCustomerId}`;

// ---- search attributes (registered by the dev stack and temporal-docker): see search-attributes.ts ----

export * from './search-attributes';

// ---- providerPayment entity ----

/** A payment webhook event as the ingress delivers it (signalWithStart). `payment` is raw: any payload shape. */
export interface ProviderPaymentEvent {
  eventId: string;
  type: string;
  createdAt?: string;
  payment: unknown;
}
export const providerPaymentEventSignal = defineSignal<[ProviderPaymentEvent]>('event');
/**
 * `has`: the payment as the subscriber already has it (the POST's answer; issue 12). An entity run under
 * `entity-lean-history` merges it and sends the subscriber only what is newer; older runs ignore it.
 */
export const subscribeSignal = defineSignal<[{ workflowId: string; has?: unknown }]>('subscribe');

/** Sent by the entity to its subscribers on every accepted change (and once on subscribe). */
export interface ProviderPaymentChanged {
  providerPaymentId: string;
  payment: Payment;
  cause: 'event' | 'reconcile' | 'subscribe' | 'start';
}
export const providerPaymentChangedSignal = defineSignal<[ProviderPaymentChanged]>('providerPaymentChanged');

export interface ProviderPaymentSnapshot {
  providerPaymentId: string;
  payment: Payment | null;
  subscribers: string[];
  seenEventIds: number;
  statusHistory: { at: string; status: string; cause: string }[];
  role: 'ORDERED' | 'PAYIN' | 'CONVERSION' | 'UNKNOWN';
  /** the virtual account joining a PAYIN and its automatic conversion (spec: Payment rule 2) */
  linkAccountId: string | null;
  completedAfterTerminal: boolean;
  /** values of the payment the contract does not know, passed through (issue 9, point 6); absent in old runs */
  unknownValues?: string[];
  /** pushed final statuses waiting for the GET that confirms them (workflows/push-confirmation.ts); absent in old runs */
  unconfirmed?: { eventId: string; status: string }[];
  /** pushed final statuses the GET did not bear out: kept, never forwarded (workflows/push-confirmation.ts) */
  pushMismatches?: PushMismatch[];
}
export const providerPaymentSnapshotQuery = defineQuery<ProviderPaymentSnapshot>('snapshot');

// ---- payment ----

/**
 * Something a payment team must look at, never dropped: surfaced in the state, on the outcome, in the worker
 * log (log.warn) and counted (xborder_payment_alerts_total, workflows/payment-metrics-interceptor.ts).
 * DOUBLE_FUNDED: funds arrived on two of the payment's provider payments (a requote raced the funding).
 * FUNDED_AFTER_CANCEL: the cancel was accepted, then funds arrived anyway; the payment is followed to its real end.
 * CREATE_OUTCOME_UNKNOWN: POST /payments may have created a payment we never saw (phase NEEDS_ATTENTION).
 * UNKNOWN_STATUS: the provider answered a status the contract does not name; counted as in progress.
 * STILL_MOVING: the followed payment ended, another funded one has not ended in 30 days (phase NEEDS_ATTENTION).
 */
export type PaymentAlertKind =
  | 'DOUBLE_FUNDED'
  | 'FUNDED_AFTER_CANCEL'
  | 'CREATE_OUTCOME_UNKNOWN'
  | 'UNKNOWN_STATUS'
  | 'STILL_MOVING';
export interface PaymentAlert {
  kind: PaymentAlertKind;
  providerPaymentId: string | null;
  detail: string;
  at: string;
}

export type PaymentOutcome = (
  | { outcome: 'COMPLETED'; payment: Payment }
  | { outcome: 'FAILED'; code: string | null; payment: Payment }
  | { outcome: 'EXPIRED'; payment: Payment }
  | { outcome: 'REFUNDED'; code: string | null; payment: Payment }
  | { outcome: 'REJECTED'; violations: Violation[]; payment: Payment | null }
  | { outcome: 'CANCELLED'; reason: string; payment: Payment | null }
) & {
  /** every alert raised while the payment ran (absent on payments recorded before alerts existed) */
  alerts?: PaymentAlert[];
};

/** What a backend shows its user right after start (update-with-start on `awaitCreated`). */
export type PaymentCreated =
  | {
      outcome: 'CREATED';
      providerPaymentId: string;
      quote: Payment['quote'];
      /** null when the payment has already ended (startPayment reached it closed): nothing is to be sent */
      fundingInstructions: Payment['fundingInstructions'] | null;
      /** set by startPayment, never by the workflow, when the payment had already ended: how (null: no outcome) */
      endedWith?: PaymentOutcome['outcome'] | null;
      fee: Payment['fee'];
      /** the fee's currency: the source currency (spec: Payment, fee "total fee (in source currency)"); absent in answers of older runs */
      feeCurrencyCode?: string | null;
      /** what the recipient gets, in destination.currencyCode (the provider payment's destination.amount); absent in older runs */
      destinationAmount?: number | null;
      destinationCurrencyCode?: string | null;
      fundingDeadline: string | null;
      /** true when source.accountId is set: funds are pulled at once, nothing to send */
      pulledFromAccount: boolean;
    }
  | { outcome: 'REJECTED'; violations: Violation[] }
  /**
   * POST /payments may have created a payment we could not see: nothing is refused, an operator decides
   * (`resolveCreate`). Show the user "being checked", never "refused".
   */
  | { outcome: 'NEEDS_ATTENTION'; reason: string };

export interface PaymentState {
  workflowId: string;
  phase: PaymentPhase;
  providerPaymentId: string | null;
  providerStatus: string | null;
  /** the provider's `error` and `statusReasons` of the followed payment, passed through as they came (spec: Payment, rule 3) */
  providerError?: unknown;
  providerStatusReasons?: unknown;
  quote: Payment['quote'] | null;
  fundingInstructions: Payment['fundingInstructions'] | null;
  fundingDeadline: string | null;
  customerId: string;
  requotes: number;
  /** payments replaced by a requote (or created by a requote that lost a race), still tracked until they expire */
  superseded: { id: string; status: string }[];
  /** the accepted or pending cancel, and who asked (the `cancel` update or a Temporal cancel request) */
  cancel?: {
    reason: string;
    decision: 'PENDING' | 'ACCEPTED' | 'REFUSED';
    via: 'UPDATE' | 'TEMPORAL_CANCEL';
  } | null;
  alerts?: PaymentAlert[];
  outcome: PaymentOutcome | null;
  timeline: TimelineEntry[];
  /**
   * Set by the client's getPaymentState, never by the workflow: once the payment has an outcome, what its
   * providerPayment entity has seen since, when it differs — a return by the receiving bank after COMPLETED,
   * a refund after EXPIRED (issue 9, point 8). The outcome itself stays as reported.
   */
  afterOutcome?: { providerStatus: string; code: string | null; payment: Payment } | null;
}

export const paymentStateQuery = defineQuery<PaymentState>('state');
/**
 * What `awaitCreated` answers (or would answer now): null while it would still wait. startPayment reads it from
 * a payment that closed before its call reached it (a retry after no answer): the same answer, never a refusal.
 */
export const createdAnswerQuery = defineQuery<PaymentCreated | null>('createdAnswer');
/** Resolves once the provider payment exists (or the payment was refused, or needs an operator). */
export const awaitCreatedUpdate = defineUpdate<PaymentCreated>('awaitCreated');
/**
 * `awaitCreated` for a caller that says which request it sends (startPayment, issue 12): the validator refuses
 * it (IDEMPOTENCY_KEY_REUSED) when the fingerprint (workflows/request-fingerprint.ts) is not the workflow's own
 * input's. A worker running code from before it has no handler and refuses it: the client then checks the old way.
 */
export const awaitCreatedForRequestUpdate = defineUpdate<PaymentCreated, [{ requestFingerprint: string }]>(
  'awaitCreatedForRequest',
);
/**
 * Accepted only before funds are in (else refused, ApplicationFailure CANCEL_REFUSED). An accepted cancel puts
 * the payment in phase CANCELLING at once; the workflow keeps listening until the provider says its payment can no
 * longer be funded (EXPIRED, or a cancelled status), then ends CANCELLED (workflows/README.md). A Temporal cancel request on the workflow is treated the same way.
 */
export const cancelUpdate = defineUpdate<PaymentState, [{ reason?: string }]>('cancel');
/**
 * A new provider payment with a fresh quote, once the current quote has expired; refused (REQUOTE_REFUSED) while
 * the quote is valid and once funds are in. Send it with an update ID (src/client: requotePayment): the same ID
 * never creates a second provider payment.
 */
export const requoteUpdate = defineUpdate<PaymentCreated>('requote');
/**
 * Operator's decision on a payment in NEEDS_ATTENTION: the provider payment the create made (found by the
 * operator, e.g. in GET /payments/customer/:customerId), or that none was made (→ REJECTED).
 */
export type ResolveCreateDecision =
  | { providerPaymentId: string }
  | { noPaymentCreated: true; reason: string };
export const resolveCreateUpdate = defineUpdate<PaymentState, [ResolveCreateDecision]>('resolveCreate');

/** ApplicationFailure types the payment workflow's updates and steps raise. */
export const PAYMENT_FAILURE_TYPES = {
  CANCEL_REFUSED: 'CANCEL_REFUSED',
  REQUOTE_REFUSED: 'REQUOTE_REFUSED',
  RESOLVE_REFUSED: 'RESOLVE_REFUSED',
  INVALID_INPUT: 'INVALID_INPUT',
  /**
   * Raised by the createPayment activity (not retryable): the create failed for good after an attempt that may
   * have reached the service. The payment may exist; the workflow goes to NEEDS_ATTENTION, never REJECTED.
   */
  CREATE_OUTCOME_UNKNOWN: 'CREATE_OUTCOME_UNKNOWN',
  /** `awaitCreatedForRequest` with another request's fingerprint: the key is taken (the client's IdempotencyKeyReusedError) */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
} as const;

// ---- customers ----

export interface ProviderCustomerEvent {
  eventId: string;
  type: string;
  createdAt?: string;
  customer: unknown;
}
/** customer.created / customer.updated webhook, delivered by signalWithStart to `provider-customer:<id>`. */
export const customerEventSignal = defineSignal<[ProviderCustomerEvent]>('customerEvent');
export const customerChangedSignal =
  defineSignal<[{ customerId: string; customer: unknown }]>('customerChanged');
export const customerSnapshotQuery = defineQuery<{
  customerId: string;
  customer: unknown | null;
  subscribers: string[];
}>('customerSnapshot');
