// The payment workflow's API (ARCHITECTURE: Workflows): its type name, ID, signals, queries, updates,
// input/output types. Pure definitions: importable from workflow code and from clients alike. The calls a backend
// makes with them (getPaymentState, cancelPayment …) are src/client's.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { Payment, Violation } from '../../src/contract';
import type { PaymentPhase, TimelineEntry } from '../types';
import type { PaymentInput } from '../inputs';

export type { PaymentInput };

/** The workflow type the worker registers (workflows/index.ts exports `payment`). */
export const PAYMENT_WORKFLOW_TYPE = 'payment';

/** `payment:<paymentKey>`: the caller's business key (ARCHITECTURE: Workflows). */
export const paymentWorkflowId = (paymentKey: string): string => `payment:${paymentKey}`;

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
/** One alert of a payment (PaymentAlertKind says which), on its state and its outcome. */
export interface PaymentAlert {
  kind: PaymentAlertKind;
  providerPaymentId: string | null;
  detail: string;
  at: string;
}

/**
 * How a payment ended: the payment workflow's result (awaitPaymentOutcome, StartedPayment.result(), the Nexus
 * paymentOutcome operation), with the provider payment as last read.
 */
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
      /**
       * An accepted cancel, when the answer is given after it (a retried start): the funding instructions are then
       * null — nothing is to be sent to a cancelled payment. Absent while no cancel was accepted.
       */
      cancelled?: { reason: string } | null;
    }
  | { outcome: 'REJECTED'; violations: Violation[] }
  /**
   * POST /payments may have created a payment we could not see: nothing is refused, an operator decides
   * (`resolveCreate`). Show the user "being checked", never "refused".
   */
  | { outcome: 'NEEDS_ATTENTION'; reason: string };

/** The payment now: its phase, provider payment, quote, cancel, alerts, outcome and timeline (the `state` query). */
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
   * a refund after EXPIRED. The outcome itself stays as reported.
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
 * `awaitCreated` for a caller that says which request it sends (startPayment): the validator refuses
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

// A key freed by a refusal before anything was created starts another run of `payment:<key>` (src/client/freed-key.ts):
// its number travels in the memo, and its creates use their own idempotency keys.
/**
 * Memo of a run started on a freed key: which run of the key it is (2, 3 …). The createPayment activity adds it to
 * the service's idempotency key (`…:create:<n>:run<k>`): the service stores its refusal under the first run's key
 * (docs/spec-gaps.md, idempotency: validation errors are stored too), and a corrected body under the same key
 * would be answered 409. A number, no personal data (house rules: memo is not encrypted).
 */
export const KEY_RUN_MEMO = 'xborderKeyRun';

/** The createPayment idempotency key of a run: unchanged for a key's first run (every run started before this existed). */
export function runScopedIdempotencyKey(idempotencyKey: string, keyRun: unknown): string {
  return typeof keyRun === 'number' && Number.isInteger(keyRun) && keyRun >= 2
    ? `${idempotencyKey}:run${keyRun}`
    : idempotencyKey;
}
