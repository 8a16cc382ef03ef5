// The reconciliation-report Schedule: runs `reconciliationReport` every day at 01:00 UTC, which writes the report
// of the day before (docs/reconciliation-report.md). Created or updated idempotently, like the payment-reconcile
// Schedule.
import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { z } from 'zod';
import {
  RECONCILIATION_REPORT_WORKFLOW_TYPE,
  type ReconciliationReportInput,
} from '../../workflows/reconciliation-report/api';
import { scheduleActionWorkflowId } from '../codec/schedule-binding';
import { ensureDefaultSchedule, ensureSchedule, type ScheduleToEnsure } from './ensure-schedule';

export const REPORT_SCHEDULE_ID = 'reconciliation-report';

const ReportScheduleOptionsSchema = z.object({
  taskQueue: z.string().min(1),
  /** default reconciliation-report, or reconciliation-report-<task queue> when another task queue's deployment runs that one */
  scheduleId: z.string().min(1).optional(),
  /** the UTC hour of the daily run (default 1: the day before has ended, its late webhooks have arrived) */
  hourUtc: z.number().int().min(0).max(23).default(1),
  days: z.number().int().min(1).max(31).default(1),
});
export type ReportScheduleOptions = z.input<typeof ReportScheduleOptionsSchema>;

/**
 * Creates the Schedule, or updates it when it exists on this task queue. Under the default ID, one that another
 * task queue's deployment runs is left to it and this task queue gets `reconciliation-report-<task queue>`
 * (`instead` says so); an ID given here is never replaced (ScheduleOfAnotherTaskQueueError).
 */
export async function ensureReportSchedule(
  client: Client,
  options: ReportScheduleOptions,
): Promise<{ scheduleId: string; created: boolean; instead?: string }> {
  const o = ReportScheduleOptionsSchema.parse(options); // zod at the edge: the workflow takes its input as given here
  const input: ReconciliationReportInput = { days: o.days };
  const schedule: ScheduleToEnsure = {
    taskQueue: o.taskQueue,
    note: 'daily reconciliation report (xborder)',
    parts: (scheduleId) => ({
      spec: { calendars: [{ hour: o.hourUtc, minute: 0 }] },
      action: {
        type: 'startWorkflow' as const,
        workflowType: RECONCILIATION_REPORT_WORKFLOW_TYPE,
        // runs `schedule:<id>-<time>`: the reserved form under which the runs read the action's arguments (they are
        // bound to the action's ID: src/codec/schedule-binding.ts); `<id>-run` left every run unable to read its input
        workflowId: scheduleActionWorkflowId(scheduleId),
        taskQueue: o.taskQueue,
        args: [input],
        workflowExecutionTimeout: 6 * 60 * 60_000,
      },
      // a missed day (Temporal down at 01:00) still gets its report, within a day
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 24 * 60 * 60_000 },
    }),
  };
  return o.scheduleId === undefined
    ? ensureDefaultSchedule(client, REPORT_SCHEDULE_ID, schedule)
    : ensureSchedule(client, o.scheduleId, schedule);
}
