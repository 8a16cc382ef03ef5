// The payment-reconcile Schedule: runs `reconcilePayments` every `everyMs`, so a PAYIN whose
// webhook was lost (Temporal down for longer than the sender retried) still reaches its entity. Created or
// updated idempotently, like the quote-refresh Schedule.
import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { ensureDefaultSchedule, ensureSchedule, type ScheduleToEnsure } from './ensure-schedule';
import { RECONCILE_PAYMENTS_WORKFLOW_TYPE } from '../../workflows/reconcile-payments/api';
import { scheduleActionWorkflowId } from '../codec/schedule-binding';
import { ReconcilePaymentsInputSchema, type ReconcilePaymentsInput } from '../../workflows/inputs';

export const RECONCILE_SCHEDULE_ID = 'payment-reconcile';
/** How often the sweep runs unless the caller says otherwise. */
export const RECONCILE_EVERY_MS = 15 * 60_000;
/** @deprecated the workflow's own name: RECONCILE_PAYMENTS_WORKFLOW_TYPE (workflows/reconcile-payments/api.ts) */
export const RECONCILE_WORKFLOW_TYPE = RECONCILE_PAYMENTS_WORKFLOW_TYPE;

export interface ReconcileScheduleOptions {
  taskQueue: string;
  /** default payment-reconcile, or payment-reconcile-<task queue> when another task queue's deployment runs that one */
  scheduleId?: string;
  /** default 15 minutes */
  everyMs?: number;
  /** passed to the workflow: payments created this long ago or later (default 6 hours) */
  windowMs?: number;
}

/**
 * Creates the Schedule, or updates it when it exists on this task queue. Under the default ID, one that another
 * task queue's deployment runs is left to it and this task queue gets `payment-reconcile-<task queue>` (`instead`
 * says so); an ID given here is never replaced (ScheduleOfAnotherTaskQueueError).
 */
export async function ensureReconcileSchedule(
  client: Client,
  options: ReconcileScheduleOptions,
): Promise<{ scheduleId: string; created: boolean; instead?: string }> {
  const everyMs = options.everyMs ?? RECONCILE_EVERY_MS;
  // zod at the edge: the workflow takes its input as parsed here
  const input: ReconcilePaymentsInput = ReconcilePaymentsInputSchema.parse(
    options.windowMs ? { windowMs: options.windowMs } : {},
  );
  const schedule: ScheduleToEnsure = {
    taskQueue: options.taskQueue,
    note: 'payment reconcile (xborder)',
    parts: (scheduleId) => ({
      spec: { intervals: [{ every: everyMs }] },
      action: {
        type: 'startWorkflow' as const,
        workflowType: RECONCILE_PAYMENTS_WORKFLOW_TYPE,
        // runs `schedule:<id>-<time>`: the reserved form under which the runs read the action's arguments (src/codec/schedule-binding.ts)
        workflowId: scheduleActionWorkflowId(scheduleId),
        taskQueue: options.taskQueue,
        args: [input],
        workflowExecutionTimeout: Math.max(everyMs * 2, 20 * 60_000),
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    }),
  };
  return options.scheduleId === undefined
    ? ensureDefaultSchedule(client, RECONCILE_SCHEDULE_ID, schedule)
    : ensureSchedule(client, options.scheduleId, schedule);
}
