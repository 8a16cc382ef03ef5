// The report as the terminal prints it: the verdict, the counts, the totals by currency, then each mismatch.
import type { ReconciliationReport } from './types';

export function summaryText(report: ReconciliationReport): string {
  const c = report.counts;
  const lines = [
    `reconciliation ${report.window.from} → ${report.window.to} (end excluded)`,
    `${c.payments} payments: ${c.matched} matched, ${c.mismatched} mismatched, ${c.inFlight} in flight, ${c.open} awaiting funds`,
    '',
    'currency  service source  workflow source  difference  service destination  workflow destination  difference  service fees  not compared',
  ];
  for (const t of report.totals) {
    lines.push(
      [
        t.currencyCode.padEnd(8),
        t.serviceSource.padStart(14),
        t.workflowSource.padStart(15),
        t.sourceDifference.padStart(10),
        t.serviceDestination.padStart(19),
        t.workflowDestination.padStart(20),
        t.destinationDifference.padStart(10),
        t.serviceFees.padStart(12),
        String(t.notCompared).padStart(12),
      ].join('  '),
    );
  }
  lines.push('');
  if (report.mismatches.length === 0) lines.push('everything matches');
  for (const m of report.mismatches) {
    lines.push(`${m.kind}  ${m.paymentKey ?? '-'}  ${m.providerPaymentId ?? '-'}`);
    lines.push(`  service:  ${m.service}`);
    lines.push(`  workflow: ${m.workflow}`);
    lines.push(`  do:       ${m.action}`);
  }
  for (const f of report.inFlight) {
    lines.push(
      `IN_FLIGHT  ${f.paymentKey ?? '-'}  ${f.providerPaymentId ?? '-'}  ${f.status}  ${Math.round(f.ageMs / 60_000)} min`,
    );
  }
  return `${lines.join('\n')}\n`;
}
