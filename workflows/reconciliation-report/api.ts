// The reconciliationReport API: its type name and input. Run daily by the Schedule `reconciliation-report`
// (src/client/report-schedule.ts). Pure: imported by the workflow and by its callers alike.

/** The workflow type (the function's name in workflows/index.ts). */
export const RECONCILIATION_REPORT_WORKFLOW_TYPE = 'reconciliationReport';

export interface ReconciliationReportInput {
  /** how many whole UTC days before today the window covers (default 1: yesterday) */
  days?: number;
}

/** What the activity wrote (the workflow's result). */
export interface ReconciliationReportResult {
  /** the folder written: <XBORDER_REPORTS_DIR>/<from>_<to> */
  folder: string;
  payments: number;
  mismatches: number;
  inFlight: number;
  allMatch: boolean;
}
