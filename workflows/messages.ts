// Everything a client needs to talk to the workflows: IDs, signals, queries, updates, search-attribute
// keys and the input/output types. Pure: importable from workflow code and from clients alike. Each workflow's
// own (ID, messages, input/output types) are in its folder's api.ts (workflows/<name>/api.ts).
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Payment, Violation } from '../src/contract';
import type { PaymentPhase, PushMismatch, TimelineEntry } from './types';

export * from './types';
// Types only: the zod schemas of inputs.ts are for clients (src/client re-exports them); no zod in workflow code.
export type * from './inputs';

// ---- workflow IDs (business keys; ARCHITECTURE: Workflows) ----

export const onboardCustomerWorkflowId = (customerKey: string): string => `customer:${customerKey}`;
export const registerAccountWorkflowId = (accountKey: string): string => `account:${accountKey}`;
export const transferWorkflowId = (transferKey: string): string => `transfer:${transferKey}`;

// ---- search attributes (registered by the dev stack and temporal-docker): see search-attributes.ts ----

export * from './search-attributes';

// ---- providerPayment / providerCustomer entities: workflows/provider-payment/api.ts, workflows/provider-customer/api.ts ----


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
