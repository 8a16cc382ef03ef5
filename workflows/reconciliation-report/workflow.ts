// reconciliationReport: run daily by the Schedule `reconciliation-report` (src/client/report-schedule.ts). Writes
// the report of the previous whole UTC day(s) through one activity (it reads visibility and the service's list
// page by page: docs/reconciliation-report.md); moves no money. AUTO_UPGRADE (workflows/versioning.ts): its
// commands change only behind patched().
import { log } from '@temporalio/workflow';
import type { ReconciliationReportInput, ReconciliationReportResult } from './api';
import { reportActivities } from '../activity-options';

const DAY = 24 * 60 * 60 * 1000;

export async function reconciliationReport(
  input: ReconciliationReportInput = {},
): Promise<ReconciliationReportResult> {
  // Date.now() is the workflow task's time: the same on replay
  const today = Math.floor(Date.now() / DAY) * DAY;
  const days = input.days ?? 1;
  const window = { from: new Date(today - days * DAY).toISOString(), to: new Date(today).toISOString() };
  const written = await reportActivities.writeReconciliationReport(window);
  // mismatches are the report's news, not the workflow's failure: logged for alerting, the files say the rest
  if (!written.allMatch)
    log.warn('reconciliation report: mismatches found', {
      folder: written.folder,
      mismatches: written.mismatches,
    });
  return written;
}
