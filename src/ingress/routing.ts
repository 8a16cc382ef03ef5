// Where each webhook event goes: the entity workflow of the resource it is about, by signalWithStart,
// so an event that arrives before anyone knows the resource (or for one nobody here started: PAYIN,
// automatic conversion) starts the entity instead of being lost (ARCHITECTURE: providerPayment).
import type { Client } from '@temporalio/client';
import {
  CustomerSchema,
  normalizePayment,
  type Customer,
  type Payment,
  type WebhookEvent,
} from '../contract';
import {
  providerCustomerWorkflowId,
  signalWithStartProviderCustomer,
} from '../../workflows/provider-customer/api';
import {
  providerPaymentWorkflowId,
  signalWithStartProviderPayment,
} from '../../workflows/provider-payment/api';
import { fairnessPriority } from '../client/fairness';

export interface RoutedEvent {
  workflowId: string;
  deliver(): Promise<void>;
}

export interface EventRouter {
  /** null: no workflow follows this kind of event (it is acknowledged and logged). */
  route(event: WebhookEvent): RoutedEvent | null;
}

/**
 * The payment an event carries, in the current shape, or null when it does not fit the contract. The contract's one
 * reading of any payment payload (current, transitional or legacy: spec, Payment), as the provider client reads
 * its answers. A payload that does not fit is not refused (a sender does not retry a 4xx, and the event would be
 * lost): the entity gets the event without it and reads the payment by GET when the event starts it.
 */
export function paymentOf(event: WebhookEvent): Payment | null {
  try {
    return normalizePayment(event.data);
  } catch {
    return null;
  }
}

/** The customer an event carries (the contract's CustomerSchema), or null when it does not fit (the entity drops it). */
export function customerOf(event: WebhookEvent): Customer | null {
  const parsed = CustomerSchema.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}

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
export function createTemporalRouter(
  clientOrConnect: Client | (() => Promise<Client>),
  taskQueue: string,
): EventRouter {
  // A function is called at the first delivery, so only a verified webhook makes the Temporal connection (Lambda).
  const clientNow = async (): Promise<Client> =>
    typeof clientOrConnect === 'function' ? clientOrConnect() : clientOrConnect;
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
            await signalWithStartProviderPayment(client, {
              taskQueue,
              input: { providerPaymentId: id },
              event: {
                eventId: event.id,
                type: event.type,
                createdAt: event.createdAt,
                payment: paymentOf(event),
              },
              // an entity the webhook starts gets the customer's fairness key (one the payment started
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
            await signalWithStartProviderCustomer(client, {
              taskQueue,
              input: { customerId: id },
              event: {
                eventId: event.id,
                type: event.type,
                createdAt: event.createdAt,
                customer: customerOf(event),
              },
              ...fairnessPriority(id), // the customer's own fairness key
            });
          },
        };
      }
      return null;
    },
  };
}
