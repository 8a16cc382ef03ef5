// The providerPayment entity's API (ARCHITECTURE: Workflows): its type name, ID, signals, query, input and the one
// front door every starter uses (the ingress, the reconcile activity, the payment's create-and-follow activity).
// Pure: importable from workflow code and from clients alike; @temporalio/client is imported as a type only.
// What only workflow code calls (the payment telling the entity its own reads) is in tell-entity.ts.
import type { Client } from '@temporalio/client';
import type { Priority, SearchAttributePair } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Payment } from '../../src/contract';
import type { ProviderPaymentInput } from '../inputs';
import type { PushMismatch } from '../types';
import { signalWithStartEntity } from '../entity-front-door';

export type { ProviderPaymentInput } from '../inputs';

/** The workflow type name: the only place it is written (callers import it). */
export const PROVIDER_PAYMENT_WORKFLOW_TYPE = 'providerPayment';

/** `provider-payment:<id>`: the provider's payment id is the business key (ARCHITECTURE: Workflows). */
export const providerPaymentWorkflowId = (providerPaymentId: string): string =>
  `provider-payment:${providerPaymentId}`;

/**
 * A payment webhook event as the ingress delivers it (signalWithStart). The ingress and the activities send the
 * payment parsed at the edge (src/contract's zod schemas: a `Payment`), or null when the body did not fit the
 * contract (the entity then has only the event: a fresh run reads the payment by GET). The entity does not parse
 * it again (one schema language: docs/architecture.md).
 */
export interface ProviderPaymentEvent {
  eventId: string;
  type: string;
  createdAt?: string;
  payment: Payment | null;
  /** the workflow that read it (OBSERVED_EVENT_TYPE): an entity under entity-fewer-actions does not echo it back */
  from?: string;
}
export const providerPaymentEventSignal = defineSignal<[ProviderPaymentEvent]>('event');
/** What a starter sends (signalWithStartProviderPayment): the event, its payment parsed at the edge. */
export type ParsedProviderPaymentEvent = ProviderPaymentEvent;

/**
 * `has`: the payment as the subscriber already has it (the POST's answer). An entity run under
 * `entity-lean-history` merges it and sends the subscriber only what is newer; older runs ignore it.
 * Also the providerCustomer entity's subscribe signal (same name; `has` unused there).
 */
export interface SubscribeRequest {
  workflowId: string;
  /** the Payment as the provider client parsed it */
  has?: Payment;
  /** the subscriber asked for outbound events: a move after it closed is sent as payment.moved_after_outcome */
  events?: LateEventsFor;
}

/** Where a payment's late event goes (its key names its delivery workflow; null endpoint: the worker's default). */
export interface LateEventsFor {
  paymentKey: string;
  endpointUrl: string | null;
}
export const subscribeSignal = defineSignal<[SubscribeRequest]>('subscribe');

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
  /**
   * The subscribers whose late events this entity keeps as its own record (their events registration, kept after they
   * closed; not one only visibility named: facts.ts, ownRegistrations). The last run's result names them, so a run
   * started after it ended finds the payment from a record bound to the entity, before visibility and where visibility
   * names none (a requote's abandoned provider payment: activities/late-events-activities.ts). Absent in old runs.
   */
  eventsFor?: string[];
  seenEventIds: number;
  statusHistory: { at: string; status: string; cause: string }[];
  role: 'ORDERED' | 'PAYIN' | 'CONVERSION' | 'UNKNOWN';
  /** the virtual account joining a PAYIN and its automatic conversion (spec: Payment rule 2) */
  linkAccountId: string | null;
  completedAfterTerminal: boolean;
  /** values of the payment the contract does not know, passed through; absent in old runs */
  unknownValues?: string[];
  /** pushed final statuses waiting for the GET that confirms them (push-confirmation.ts); absent in old runs */
  unconfirmed?: { eventId: string; status: string }[];
  /** pushed final statuses the GET did not bear out: kept, never forwarded (push-confirmation.ts) */
  pushMismatches?: PushMismatch[];
}
export const providerPaymentSnapshotQuery = defineQuery<ProviderPaymentSnapshot>('snapshot');

/** What a starter sends with the start: an event (ingress, reconcile) or a subscription (a payment following it). */
export type ProviderPaymentMessage =
  | { event: ParsedProviderPaymentEvent; subscribe?: never }
  | { subscribe: SubscribeRequest; event?: never };

export interface ProviderPaymentStart {
  taskQueue: string;
  input: ProviderPaymentInput;
  /** what the entity would upsert first (given at start, it upserts nothing) */
  typedSearchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
  staticSummary?: string;
  /** fairness key; a start of an existing run ignores it */
  priority?: Priority;
}

/**
 * The front door: signalWithStart of `provider-payment:<id>`. Explicit policies: a message for a running entity
 * joins it; one after the entity closed starts a new run, which re-reads the payment first — or takes the sweep's
 * listing, a read of ours, as that read (workflow.ts) — so a late event is never lost, and an entity that ended after
 * its linger period starts again for a new subscriber.
 */
export async function signalWithStartProviderPayment(
  client: Pick<Client, 'workflow'>,
  start: ProviderPaymentStart & ProviderPaymentMessage,
): Promise<void> {
  const { event, subscribe, ...options } = start;
  const workflowId = providerPaymentWorkflowId(start.input.providerPaymentId);
  if (event)
    await signalWithStartEntity(client, PROVIDER_PAYMENT_WORKFLOW_TYPE, {
      workflowId,
      ...options,
      signal: providerPaymentEventSignal,
      signalArgs: [event],
    });
  else
    await signalWithStartEntity(client, PROVIDER_PAYMENT_WORKFLOW_TYPE, {
      workflowId,
      ...options,
      signal: subscribeSignal,
      signalArgs: [subscribe],
    });
}

// ---- the `from` and type of reads told to the entity (tell-entity.ts: the payment workflow's own GET) ----

/** `from` of the reconcile sweep's listing (activities/reconcile-activities.ts): a read, not a push (knowledge.ts). */
export const RECONCILE_SWEEP_READER = 'reconcile-sweep';

/** The event type of a state the payment workflow read itself (the entity records its cause as `reconcile`). */
export const OBSERVED_EVENT_TYPE = 'payment.observed';
