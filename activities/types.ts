// Activity interfaces as the workflows see them (workflows import this file with `import type` only).
// Activities are thin: one provider call each, no retries of their own (Temporal retries them).
import type {
  Account,
  AccountRequirement,
  CreateAccountRequest,
  CreateCustomerRequest,
  CreatePaymentRequest,
  Customer,
  Payment,
  Rate,
  Violation,
} from '../src/contract';
import type { RateQuery, RequirementsQuery } from './provider-port';

export type { RateQuery, RequirementsQuery };

export interface PaymentActivities {
  /** GET /payments/rate */
  getRate(query: RateQuery): Promise<Rate>;
  /**
   * The contract's rules for a payment request at `asOf` (ISO; the workflow's clock, so the dated rules of the
   * spec apply by the date of the run): the violations, empty when valid. No I/O; a local activity, so that the
   * workflow bundle never loads the request shapes (src/contract/validate-payment.ts).
   */
  validatePaymentRequest(request: unknown, asOf: string): Promise<Violation[]>;
  /** POST /payments with X-Idempotency-Key; a retry after an unknown outcome reuses the same key. */
  createPayment(request: CreatePaymentRequest, idempotencyKey: string): Promise<Payment>;
  /** GET /payments/:id, normalised to the current shape. */
  getPayment(id: string): Promise<Payment>;
  /**
   * The service's payments of this request's customer that fit the request (workflows/payment/resolve-rules.ts,
   * adoptionMismatches) and were created at or after `createdAfter` (ISO): what an operator's "no payment was created"
   * is checked against. GET /payments/customer/:customerId; null when the request names no customer (nothing to
   * search by). A search that cannot be made whole (no such list, more than 1,000 payments) fails, non-retryable.
   */
  findPaymentsLike(
    request: CreatePaymentRequest,
    createdAfter: string,
  ): Promise<{ id: string; status: string }[] | null>;
  /**
   * POST /payments as `createPayment`, then the caller follows the new payment's entity with one signalWithStart
   * (a start-or-subscribe that cannot fail, and no child start). The entity is never a child: it
   * outlives the caller and no cancel of the caller reaches it. A failed signalWithStart is returned
   * (`followed: false`), never thrown: the payment is created and the caller follows it another way.
   */
  createPaymentAndFollow(
    request: CreatePaymentRequest,
    idempotencyKey: string,
    follow: FollowEntity,
  ): Promise<{ payment: Payment; followed: boolean; error?: string }>;
}

/** How the entity of a new provider payment is started or subscribed to (createPaymentAndFollow). */
export interface FollowEntity {
  /** the workflow that follows it (gets its changes) */
  subscriber: string;
  /** the subscriber's priority (fairness key): a child inherited it; a signalWithStart is given it */
  priority?: { priorityKey?: number; fairnessKey?: string; fairnessWeight?: number };
  /** the subscriber asked for outbound events (workflows/provider-payment/api.ts, LateEventsFor) */
  events?: { paymentKey: string; endpointUrl: string | null };
}

export interface CustomerActivities {
  /** POST /customers with X-Idempotency-Key. */
  createCustomer(body: CreateCustomerRequest, idempotencyKey: string): Promise<Customer>;
  /** Not in the spec: fails with type NOT_SUPPORTED (non-retryable) when the client has no GET. */
  getCustomer(id: string): Promise<Customer>;
}

export interface AccountActivities {
  /** GET /accounts/requirements */
  getAccountRequirements(query: RequirementsQuery): Promise<AccountRequirement[]>;
  /** POST /accounts with X-Idempotency-Key. */
  createAccount(body: CreateAccountRequest, idempotencyKey: string): Promise<Account>;
}

export type AllActivities = PaymentActivities & CustomerActivities & AccountActivities;

/** ApplicationFailure types thrown by activities (besides the provider's own error types). */
export const ACTIVITY_FAILURE_TYPES = {
  /** the provider threw something that is not a typed provider error */
  UNKNOWN: 'PROVIDER_UNKNOWN_ERROR',
  /** the provider client has no such endpoint */
  NOT_SUPPORTED: 'NOT_SUPPORTED',
} as const;
