// On a failed chaos check, what the unfinished payments looked like before the harness stops the engine: the
// driver's own progress, the workflow's state (describe), the pending activities, a compact history and the
// sandbox's payments carrying the run's reference. Without it a "lost" payment says nothing about why.
import { temporal } from '@temporalio/proto';
import type { LocalStack } from '../../src/cli/stack';
import type { PaymentRun } from './workload';

const EventType = temporal.api.enums.v1.EventType;
const MAX_EVENTS = 80;

/** One line per history event: id, type, and the failure or the update/signal/activity name when it has one. */
function eventLine(event: temporal.api.history.v1.IHistoryEvent): string {
  const type = (EventType[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');
  const a = event as Record<string, unknown>;
  const attrs = Object.entries(a).find(([k, v]) => k.endsWith('EventAttributes') && v)?.[1] as
    | Record<string, unknown>
    | undefined;
  const detail: string[] = [];
  const name =
    (attrs?.activityType as { name?: string } | undefined)?.name ??
    (attrs?.workflowType as { name?: string } | undefined)?.name ??
    (attrs?.signalName as string | undefined) ??
    (attrs?.acceptedRequest as { input?: { name?: string } } | undefined)?.input?.name ??
    (attrs?.markerName as string | undefined);
  if (name) detail.push(name);
  const failure =
    (attrs?.failure as { message?: string } | undefined)?.message ??
    (attrs?.cause !== undefined && type.includes('FAILED') ? `cause ${String(attrs.cause)}` : undefined);
  if (failure) detail.push(`failure: ${failure.slice(0, 200)}`);
  if (type === 'WORKFLOW_TASK_TIMED_OUT' || type === 'ACTIVITY_TASK_TIMED_OUT')
    detail.push(`timeout ${String(attrs?.timeoutType ?? '')}`);
  const at = event.eventTime?.seconds
    ? new Date(Number(event.eventTime.seconds) * 1000).toISOString().slice(11, 19)
    : '';
  return `      #${String(event.eventId)} ${at} ${type}${detail.length ? ` (${detail.join('; ')})` : ''}`;
}

/** The dump for the runs without an outcome (empty when there are none). Never throws. */
export async function describeUnfinished(stack: LocalStack, runs: PaymentRun[]): Promise<string[]> {
  const lines: string[] = [];
  const unfinished = runs.filter((r) => !r.outcome);
  if (unfinished.length === 0) return lines;
  const byReference = new Map<string, string[]>();
  try {
    for await (const p of stack.provider.payments.listAll()) {
      const ref = (p as { reference?: string | null }).reference;
      if (ref)
        byReference.set(ref, [
          ...(byReference.get(ref) ?? []),
          `${p.id} ${(p as { status?: string }).status ?? '?'}`,
        ]);
    }
  } catch (error) {
    lines.push(`   (sandbox not listed: ${String(error).slice(0, 200)})`);
  }
  for (const run of unfinished.slice(0, 5)) {
    lines.push(
      `   unfinished ${run.workflowId} (${run.kind}): driver stage ${run.stage}, ${run.startRetries} start retries, provider payment ${run.providerPaymentId ?? '-'}, error ${run.error ?? '-'}`,
    );
    lines.push(
      `     sandbox payments with reference ${run.key}: ${(byReference.get(run.key) ?? []).join(', ') || 'none'}`,
    );
    const handle = stack.client.workflow.getHandle(run.workflowId);
    try {
      const d = await handle.describe();
      const raw = d.raw;
      lines.push(
        `     workflow: ${d.status.name}, run ${d.runId}, history length ${d.historyLength}, pending workflow task ${raw.pendingWorkflowTask ? `${String(raw.pendingWorkflowTask.state)} attempt ${String(raw.pendingWorkflowTask.attempt)}` : 'none'}`,
      );
      for (const a of raw.pendingActivities ?? [])
        lines.push(
          `     pending activity ${a.activityType?.name ?? '?'}: state ${String(a.state)}, attempt ${String(a.attempt)}, last failure ${a.lastFailure?.message?.slice(0, 200) ?? '-'}`,
        );
    } catch (error) {
      lines.push(`     describe: ${String(error).slice(0, 200)}`);
      continue;
    }
    try {
      const history = await handle.fetchHistory();
      const events = history.events ?? [];
      const shown =
        events.length > MAX_EVENTS
          ? [...events.slice(0, MAX_EVENTS / 2), ...events.slice(-MAX_EVENTS / 2)]
          : events;
      if (events.length > MAX_EVENTS)
        lines.push(`     history (first and last ${MAX_EVENTS / 2} of ${events.length} events):`);
      else lines.push(`     history (${events.length} events):`);
      for (const e of shown) lines.push(eventLine(e));
    } catch (error) {
      lines.push(`     history: ${String(error).slice(0, 200)}`);
    }
  }
  if (unfinished.length > 5) lines.push(`   … and ${unfinished.length - 5} more unfinished payments`);
  return lines;
}
