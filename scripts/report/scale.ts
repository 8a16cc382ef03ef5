// The reconciliation report's reader and comparison over N payments, against paged fakes of visibility and the
// service's list (test/support/report-fakes.ts): time and peak RSS, one process per N (docs/performance.md,
// "Reconciliation report"). Not the PostgreSQL stack: what this measures is the report's own cost (paging, joining,
// exact sums, rendering), with the fakes handing out pages as fast as they can.
//   npx tsx scripts/report/scale.ts 10000          1 % each returned, amount differs, undelivered; 2 % in flight
//   npx tsx scripts/report/scale.ts 10000 clean    every payment matched: what the join alone costs
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readReconciliationReport } from '../../activities/report-reader';
import { writeReportFolder } from '../../activities/report-writer';
import {
  fakePayment,
  fakePaymentWorkflow,
  pagedServiceList,
  pagedVisibility,
  type PagedCounters,
} from '../../test/support/report-fakes';

const peakRssMb = () => {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Math.round(Number(hwm[1]) / 1024) : Math.round(process.memoryUsage().rss / 1_048_576);
};

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 10_000);
  // `clean`: no mismatch and nothing in flight, so what is held is the join's alone (the mismatches are the report)
  const problems = process.argv[3] !== 'clean';
  const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
  const now = new Date('2026-11-21T01:00:00.000Z');
  const counters: PagedCounters = { visibilityPages: 0, servicePages: 0, largestPage: 0 };
  // 1 % of payments each: returned after COMPLETED, amount differs, events not delivered; 2 % in flight
  const startOf = (i: number) => new Date(Date.parse(window.from) + Math.floor((i / n) * 86_399_000));
  const client = pagedVisibility(
    {
      payment: {
        count: n,
        make: (i) =>
          fakePaymentWorkflow(`k${i}`, `pay_${i}`, {
            startTime: startOf(i),
            ...(problems && i % 100 === 1 ? { sourceAmount: 100.2 } : {}),
            ...(problems && i % 50 === 7 ? { running: true, phase: 'IN_PROGRESS' } : {}),
          }),
      },
      providerPayment: {
        count: n,
        make: (i) => ({
          workflowId: `provider-payment:pay_${i}`,
          type: 'providerPayment',
          running: false,
          startTime: startOf(i),
          searchAttributes: { ProviderPaymentId: `pay_${i}`, PaymentStatus: 'COMPLETED' },
        }),
      },
      paymentEvents: {
        count: n,
        make: (i) => ({
          workflowId: `payment-events:k${i}`,
          type: 'paymentEvents',
          running: problems && i % 100 === 2,
          startTime: startOf(i),
          searchAttributes:
            problems && i % 100 === 2
              ? { PaymentPhase: 'EVENTS_UNDELIVERED' }
              : ({} as Record<string, string>),
        }),
      },
    },
    counters,
  );
  const listPayments = pagedServiceList(
    n,
    (i) =>
      fakePayment(`pay_${i}`, {
        createdAt: startOf(i).toISOString(),
        status: !problems
          ? 'COMPLETED'
          : i % 100 === 3
            ? 'REFUNDED'
            : i % 50 === 7
              ? 'PROCESSING'
              : 'COMPLETED',
      }),
    counters,
  );
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-report-scale-')), 'report');
  const baseline = peakRssMb();
  const started = process.hrtime.bigint();
  // as the daily activity and `xborder report` run it: payments.csv streamed while the comparison runs
  const report = await writeReportFolder(folder, (onRow) =>
    readReconciliationReport({ client, listPayments, onRow }, window, now),
  );
  const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
  const files = Object.fromEntries(
    readdirSync(folder).map((name) => [name, statSync(path.join(folder, name)).size]),
  );
  console.log(
    JSON.stringify({
      payments: n,
      rows: report.counts.payments,
      mismatches: report.mismatches.length,
      inFlight: report.counts.inFlight,
      usdcDifference: report.totals.find((t) => t.currencyCode === 'USDC')?.sourceDifference,
      readCompareWriteMs: Math.round(totalMs),
      visibilityPages: counters.visibilityPages,
      servicePages: counters.servicePages,
      largestPage: counters.largestPage,
      rssBaselineMb: baseline,
      peakRssMb: peakRssMb(),
      heapUsedAfterMb: Math.round(process.memoryUsage().heapUsed / 1_048_576),
      fileBytes: files,
    }),
  );
}

void main();
