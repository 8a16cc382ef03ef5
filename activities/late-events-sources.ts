// Where a fresh providerPayment entity run learns which payment's backend gets a move after the outcome
// (late-events-activities.ts): the entity's own ended runs (their results), visibility's ProviderPaymentId, and the
// entity's history (the payment's subscribe signal), each read from Temporal with no worker of the payment needed.
import { warnInActivity } from './activity-log';
import { ServiceError, type Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
  subscribeSignal,
  type ProviderPaymentSnapshot,
  type SubscribeRequest,
} from '../workflows/provider-payment/api';
import { ProviderPaymentIdKey } from '../workflows/search-attributes';

export const PAYMENT_ID_PREFIX = 'payment:';

/** A value for a visibility query: provider ids are the service's; quotes are escaped so one can never widen it. */
const quoted = (value: string) => value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** The newest payment workflow whose followed provider payment is `providerPaymentId` (visibility, one page). */
export async function paymentWorkflowOfVisibility(
  client: Client,
  providerPaymentId: string,
): Promise<string | null> {
  const query = `WorkflowType = 'payment' AND ${ProviderPaymentIdKey.name} = '${quoted(providerPaymentId)}'`;
  for await (const execution of client.workflow.list({ query, pageSize: 10 })) return execution.workflowId;
  return null;
}

/** What an ended entity run returned that names its payments (ProviderPaymentSnapshot; `eventsFor` absent in old runs). */
type EndedEntityRun = Partial<Pick<ProviderPaymentSnapshot, 'subscribers' | 'eventsFor'>> | null | undefined;

/** Completed entity runs read at most: one page (a PAYIN's entity, which no payment follows, has nothing to find). */
export const ENTITY_RUNS_READ = 10;

/**
 * The payment whose events the entity's last completed run kept, from that run's result (read from its history: no
 * worker needed). Visibility's ProviderPaymentId names a payment's current provider payment only: after a requote
 * (spec: States and transitions, row 2) the abandoned one's late funds and their refund find no payment by it, but
 * its entity followed the payment and returned whose events it kept (`eventsFor`, newest registration last; a run
 * recorded before that field returned its `subscribers`). Newest run first; a run that names none, or whose result
 * cannot be read for good (gone since it was listed, a payload the codec refuses), gives way to an older one. Temporal
 * not answering (ServiceError) is no answer: thrown, asked again.
 */
export async function paymentWorkflowOfEntityRuns(
  client: Client,
  taskQueue: string,
  providerPaymentId: string,
): Promise<string | null> {
  const entityId = providerPaymentWorkflowId(providerPaymentId);
  // only the entity's own runs on this task queue: a run of another type, or one completed from another task queue
  // (by whoever polls it), is no record of the entity's
  const query =
    `WorkflowId = '${quoted(entityId)}' AND WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' ` +
    `AND TaskQueue = '${quoted(taskQueue)}' AND ExecutionStatus = 'Completed'`;
  let read = 0;
  for await (const run of client.workflow.list({ query, pageSize: ENTITY_RUNS_READ })) {
    if (++read > ENTITY_RUNS_READ) break;
    let ended: EndedEntityRun;
    try {
      // this run's result only: never follow into a later run (a cron or retry chain would wait for it)
      ended = (await client.workflow
        .getHandle(entityId, run.runId, { followRuns: false })
        .result()) as EndedEntityRun;
    } catch (err) {
      if (err instanceof ServiceError) throw err;
      warnInActivity('an ended entity run could not be read; an older one is tried', {
        runId: run.runId,
        error: String(err),
      });
      continue;
    }
    // a result that names `eventsFor` says whose events it kept; only an older one (no such field) its subscribers
    const named = [
      ...namesIn(ended?.eventsFor === undefined ? ended?.subscribers : ended.eventsFor),
    ].reverse();
    const payment = named.find((id) => id.startsWith(PAYMENT_ID_PREFIX));
    if (payment) return payment;
  }
  return null;
}

/** A workflow's payloads as its workers read them: the client's codecs (their order reversed) with its context. */
async function decodedArgs(client: Client, workflowId: string, payloads: Payload[]): Promise<unknown[]> {
  const { loadedDataConverter: converter, namespace } = client.options;
  let decoded = payloads;
  for (const codec of [...converter.payloadCodecs].reverse())
    decoded = await codec.decode(decoded, { type: 'workflow', namespace, workflowId });
  return decoded.map((payload) => converter.payloadConverter.fromPayload(payload));
}

/**
 * Whether `subscriber` subscribed to the entity: a `subscribe` signal naming it in one of the entity's runs on this
 * task queue (one page of runs). The signal is bound to the entity and sent by the payment's worker: a client without
 * xborder's keys cannot write one naming another payment (a copy of a genuine one names its own sender). A payload the
 * codec refuses is no proof.
 */
export async function subscribedBy(
  client: Client,
  taskQueue: string,
  providerPaymentId: string,
  subscriber: string,
): Promise<boolean> {
  const entityId = providerPaymentWorkflowId(providerPaymentId);
  const query =
    `WorkflowId = '${quoted(entityId)}' AND WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' ` +
    `AND TaskQueue = '${quoted(taskQueue)}'`;
  let read = 0;
  for await (const run of client.workflow.list({ query, pageSize: ENTITY_RUNS_READ })) {
    if (++read > ENTITY_RUNS_READ) break;
    const history = await client.workflow.getHandle(entityId, run.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const signal = event.workflowExecutionSignaledEventAttributes;
      if (signal?.signalName !== subscribeSignal.name) continue;
      const named = await decodedArgs(client, entityId, (signal.input?.payloads ?? []) as Payload[]).then(
        ([request]) => (request as Partial<SubscribeRequest> | undefined)?.workflowId,
        () => undefined,
      );
      if (named === subscriber) return true;
    }
  }
  return false;
}

/** The workflow IDs a result names (strings only: a result is data, whatever wrote it). */
function namesIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
