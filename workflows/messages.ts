// Everything a client needs to talk to the workflows: IDs, signals, queries, updates, search-attribute
// keys and the input/output types. Pure: importable from workflow code and from clients alike.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Payment, Violation } from '../src/contract';
import type { PaymentPhase, TimelineEntry } from './types';

export * from './types';
export * from './inputs';

// ---- workflow IDs (business keys; ARCHITECTURE: Workflows) ----

export const paymentWorkflowId = (paymentKey: string): string => `payment:${paymentKey}`;
export const providerPaymentWorkflowId = (providerPaymentId: string): string =>
  `provider-payment:${providerPaymentId}`;
export const onboardCustomerWorkflowId = (customerKey: string): string => `customer:${customerKey}`;
export const providerCustomerWorkflowId = (providerCustomerId: string): string =>
  `provider-customer:${providerCustomerId}`;
export const registerAccountWorkflowId = (accountKey: string): string => `account:${accountKey}`;
export const transferWorkflowId = (transferKey: string): string => `transfer:${transferKey}`;

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
export const subscribeSignal = defineSignal<[{ workflowId: string }]>('subscribe');

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
}
export const providerPaymentSnapshotQuery = defineQuery<ProviderPaymentSnapshot>('snapshot');

// ---- payment ----

export type PaymentOutcome =
  | { outcome: 'COMPLETED'; payment: Payment }
  | { outcome: 'FAILED'; code: string | null; payment: Payment }
  | { outcome: 'EXPIRED'; payment: Payment }
  | { outcome: 'REFUNDED'; code: string | null; payment: Payment }
  | { outcome: 'REJECTED'; violations: Violation[]; payment: Payment | null }
  | { outcome: 'CANCELLED'; reason: string; payment: Payment | null };

/** What a backend shows its user right after start (update-with-start on `awaitCreated`). */
export type PaymentCreated =
  | {
      outcome: 'CREATED';
      providerPaymentId: string;
      quote: Payment['quote'];
      fundingInstructions: Payment['fundingInstructions'];
      fee: Payment['fee'];
      fundingDeadline: string | null;
      /** true when source.accountId is set: funds are pulled at once, nothing to send */
      pulledFromAccount: boolean;
    }
  | { outcome: 'REJECTED'; violations: Violation[] };

export interface PaymentState {
  workflowId: string;
  phase: PaymentPhase;
  providerPaymentId: string | null;
  providerStatus: string | null;
  quote: Payment['quote'] | null;
  fundingInstructions: Payment['fundingInstructions'] | null;
  fundingDeadline: string | null;
  customerId: string;
  requotes: number;
  /** payments replaced by a requote, still tracked until they expire */
  superseded: { id: string; status: string }[];
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
/** Resolves once the provider payment exists (or the payment was refused). */
export const awaitCreatedUpdate = defineUpdate<PaymentCreated>('awaitCreated');
/** Refused (ApplicationFailure CANCEL_REFUSED) once funds are in. */
export const cancelUpdate = defineUpdate<PaymentState, [{ reason?: string }]>('cancel');
/** A new provider payment with a fresh quote; refused (REQUOTE_REFUSED) once funds are in. */
export const requoteUpdate = defineUpdate<PaymentCreated>('requote');

/** ApplicationFailure types the payment workflow's updates and steps raise. */
export const PAYMENT_FAILURE_TYPES = {
  CANCEL_REFUSED: 'CANCEL_REFUSED',
  REQUOTE_REFUSED: 'REQUOTE_REFUSED',
  INVALID_INPUT: 'INVALID_INPUT',
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

// ---- transfer ----

export type TransferStep = 'ONBOARDING' | 'REGISTERING' | 'PAYING' | 'DONE';
export interface TransferState {
  step: TransferStep;
  customerId: string | null;
  accountId: string | null;
  paymentWorkflowId: string | null;
  /** a Temporal cancel came while paying: the payment goes on, the transfer follows it (issue 9, point 2) */
  cancelRequested?: boolean;
}
/** Where a transfer is: clients (the demo of npm start, backends) follow its steps with it. */
export const transferStateQuery = defineQuery<TransferState>('transferState');
