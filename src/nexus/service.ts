// The `xborder` Nexus service as callers see it: its name, operations and their input/output types. A backend
// that is itself a Temporal application imports this module in its workflow code
// (`workflow.createNexusServiceClient({ service: xborderNexusService, endpoint: XBORDER_NEXUS_ENDPOINT })`),
// so it loads nothing but nexus-rpc and types: no zod, no client, no Node built-ins (it runs in a workflow bundle).
// The handlers are in ./handlers.ts (served by the worker).
import * as nexus from 'nexus-rpc';
import type { PaymentCreated, PaymentOutcome, PaymentState } from '../../workflows/payment/api';
import type { StartPaymentInput } from '../../workflows/inputs';

// The operations' input and output types, so a caller's workflow code names what it sends and gets back.
export type { StartPaymentInput, PaymentCreated, PaymentOutcome, PaymentState };

/** The service's name: what the endpoint routes on. */
export const XBORDER_NEXUS_SERVICE = 'xborder';
/**
 * The endpoint name `xborder dev` creates. The endpoint is the caller's identity: on a cluster each calling team has
 * its own (docs/deployment.md, "Nexus endpoint"), and names it here instead.
 */
export const XBORDER_NEXUS_ENDPOINT = 'xborder';

/** A payment named by the caller's business key (`paymentKey`), or by its workflow ID `payment:<key>`. */
export interface PaymentRef {
  paymentKey: string;
}

/** What the startPayment operation answers: what the client's startPayment answers, less its `result()`. */
export interface StartedPaymentAnswer {
  workflowId: string;
  /** the provider payment, its quote and funding instructions (or the service's refusal): PaymentCreated */
  created: PaymentCreated;
}

/**
 * Every operation acts only on payments the caller started: the caller is the Nexus endpoint its request came
 * through (one endpoint per calling team, SECURITY.md "Nexus"); another caller's payment is answered as a key never
 * used (PAYMENT_NOT_FOUND), and its key cannot be started again (IDEMPOTENCY_KEY_REUSED, nothing more).
 */
export const xborderNexusService = nexus.service(XBORDER_NEXUS_SERVICE, {
  /**
   * Synchronous: the client's startPayment itself (src/client/payments.ts: one validation, update-with-start,
   * the request fingerprint as the same-key rule), answered as soon as the provider payment exists: its id, quote
   * and funding instructions. The same key with the same request attaches to the one payment and gets the same
   * answer; with another request it fails with type IDEMPOTENCY_KEY_REUSED; an input refused before anything
   * started fails with PAYMENT_REQUEST_INVALID (the key stays free). The outcome: paymentOutcome.
   */
  startPayment: nexus.operation<StartPaymentInput, StartedPaymentAnswer>(),
  /**
   * Asynchronous: the payment's outcome, delivered to the caller's workflow by Nexus callback when the payment
   * ends (minutes to days); at once when it has already ended.
   */
  paymentOutcome: nexus.operation<PaymentRef, PaymentOutcome>(),
  /** Synchronous: the payment's state (the client's getPaymentState, `afterOutcome` included). */
  getPaymentState: nexus.operation<PaymentRef, PaymentState>(),
  /**
   * Synchronous: the payment's `cancel` update. Refused (CANCEL_REFUSED) once funds are in; an accepted cancel
   * answers phase CANCELLING, and the startPayment operation later ends with outcome CANCELLED.
   */
  cancelPayment: nexus.operation<PaymentRef & { reason?: string }, PaymentState>(),
});

/**
 * The `type` of the failures the operations raise on purpose, none of them retryable: the caller's
 * NexusOperationFailure carries one of them in its cause chain (read it with `xborderFailureType`).
 */
export const XBORDER_NEXUS_FAILURE_TYPES = {
  /** startPayment: the key is taken by a payment started with another request (the client's IdempotencyKeyReusedError) */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** startPayment: refused before anything started; details[0] holds the violations {path, rule, message} */
  PAYMENT_REQUEST_INVALID: 'PAYMENT_REQUEST_INVALID',
  /** paymentOutcome, getPaymentState, cancelPayment: no payment of this caller has this key (another caller's included) */
  PAYMENT_NOT_FOUND: 'PAYMENT_NOT_FOUND',
  /** cancelPayment: the payment has already ended (details[0].outcome says how) */
  PAYMENT_ALREADY_FINISHED: 'PAYMENT_ALREADY_FINISHED',
  /** cancelPayment: the payment refused the cancel (funds are in) */
  CANCEL_REFUSED: 'CANCEL_REFUSED',
} as const;
/** One of XBORDER_NEXUS_FAILURE_TYPES: what `xborderFailureType` answers. */
export type XborderNexusFailureType =
  (typeof XBORDER_NEXUS_FAILURE_TYPES)[keyof typeof XBORDER_NEXUS_FAILURE_TYPES];

const KNOWN_TYPES = new Set<string>(Object.values(XBORDER_NEXUS_FAILURE_TYPES));

/**
 * The xborder failure type in an error's cause chain (a NexusOperationFailure wraps a HandlerError or an
 * OperationError, which wraps the ApplicationFailure that names it), or null. Reads `type` and `cause` only, so it
 * works on the failures of any SDK package and in workflow code.
 */
export function xborderFailureType(error: unknown): XborderNexusFailureType | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 10; depth++) {
    const type = (current as { type?: unknown }).type;
    if (typeof type === 'string' && KNOWN_TYPES.has(type)) return type as XborderNexusFailureType;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
