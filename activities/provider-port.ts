// The slice of the provider client (src/provider) that activities call. Declared here, structurally,
// so activities depend on a shape and tests can pass a fake; the real `createProviderClient(...)`
// must fit it. Every creating call takes an idempotency key (spec: Authentication 3).
import type {
  Account,
  AccountRequirement,
  CreateAccountRequest,
  CreateCustomerRequest,
  CreatePaymentRequest,
  Corridor,
  Customer,
  Payment,
  Rate,
} from '../src/contract';

export interface IdempotentCallOptions {
  idempotencyKey: string;
  /** false on a retry of a create that may have been committed (activities/payment-activities.ts) */
  prevalidate?: boolean;
}

/** Query of GET /payments/rate (spec: Endpoints; further parameters "not shown"). */
export interface RateQuery {
  sourceCurrency: string;
  destinationCurrency: string;
  sourceRail: string;
  destinationRail: string;
  /** exactly one of the two amounts */
  sourceAmount?: number;
  destinationAmount?: number;
}

/** Query of GET /accounts/requirements (spec: Endpoints). */
export interface RequirementsQuery {
  bankCountryCode: string;
  currencyCode: string;
}

export interface ProviderPort {
  customers: {
    create(body: CreateCustomerRequest, options: IdempotentCallOptions): Promise<Customer>;
    /** GET /customers/:id is not in the spec; a client without it makes reconciliation rely on webhooks. */
    get?(id: string): Promise<Customer>;
  };
  accounts: {
    create(body: CreateAccountRequest, options: IdempotentCallOptions): Promise<Account>;
    requirements(query: RequirementsQuery): Promise<AccountRequirement[]>;
  };
  payments: {
    create(body: CreatePaymentRequest, options: IdempotentCallOptions): Promise<Payment>;
    get(id: string): Promise<Payment>;
    /** GET /payments, every page (reconciliation of lost webhooks, activities/reconcile-activities.ts). */
    listAll?(query?: { limit?: number }): AsyncIterable<Payment>;
    /** GET /payments, one page from `cursor`: the reconcile reads page by page and resumes at its last cursor. */
    list?(query?: {
      limit?: number;
      cursor?: string;
    }): Promise<{ data: Payment[]; nextCursor: string | null }>;
    /** GET /payments/customer/:customerId, every page (an operator's decision checked against the service). */
    listByCustomerAll?(customerId: string, query?: { limit?: number }): AsyncIterable<Payment>;
  };
  rates: {
    get(query: RateQuery): Promise<Rate>;
  };
  /** GET /payments/corridors (quote refresh, activities/quote-activities.ts). */
  corridors: {
    list(): Promise<Corridor[]>;
  };
}

/**
 * What activities read from a thrown provider error (src/provider errors carry these fields).
 * Anything else thrown is treated as an unknown, retryable failure.
 */
export interface ProviderErrorLike {
  type: string;
  message: string;
  retryable: boolean;
  retryAfterMs?: number;
  outcomeUnknown?: boolean;
  status?: number;
  /** every violation the service reported (VALIDATION_ERROR) */
  fields?: { path: string; rule: string; message: string }[];
}
