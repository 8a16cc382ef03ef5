// Everything a client needs to talk to the workflows: IDs, signals, queries, updates, search-attribute
// keys and the input/output types. Pure: importable from workflow code and from clients alike. The payment's
// own (ID, messages, input/output types) are in workflows/payment/api.ts.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Payment } from '../src/contract';
import type { PushMismatch } from './types';

export * from './types';
// Types only: the zod schemas of inputs.ts are for clients (src/client re-exports them); no zod in workflow code.
export type * from './inputs';

// ---- workflow IDs (business keys; ARCHITECTURE: Workflows) ----

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
