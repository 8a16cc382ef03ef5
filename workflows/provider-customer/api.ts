// The providerCustomer entity's API: its type name, ID, signals, query, input and the one front door the ingress
// uses (customer.created / customer.updated webhooks). Pure: importable from workflow code and from clients alike;
// @temporalio/client is imported as a type only.
import type { Client } from '@temporalio/client';
import type { Priority } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Customer } from '../../src/contract';
import type { ProviderCustomerInput } from '../inputs';
import { signalWithStartEntity } from '../entity-front-door';

export type { ProviderCustomerInput } from '../inputs';
/** The same `subscribe` signal as the providerPayment entity's (an onboarding workflow subscribes with it). */
export { subscribeSignal, type SubscribeRequest } from '../provider-payment/api';

/** The workflow type name: the only place it is written (callers import it). */
export const PROVIDER_CUSTOMER_WORKFLOW_TYPE = 'providerCustomer';

export const providerCustomerWorkflowId = (providerCustomerId: string): string =>
  `provider-customer:${providerCustomerId}`;

/**
 * customer.created / customer.updated as the ingress delivers it: the customer parsed at the edge (the contract's
 * CustomerSchema), or null when the body did not fit it (dropped). The entity does not parse it again.
 */
export interface ProviderCustomerEvent {
  eventId: string;
  type: string;
  createdAt?: string;
  customer: Customer | null;
}
/** customer.created / customer.updated webhook, delivered by signalWithStart to `provider-customer:<id>`. */
export const customerEventSignal = defineSignal<[ProviderCustomerEvent]>('customerEvent');
/** What the ingress sends (signalWithStartProviderCustomer). */
export type ParsedProviderCustomerEvent = ProviderCustomerEvent;
/** Sent by the entity to its subscribers (onboardCustomer) on every accepted change. */
export const customerChangedSignal =
  defineSignal<[{ customerId: string; customer: unknown }]>('customerChanged');
export const customerSnapshotQuery = defineQuery<{
  customerId: string;
  customer: unknown | null;
  subscribers: string[];
}>('customerSnapshot');

/** The review status only moves PENDING_REVIEW → APPROVED | REJECTED (docs/spec-gaps.md, "Customer review status"). */
export function isReviewFinal(customer: { status?: string } | null): boolean {
  return customer?.status === 'APPROVED' || customer?.status === 'REJECTED';
}

/**
 * The front door: signalWithStart of `provider-customer:<id>` with a customer event. A message for a running
 * entity joins it; one after the entity ended starts a new run (a late event is never lost).
 */
export async function signalWithStartProviderCustomer(
  client: Pick<Client, 'workflow'>,
  start: {
    taskQueue: string;
    input: ProviderCustomerInput;
    event: ParsedProviderCustomerEvent;
    priority?: Priority;
  },
): Promise<void> {
  const { input, event, ...options } = start;
  await signalWithStartEntity(client, PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
    workflowId: providerCustomerWorkflowId(input.customerId),
    input,
    signal: customerEventSignal,
    signalArgs: [event],
    ...options,
  });
}
