// The files of one report, by name: what `xborder report --out` and the daily Schedule's activity write.
import { paymentsCsv, totalsCsv } from './csv';
import { reportHtml } from './html';
import type { ReconciliationReport } from './types';

/** Every file of a report that kept its lines. */
export function reportFiles(report: ReconciliationReport): Record<string, string> {
  return { 'payments.csv': paymentsCsv(report), ...summaryFiles(report) };
}

/** The files besides payments.csv (which a writer streams line by line: activities/report-writer.ts). */
export function summaryFiles(report: ReconciliationReport): Record<string, string> {
  return {
    'totals.csv': totalsCsv(report),
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.html': reportHtml(report),
  };
}

/** A report's folder name: its window, readable and sortable (`2026-11-20_2026-11-21`). */
export function reportName(report: Pick<ReconciliationReport, 'window'>): string {
  const day = (iso: string) =>
    iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace(/[:.]/g, '-');
  return `${day(report.window.from)}_${day(report.window.to)}`;
}
