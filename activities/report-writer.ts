// Writes one reconciliation report into its folder: payments.csv streamed line by line while the comparison runs
// (no line is kept in memory), then totals.csv, report.json and report.html. Written into `<folder>.partial` and
// moved into place at the end: a reader never sees half a report, and a retry starts over whole.
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PAYMENTS_CSV_HEADER, paymentCsvLine } from '../src/report/csv';
import { summaryFiles } from '../src/report/files';
import type { ReconciliationReport, ReportRow } from '../src/report/types';

/** Lines written to the file at a time. */
const LINES_PER_WRITE = 500;

export const REPORT_FILE_NAMES = ['payments.csv', 'totals.csv', 'report.json', 'report.html'] as const;

export async function writeReportFolder(
  folder: string,
  produce: (onRow: (row: ReportRow) => void) => Promise<ReconciliationReport>,
): Promise<ReconciliationReport> {
  const partial = `${folder}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  // written synchronously, a batch at a time: the join hands out its lines faster than a stream would drain them,
  // and a stream's buffer would then hold the whole file
  const csv = openSync(path.join(partial, 'payments.csv'), 'w');
  let report: ReconciliationReport;
  try {
    writeSync(csv, PAYMENTS_CSV_HEADER);
    let pending: string[] = [];
    report = await produce((row) => {
      pending.push(paymentCsvLine(row));
      if (pending.length >= LINES_PER_WRITE) {
        writeSync(csv, pending.join(''));
        pending = [];
      }
    });
    writeSync(csv, pending.join(''));
  } finally {
    closeSync(csv);
  }
  for (const [name, text] of Object.entries(summaryFiles(report)))
    await writeFile(path.join(partial, name), text);
  await mkdir(folder, { recursive: true });
  for (const name of REPORT_FILE_NAMES) await rename(path.join(partial, name), path.join(folder, name));
  await rm(partial, { recursive: true, force: true });
  return report;
}
