// Where each webhook event goes: the entity workflow of the resource it is about, by signalWithStart,
// so an event that arrives before anyone knows the resource (or for one nobody here started: PAYIN,
// automatic conversion) starts the entity instead of being lost (ARCHITECTURE: providerPayment).
import type { Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { WebhookEvent } from '../contract';
import { providerPaymentEventSignal, providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { customerEventSignal, providerCustomerWorkflowId } from '../../workflows/provider-customer/api';
import { fairnessPriority } from '../client/fairness';

export interface RoutedEvent {
  workflowId: string;
  deliver(): Promise<void>;
}

export interface EventRouter {
  /** null: no workflow follows this kind of event (it is acknowledged and logged). */
  route(event: WebhookEvent): RoutedEvent | null;
}

export const PROVIDER_PAYMENT_WORKFLOW_TYPE = 'providerPayment';
export const PROVIDER_CUSTOMER_WORKFLOW_TYPE = 'providerCustomer';

function resourceId(event: WebhookEvent): string | null {
  const id = (event.data as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

function customerIdOf(event: WebhookEvent): string | null {
  const id = (event.data as { customerId?: unknown }).customerId;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/**
 * Thrown by a router whose Temporal client could not be made. The handler answers it 503 with a fixed text: the
 * cause (which may quote connection or codec configuration) goes to the log, never into an HTTP answer.
 */
export class TemporalUnavailableError extends Error {
  constructor(readonly causeText: string) {
    super('Temporal is not reachable');
    this.name = 'TemporalUnavailableError';
  }
}

/** Routes payment.* to `provider-payment:<id>` and customer.* to `provider-customer:<id>`. */
export function createTemporalRouter(clientOrConnect: Client | (() => Promise<Client>), taskQueue: string): EventRouter {
  // A function is called at the first delivery, so only a verified webhook makes the Temporal connection (Lambda).
  const clientNow = async (): Promise<Client> => (typeof clientOrConnect === 'function' ? clientOrConnect() : clientOrConnect);
  // Explicit policies: an event for a running entity joins it; an event after the entity closed starts a
  // new run, which re-reads the payment first (so a late event is never lost).
  const policies = {
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  } as const;
  return {
    route(event) {
      const id = resourceId(event);
      if (!id) return null;
      if (event.type.startsWith('payment.')) {
        const workflowId = providerPaymentWorkflowId(id);
        return {
          workflowId,
          deliver: async () => {
            const client = await clientNow();
            await client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
              workflowId,
              taskQueue,
              args: [{ providerPaymentId: id }],
              signal: providerPaymentEventSignal,
              signalArgs: [{ eventId: event.id, type: event.type, createdAt: event.createdAt, payment: event.data }],
              ...policies,
              // issue 14: an entity the webhook starts gets the customer's fairness key (one the payment started
              // as its child inherited the payment's); a start of an existing run ignores it
              ...fairnessPriority(customerIdOf(event)),
            });
          },
        };
      }
      if (event.type.startsWith('customer.')) {
        const workflowId = providerCustomerWorkflowId(id);
        return {
          workflowId,
          deliver: async () => {
            const client = await clientNow();
            await client.workflow.signalWithStart(PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
              workflowId,
              taskQueue,
              args: [{ customerId: id }],
              signal: customerEventSignal,
              signalArgs: [{ eventId: event.id, type: event.type, createdAt: event.createdAt, customer: event.data }],
              ...policies,
              ...fairnessPriority(id), // issue 14: the customer's own fairness key
            });
          },
        };
      }
      return null;
    },
  };
}
