import { type Payment } from '../contract/payment';
import { type IdempotencyRecord } from './http/idempotency';
import { type Job } from './scheduler';
import { type Delivery } from './webhooks/delivery';

/** A stored customer: the response object (request fields + id, status, createdAt). */
export type StoredCustomer = Record<string, unknown> & {
  id: string;
  type: string;
  status: string;
  createdAt: string;
};

/** A stored account: the response object (request fields + id, createdAt). */
export type StoredAccount = Record<string, unknown> & {
  id: string;
  type: string;
  createdAt: string;
  customerId?: string;
};

/** What the sandbox knows about a payment beyond its public object. */
export interface PaymentMeta {
  /** Funds held by the payment (pulled from a virtual account or received), to be refunded on failure. */
  fundsHeld: boolean;
  /** The virtual account funds were pulled from, credited back on failure. */
  pulledFrom: string | null;
  /** Failure scripted by a magic value, applied at PROCESSING → SENT. */
  scriptedFailure: string | null;
  fundedAt: string | null;
  fundingSentAt: string | null;
  fundedAmount: number | null;
}

/** Everything that survives a restart (`--data-file`). Object key order is creation order. */
export interface SandboxData {
  version: 1;
  clockNowMs: number;
  customers: Record<string, StoredCustomer>;
  accounts: Record<string, StoredAccount>;
  payments: Record<string, Payment>;
  paymentMeta: Record<string, PaymentMeta>;
  balances: Record<string, number>;
  idempotency: Record<string, IdempotencyRecord>;
  deliveries: Record<string, Delivery>;
  scheduler: { seq: number; jobs: Job[] };
  /** Ids of the demo-data fixtures (GET /sandbox/fixtures). */
  fixtures: Array<{ id: string; kind: string; description: string }>;
}

export function emptyData(clockNowMs: number): SandboxData {
  return {
    version: 1,
    clockNowMs,
    customers: {},
    accounts: {},
    payments: {},
    paymentMeta: {},
    balances: {},
    idempotency: {},
    deliveries: {},
    scheduler: { seq: 0, jobs: [] },
    fixtures: [],
  };
}
