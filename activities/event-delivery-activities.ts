// The two activities of outbound events (docs/outbound-events.md): the payment hands an event over to its
// delivery workflow (signalWithStart), and the delivery workflow POSTs it to the backend, signed the Standard
// Webhooks way with the same code the ingress verifies with (src/provider/webhook-signature.ts).
import { Context } from '@temporalio/activity';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { XborderEvent, XborderOutboundEvent, XborderTransferEvent } from '../src/contract';
import { signWebhook } from '../src/provider/webhook-signature';
import {
  PAYMENT_EVENTS_WORKFLOW_TYPE,
  paymentEventSignal,
  paymentEventsStateQuery,
  paymentEventsWorkflowId,
  transferEventsWorkflowId,
  type PaymentEventsInput,
} from '../workflows/payment-events/api';

export const EVENT_DELIVERY_FAILURE_TYPES = {
  /** the receiver answered, not with a 2xx: retried (it may be deploying, or fixed later) */
  RECEIVER_REFUSED: 'EVENT_RECEIVER_REFUSED',
  /** no answer (connection refused, DNS, timeout): retried */
  RECEIVER_UNREACHABLE: 'EVENT_RECEIVER_UNREACHABLE',
  /** the payment names an endpoint this worker has no secret for: not retried; undeliverable until configured */
  ENDPOINT_NOT_CONFIGURED: 'EVENT_ENDPOINT_NOT_CONFIGURED',
} as const;

/** One receiving endpoint and its signing secrets: the first signs; during a rotation both sign (two signatures). */
export interface EventEndpoint {
  url: string;
  secrets: readonly string[];
}

export interface EventDeliveryConfig {
  /** the endpoint of payments started with `events: {}`; null: only per-payment endpoints */
  defaultEndpoint: EventEndpoint | null;
  /** further endpoints a payment may name (`events: { url }`); a url not listed is never called */
  endpoints: readonly EventEndpoint[];
  /** how long one POST may take. Default 10 s. */
  timeoutMs?: number;
}

export interface EventDeliveryActivities {
  /** a payment's event or a transfer's: both go out the same way */
  deliverPaymentEvent(endpointUrl: string | null, event: XborderOutboundEvent): Promise<void>;
}

export interface EventHandOverActivities {
  handOverPaymentEvent(paymentKey: string, endpointUrl: string | null, event: XborderEvent): Promise<void>;
  /**
   * A late event (`payment.moved_after_outcome`, handed over by the providerPayment entity after the payment
   * closed): numbered after the last event the payment's delivery workflow holds (its `sequence` is ignored).
   * Returns the sequence it got.
   */
  handOverLatePaymentEvent(
    paymentKey: string,
    endpointUrl: string | null,
    event: Omit<XborderEvent, 'sequence'>,
  ): Promise<number>;
  /** the transfer's hand-over to `transfer-events:<transferKey>` (a delivery workflow of the same type) */
  handOverTransferEvent(
    transferKey: string,
    endpointUrl: string | null,
    event: XborderTransferEvent,
  ): Promise<void>;
}

/** The endpoint a payment's events go to, or null when this worker may not call it. */
export function endpointFor(config: EventDeliveryConfig, endpointUrl: string | null): EventEndpoint | null {
  if (endpointUrl === null) return config.defaultEndpoint;
  return [config.defaultEndpoint, ...config.endpoints].find((e) => e?.url === endpointUrl) ?? null;
}

/** The three Standard Webhooks headers of one delivery; `webhook-id` is the event's id, stable across retries. */
export function signedHeaders(
  endpoint: EventEndpoint,
  id: string,
  body: string,
  now: Date,
): Record<string, string> {
  const timestampSec = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': endpoint.secrets.map((s) => signWebhook(s, id, timestampSec, body)).join(' '),
  };
}

/**
 * A receiver that is down or answers 5xx is expected (it deploys, it restarts): one log line per attempt, no stack.
 * BENIGN keeps the SDK from logging the failure itself as a warning with its stack (it logs it at DEBUG) and from
 * counting it as an activity error; Temporal retries it all the same (steps/deliver.ts).
 */
function expectedFailure(type: string, message: string, details?: unknown[]): ApplicationFailure {
  const failure = ApplicationFailure.create({
    type,
    message,
    category: ApplicationFailureCategory.BENIGN,
    ...(details ? { details } : {}),
  });
  logOneLine(`outbound event not delivered (attempt ${attemptNumber()}; retried): ${type}: ${message}`);
  return failure;
}

/** `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:4040`, not the whole `TypeError: fetch failed` chain. */
export function networkError(err: unknown): string {
  // duck-typed: undici's errors may come from another realm (instanceof Error fails there)
  type Failure = { code?: unknown; message?: unknown; errors?: unknown };
  const cause = (err as { cause?: unknown } | null)?.cause;
  const inner = (cause !== null && typeof cause === 'object' ? cause : err) as Failure | null;
  const first = Array.isArray(inner?.errors) ? (inner.errors[0] as Failure | undefined) : undefined; // AggregateError
  const code =
    typeof inner?.code === 'string' ? inner.code : typeof first?.code === 'string' ? first.code : null;
  const message =
    [inner?.message, first?.message].find((m): m is string => typeof m === 'string' && m !== '') ??
    String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function attemptNumber(): number | string {
  try {
    return Context.current().info.attempt;
  } catch {
    return '?'; // called outside an activity (a unit test)
  }
}

function logOneLine(line: string): void {
  try {
    Context.current().log.warn(line); // the activity's logger: the workflow ID and activity id come as attributes
  } catch {
    console.warn(line); // outside an activity
  }
}

export function createEventDeliveryActivities(deps: {
  config: EventDeliveryConfig;
  fetch?: typeof fetch;
  now?: () => Date;
}): EventDeliveryActivities {
  const post = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.config.timeoutMs ?? 10_000;
  return {
    async deliverPaymentEvent(endpointUrl, event) {
      const endpoint = endpointFor(deps.config, endpointUrl);
      if (!endpoint) {
        throw ApplicationFailure.create({
          type: EVENT_DELIVERY_FAILURE_TYPES.ENDPOINT_NOT_CONFIGURED,
          message:
            endpointUrl === null
              ? 'no default endpoint: set XBORDER_EVENTS_URL and XBORDER_EVENTS_SECRETS on the worker'
              : 'the payment names an endpoint the worker has no secret for: add it to XBORDER_EVENTS_ENDPOINTS',
          nonRetryable: true,
        });
      }
      const body = JSON.stringify(event);
      let status: number;
      try {
        const response = await post(endpoint.url, {
          method: 'POST',
          headers: signedHeaders(endpoint, event.id, body, now()),
          body,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'manual', // a redirect is an answer, not a new destination (Standard Webhooks: 3xx is a failure)
        });
        status = response.status;
        await response.body?.cancel(); // the receiver's body is never read nor logged
      } catch (err) {
        const name = (err as { name?: unknown }).name;
        throw expectedFailure(
          EVENT_DELIVERY_FAILURE_TYPES.RECEIVER_UNREACHABLE,
          name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `no answer: ${networkError(err)}`,
        );
      }
      if (status < 200 || status > 299) {
        throw expectedFailure(
          EVENT_DELIVERY_FAILURE_TYPES.RECEIVER_REFUSED,
          `the receiver answered ${status}`,
          [{ status }],
        );
      }
    },
  };
}

/**
 * The payment's hand-over (a local activity): signalWithStart of the payment's delivery workflow. Only a signal:
 * it returns once Temporal holds the event, whatever the receiver does.
 */
export function createEventHandOverActivities(
  deps: {
    client?: () => Pick<Client, 'workflow'>;
    taskQueue?: () => string;
  } = {},
): EventHandOverActivities {
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const handOver = async (
    workflowId: string,
    key: string,
    endpointUrl: string | null,
    event: XborderOutboundEvent,
  ) => {
    const input: PaymentEventsInput = { paymentKey: key, endpointUrl };
    await client().workflow.signalWithStart(PAYMENT_EVENTS_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: taskQueue(),
      args: [input],
      signal: paymentEventSignal,
      signalArgs: [event],
      // a run that ended (idle) is followed by a new one; a running one just gets the signal
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    });
  };
  /** The last sequence of the payment's delivery workflow, running or closed (a query replays a closed run). */
  const lastSequence = async (paymentKey: string): Promise<number> => {
    try {
      const snapshot = await client()
        .workflow.getHandle(paymentEventsWorkflowId(paymentKey))
        .query(paymentEventsStateQuery);
      return snapshot.lastSequence ?? Math.max(0, ...snapshot.pending.map((p) => p.sequence));
    } catch (err) {
      // never had one (or past retention): the late event is the first the receiver hears of this payment
      if ((err as { name?: unknown }).name === 'WorkflowNotFoundError') return 0;
      throw err;
    }
  };
  return {
    async handOverLatePaymentEvent(paymentKey, endpointUrl, late) {
      const sequence = (await lastSequence(paymentKey)) + 1;
      await handOver(paymentEventsWorkflowId(paymentKey), paymentKey, endpointUrl, { ...late, sequence });
      return sequence;
    },
    handOverPaymentEvent: (paymentKey, endpointUrl, event) =>
      handOver(paymentEventsWorkflowId(paymentKey), paymentKey, endpointUrl, event),
    handOverTransferEvent: (transferKey, endpointUrl, event) =>
      handOver(transferEventsWorkflowId(transferKey), transferKey, endpointUrl, event),
  };
}
