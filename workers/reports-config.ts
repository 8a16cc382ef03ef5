// Where the daily reconciliation report is written (docs/reconciliation-report.md): read once by the worker's
// entry. Unset: the worker writes no report and creates no report Schedule.
import { z } from 'zod';
import type { ReportsConfig } from '../activities/report-activities';
import { parseEnvironment, type Environment } from '../src/support/environment';

const ReportsEnvSchema = z.object({
  /** a folder (a volume finance reads); one sub-folder per report, named by its window */
  XBORDER_REPORTS_DIR: z.string().min(1).optional(),
});

export const REPORTS_ENV_VARS = Object.keys(ReportsEnvSchema.shape) as ReadonlyArray<
  keyof typeof ReportsEnvSchema.shape
>;

export function reportsConfigFromEnv(env: Environment): ReportsConfig | null {
  const e = parseEnvironment(ReportsEnvSchema, env, 'reports');
  return e.XBORDER_REPORTS_DIR ? { dir: e.XBORDER_REPORTS_DIR } : null;
}
