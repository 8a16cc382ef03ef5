// The daily reconciliation report's activity (the `reconciliation-report` Schedule): reads the three records page
// by page (report-reader.ts) and writes the report's files under the configured folder, one folder per window.
// Reading 10,000 payments takes seconds (docs/performance.md, "Reconciliation report"); it heartbeats every page.
import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { reportName } from '../src/report/files';
import type { ReportWindow } from '../src/report/types';
import type { ReconciliationReportResult } from '../workflows/reconciliation-report/api';
import type { ProviderPort } from './provider-port';
import { readReconciliationReport } from './report-reader';
import { writeReportFolder } from './report-writer';

/** Where reports go (XBORDER_REPORTS_DIR, workers/reports-config.ts): a volume the finance team reads. */
export interface ReportsConfig {
  dir: string;
}

export const REPORT_FAILURE_TYPES = {
  /** no folder configured: the Schedule runs on a worker without XBORDER_REPORTS_DIR; retrying will not help */
  REPORTS_DIR_NOT_CONFIGURED: 'REPORTS_DIR_NOT_CONFIGURED',
  /** the service's list cannot be read (a port without listAll) */
  SERVICE_LIST_UNAVAILABLE: 'SERVICE_LIST_UNAVAILABLE',
} as const;

export type WrittenReport = ReconciliationReportResult;

export interface ReportActivities {
  writeReconciliationReport(window: ReportWindow): Promise<WrittenReport>;
}

export function createReportActivities(deps: {
  provider: Pick<ProviderPort, 'payments'>;
  reports?: ReportsConfig | null;
  client?: () => Pick<Client, 'workflow'>;
  heartbeat?: (progress: number) => void;
  now?: () => Date;
}): ReportActivities {
  const client = deps.client ?? (() => Context.current().client);
  const heartbeat = deps.heartbeat ?? ((progress: number) => Context.current().heartbeat(progress));
  const now = deps.now ?? (() => new Date());
  return {
    async writeReconciliationReport(window) {
      if (!deps.reports) {
        throw ApplicationFailure.create({
          type: REPORT_FAILURE_TYPES.REPORTS_DIR_NOT_CONFIGURED,
          message:
            'no folder for reports: set XBORDER_REPORTS_DIR on the worker (docs/reconciliation-report.md)',
          nonRetryable: true,
        });
      }
      const listAll = deps.provider.payments.listAll;
      if (!listAll) {
        throw ApplicationFailure.create({
          type: REPORT_FAILURE_TYPES.SERVICE_LIST_UNAVAILABLE,
          message: 'the provider port cannot list payments',
          nonRetryable: true,
        });
      }
      const folder = path.join(deps.reports.dir, reportName({ window }));
      const report = await writeReportFolder(folder, (onRow) =>
        readReconciliationReport(
          {
            client: client(),
            listPayments: (query) => listAll.call(deps.provider.payments, query),
            progress: heartbeat,
            onRow,
          },
          window,
          now(),
        ),
      );
      return {
        folder,
        payments: report.counts.payments,
        mismatches: report.mismatches.length,
        inFlight: report.counts.inFlight,
        allMatch: report.allMatch,
      };
    },
  };
}
