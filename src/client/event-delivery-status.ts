// What an operator needs while a receiver is down (docs/outbound-events.md, "When a backend is not told"): the
// delivery workflow's own state only changes once a whole 2-hour retry window has failed, but Temporal retries the
// POST meanwhile and keeps each attempt's count, failure and next time on the pending activity. Read from
// DescribeWorkflowExecution (no workflow change, no worker needed), the failure decoded with the client's own data
// converter (failure messages are encrypted: src/codec/failure-converter.ts).
import type { Client } from '@temporalio/client';
import { decodeOptionalFailureToOptionalError } from '@temporalio/common/lib/internal-non-workflow';
import { ApplicationFailure } from '@temporalio/common';
import { PAYMENT_EVENTS_WORKFLOW_TYPE, redeliverEventsSignal } from '../../workflows/payment-events/api';

/** The POST of the oldest waiting event, as Temporal retries it now. */
export interface EventDeliveryAttempt {
  /** the attempt running or next to run (1 = the first) */
  attempt: number;
  /** the last attempt's failure: the receiver's status or the network error (never its body) */
  lastError: string | null;
  lastAttemptAt: string | null;
  /** when Temporal runs the next attempt; null while one runs */
  nextAttemptAt: string | null;
  /** RUNNING (a POST in flight) or WAITING (backing off until nextAttemptAt) */
  state: 'RUNNING' | 'WAITING' | 'OTHER';
}

const iso = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): string | null => {
  if (!t || t.seconds === undefined || t.seconds === null) return null;
  return new Date(Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6)).toISOString();
};

/** The delivery's pending POST of `workflowId` (payment-events:<key>); null when none is pending. */
export async function describeEventDelivery(
  client: Client,
  workflowId: string,
): Promise<EventDeliveryAttempt | null> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const pending = description.raw.pendingActivities?.find(
    (a) => a.activityType?.name === 'deliverPaymentEvent',
  );
  if (!pending) return null;
  const error = await decodeOptionalFailureToOptionalError(
    client.workflow.options.loadedDataConverter,
    pending.lastFailure,
  );
  const lastError = !error
    ? null
    : error instanceof ApplicationFailure && error.type
      ? `${error.type}: ${error.message}`
      : error.message;
  // PENDING_ACTIVITY_STATE_STARTED = 2, SCHEDULED = 1 (temporal.api.enums.v1.PendingActivityState)
  const state = pending.state === 2 ? 'RUNNING' : pending.state === 1 ? 'WAITING' : 'OTHER';
  return {
    attempt: pending.attempt ?? 1,
    lastError,
    lastAttemptAt: iso(pending.lastAttemptCompleteTime ?? null),
    nextAttemptAt: state === 'RUNNING' ? null : iso(pending.nextAttemptScheduleTime ?? null),
    state,
  };
}

/**
 * `xborder events redeliver --all`: asks every running delivery workflow (payments' and transfers'; an idle one
 * lingers a day after its last event) to try now. A workflow with nothing waiting ignores the signal. Returns the
 * workflow IDs signalled, so the count printed is of those asked, not of those that held an event.
 */
export async function redeliverAllEvents(client: Client): Promise<string[]> {
  const query = `WorkflowType = '${PAYMENT_EVENTS_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running'`;
  const signalled: string[] = [];
  for await (const wf of client.workflow.list({ query })) {
    try {
      await client.workflow.getHandle(wf.workflowId).signal(redeliverEventsSignal);
      await retryPendingDeliveryNow(client, wf.workflowId);
      signalled.push(wf.workflowId);
    } catch (error) {
      // it closed between the list and the signal: nothing waited
      if ((error as { name?: unknown }).name !== 'WorkflowNotFoundError') throw error;
    }
  }
  return signalled;
}

/**
 * The POST waiting in Temporal's backoff (up to 15 minutes between attempts) runs now: ResetActivity on the delivery
 * workflow's pending `deliverPaymentEvent`. The redeliver signal alone only ends the hourly pause after a failed
 * window. Best effort: false when the server refuses it (a server without the activity API) — the attempt then
 * runs at its scheduled time.
 */
export async function retryPendingDeliveryNow(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflowService.resetActivity({
      namespace: client.options.namespace,
      execution: { workflowId },
      identity: client.options.identity ?? 'xborder events redeliver',
      type: 'deliverPaymentEvent',
    });
    return true;
  } catch {
    return false;
  }
}
