// The reconciliation-report Schedule: runs `reconciliationReport` every day at 01:00 UTC, which writes the report
// of the day before (docs/reconciliation-report.md). Created or updated idempotently, like the payment-reconcile
// Schedule.
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { z } from 'zod';
import {
  RECONCILIATION_REPORT_WORKFLOW_TYPE,
  type ReconciliationReportInput,
} from '../../workflows/reconciliation-report/api';
import { scheduleActionWorkflowId } from '../codec/schedule-binding';

export const REPORT_SCHEDULE_ID = 'reconciliation-report';

const ReportScheduleOptionsSchema = z.object({
  taskQueue: z.string().min(1),
  scheduleId: z.string().min(1).default(REPORT_SCHEDULE_ID),
  /** the UTC hour of the daily run (default 1: the day before has ended, its late webhooks have arrived) */
  hourUtc: z.number().int().min(0).max(23).default(1),
  days: z.number().int().min(1).max(31).default(1),
});
export type ReportScheduleOptions = z.input<typeof ReportScheduleOptionsSchema>;

export async function ensureReportSchedule(
  client: Client,
  options: ReportScheduleOptions,
): Promise<{ scheduleId: string; created: boolean }> {
  const o = ReportScheduleOptionsSchema.parse(options); // zod at the edge: the workflow takes its input as given here
  const input: ReconciliationReportInput = { days: o.days };
  const parts = {
    spec: { calendars: [{ hour: o.hourUtc, minute: 0 }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: RECONCILIATION_REPORT_WORKFLOW_TYPE,
      // runs `schedule:<id>-<time>`: the reserved form under which the runs read the action's arguments (they are
      // bound to the action's ID: src/codec/schedule-binding.ts); `<id>-run` left every run unable to read its input
      workflowId: scheduleActionWorkflowId(o.scheduleId),
      taskQueue: o.taskQueue,
      args: [input],
      workflowExecutionTimeout: 6 * 60 * 60_000,
    },
    // a missed day (Temporal down at 01:00) still gets its report, within a day
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 24 * 60 * 60_000 },
  };
  try {
    await client.schedule.create({
      scheduleId: o.scheduleId,
      ...parts,
      state: { note: 'daily reconciliation report (xborder)' },
    });
    return { scheduleId: o.scheduleId, created: true };
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await client.schedule.getHandle(o.scheduleId).update((previous) => ({ ...previous, ...parts }));
  return { scheduleId: o.scheduleId, created: false };
}
