// The outbound events of one payment (docs/outbound-events.md): the delivery workflow's type name, ID, messages,
// input and the helpers callers use. Pure: imported by workflow code, activities, the client and the CLI.
import { defineQuery, defineSignal, type QueryDefinition, type SignalDefinition } from '@temporalio/workflow';
import type { XborderOutboundEvent } from '../../src/contract';

export const PAYMENT_EVENTS_WORKFLOW_TYPE = 'paymentEvents';

/** One delivery workflow per payment: its events are delivered in the order they were handed over. */
export function paymentEventsWorkflowId(paymentKey: string): string {
  return `payment-events:${paymentKey}`;
}

/**
 * A transfer's own events (transfer.*) go through a sibling delivery workflow of the same type, keyed by the
 * transfer: ordered per transfer, as a payment's are per payment (docs/outbound-events.md, "Transfers").
 */
export function transferEventsWorkflowId(transferKey: string): string {
  return `transfer-events:${transferKey}`;
}

/**
 * The PaymentPhase search attribute of a delivery workflow whose oldest event could not be delivered for a whole
 * retry window (`xborder stuck` kind EVENTS_UNDELIVERED). Reusing a registered attribute means no deployment has to
 * register a new one before this code runs (as PUSH_MISMATCH_PHASE does).
 */
export const EVENTS_UNDELIVERED_PHASE = 'EVENTS_UNDELIVERED';

/** An event handed over for delivery; dropped when its id was handed over before (a retried hand-over). */
export const paymentEventSignal = defineSignal<[XborderOutboundEvent]>('paymentEvent');
/** Try the undelivered event now (an operator fixed the endpoint or the receiver): `xborder events redeliver`. */
export const redeliverEventsSignal = defineSignal('redeliverEvents');
export const paymentEventsStateQuery = defineQuery<PaymentEventsSnapshot>('paymentEventsState');

export interface PaymentEventsOptions {
  /** with nothing to deliver for this long, the run ends (a later event starts a new one). Default 1 day. */
  idleCloseMs?: number;
  /** after a whole retry window failed, wait this long (or for a redeliver) before the next window. Default 1 h. */
  retryPauseMs?: number;
  /** continue-as-new after this many delivered events in one run (history stays small). Default 200. */
  continueAsNewAfter?: number;
}

export interface PaymentEventsInput {
  /** the payment's key; for a transfer's delivery workflow (transfer-events:<transferKey>), the transfer's key */
  paymentKey: string;
  /** where this payment's events go; null: the worker's default endpoint (XBORDER_EVENTS_URL) */
  endpointUrl: string | null;
  /** carried over by continue-as-new: events not delivered yet, oldest first */
  pending?: XborderOutboundEvent[];
  /** carried over: ids delivered lately, to drop a hand-over that was retried */
  recentlyDelivered?: string[];
  undeliveredSince?: string | null;
  /** carried over: the highest sequence handed over (a late event is numbered after it) */
  lastSequence?: number;
  options?: PaymentEventsOptions;
}

export interface PaymentEventsSnapshot {
  paymentKey: string;
  endpointUrl: string | null;
  pending: { id: string; type: string; sequence: number }[];
  delivered: number;
  /** the highest sequence handed over to this run or the runs it continued (0: none) */
  lastSequence?: number;
  /** since when the oldest pending event has failed a whole retry window; null when deliveries go through */
  undeliveredSince: string | null;
  lastError: string | null;
  /** ids delivered lately, oldest first (a fresh providerPayment run reads which move was handed over last) */
  recentIds?: string[];
}

/**
 * What the helpers below need of a `Client` (structurally: workflow code may not import @temporalio/client, even as a
 * type — eslint), so a `Client` or a `WorkflowClient`'s owner passes as is.
 */
export interface EventsClient {
  workflow: {
    getHandle(workflowId: string): {
      signal(def: SignalDefinition<[]>): Promise<void>;
      query<R>(def: QueryDefinition<R, []>): Promise<R>;
    };
  };
}

/** Sends the undelivered events of a payment again now (the CLI's `xborder events redeliver <paymentKey>`). */
export async function redeliverPaymentEvents(
  client: EventsClient,
  paymentKey: string,
): Promise<PaymentEventsSnapshot> {
  const handle = client.workflow.getHandle(paymentEventsWorkflowId(paymentKey));
  await handle.signal(redeliverEventsSignal);
  return handle.query(paymentEventsStateQuery);
}

export async function getPaymentEventsState(
  client: EventsClient,
  paymentKey: string,
): Promise<PaymentEventsSnapshot> {
  return client.workflow.getHandle(paymentEventsWorkflowId(paymentKey)).query(paymentEventsStateQuery);
}

/** The transfer's own events (`xborder events redeliver --transfer <transferKey>`). */
export async function redeliverTransferEvents(
  client: EventsClient,
  transferKey: string,
): Promise<PaymentEventsSnapshot> {
  const handle = client.workflow.getHandle(transferEventsWorkflowId(transferKey));
  await handle.signal(redeliverEventsSignal);
  return handle.query(paymentEventsStateQuery);
}

export async function getTransferEventsState(
  client: EventsClient,
  transferKey: string,
): Promise<PaymentEventsSnapshot> {
  return client.workflow.getHandle(transferEventsWorkflowId(transferKey)).query(paymentEventsStateQuery);
}
