// The report as CSV for finance tools: one line per payment (RFC 4180 quoting), then the totals by currency.
// Amounts are the exact decimal texts of the records (never re-printed through a float).
import type { ReconciliationReport, ReportRow } from './types';

const ROW_COLUMNS = [
  'day',
  'paymentKey',
  'providerPaymentId',
  'state',
  'kinds',
  'workflowPhase',
  'workflowRunning',
  'serviceStatus',
  'serviceType',
  'serviceSourceAmount',
  'serviceSourceCurrency',
  'workflowSourceAmount',
  'workflowSourceCurrency',
  'serviceDestinationAmount',
  'serviceDestinationCurrency',
  'workflowDestinationAmount',
  'workflowDestinationCurrency',
  'serviceFee',
  'ageSeconds',
  'eventsNotDelivered',
] as const;

const TOTAL_COLUMNS = [
  'currency',
  'serviceSource',
  'workflowSource',
  'sourceDifference',
  'serviceDestination',
  'workflowDestination',
  'destinationDifference',
  'serviceFees',
  'notCompared',
] as const;

export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  // a leading = + - @ would be read as a formula by a spreadsheet: quoted and prefixed with '
  const safe = /^[=+\-@]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function rowFields(r: ReportRow): (string | number | boolean | null)[] {
  return [
    r.day,
    r.paymentKey,
    r.providerPaymentId,
    r.state,
    r.kinds.join(' '),
    r.workflowPhase,
    r.workflowRunning,
    r.serviceStatus,
    r.serviceType,
    r.serviceSource?.amount ?? null,
    r.serviceSource?.currencyCode ?? null,
    r.workflowSource?.amount ?? null,
    r.workflowSource?.currencyCode ?? null,
    r.serviceDestination?.amount ?? null,
    r.serviceDestination?.currencyCode ?? null,
    r.workflowDestination?.amount ?? null,
    r.workflowDestination?.currencyCode ?? null,
    r.serviceFee,
    r.ageMs === null ? null : Math.floor(r.ageMs / 1000),
    r.eventsNotDelivered,
  ];
}

/** The header line of payments.csv. */
export const PAYMENTS_CSV_HEADER = `${ROW_COLUMNS.join(',')}\r\n`;

/** One payment's line of payments.csv (a writer streams them as the comparison decides each payment). */
export function paymentCsvLine(row: ReportRow): string {
  return `${rowFields(row).map(csvField).join(',')}\r\n`;
}

/** The payments' lines of a report that kept them (a header, then one per payment). */
export function paymentsCsv(report: ReconciliationReport): string {
  return PAYMENTS_CSV_HEADER + report.rows.map(paymentCsvLine).join('');
}

/** The totals by currency (a header, then one line per currency). */
export function totalsCsv(report: ReconciliationReport): string {
  const lines = [TOTAL_COLUMNS.join(',')];
  for (const t of report.totals) {
    lines.push(
      [
        t.currencyCode,
        t.serviceSource,
        t.workflowSource,
        t.sourceDifference,
        t.serviceDestination,
        t.workflowDestination,
        t.destinationDifference,
        t.serviceFees,
        t.notCompared,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
