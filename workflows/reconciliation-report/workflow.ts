// reconciliationReport: run daily by the Schedule `reconciliation-report` (src/client/report-schedule.ts). Writes
// the report of the previous whole UTC day(s) through one activity (it reads visibility and the service's list
// page by page: docs/reconciliation-report.md); moves no money. AUTO_UPGRADE (workflows/versioning.ts): its
// commands change only behind patched().
import { log, proxyActivities } from '@temporalio/workflow';
import type { ReportActivities } from '../../activities/report-activities';
import type { ReconciliationReportInput, ReconciliationReportResult } from './api';

const DAY = 24 * 60 * 60 * 1000;

const { writeReconciliationReport } = proxyActivities<ReportActivities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '2m',
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 6 },
});

export async function reconciliationReport(
  input: ReconciliationReportInput = {},
): Promise<ReconciliationReportResult> {
  // Date.now() is the workflow task's time: the same on replay
  const today = Math.floor(Date.now() / DAY) * DAY;
  const days = input.days ?? 1;
  const window = { from: new Date(today - days * DAY).toISOString(), to: new Date(today).toISOString() };
  const written = await writeReconciliationReport(window);
  // mismatches are the report's news, not the workflow's failure: logged for alerting, the files say the rest
  if (!written.allMatch)
    log.warn('reconciliation report: mismatches found', {
      folder: written.folder,
      mismatches: written.mismatches,
    });
  return written;
}
