// The report's reader over paged fakes of visibility and the service's list, and the daily activity that writes it.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  readReconciliationReport,
  reportQueries,
  SERVICE_PAGE_SIZE,
} from '../../../activities/report-reader';
import { createReportActivities } from '../../../activities/report-activities';
import {
  fakePayment,
  fakePaymentWorkflow,
  pagedServiceList,
  pagedVisibility,
  type PagedCounters,
} from '../../support/report-fakes';

const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
const now = new Date('2026-11-21T01:00:00.000Z');

function sources(count: number, counters: PagedCounters) {
  return {
    client: pagedVisibility(
      {
        payment: {
          count,
          make: (i) => fakePaymentWorkflow(`k${i}`, `pay_${i}`, i === 3 ? { sourceAmount: 100.11 } : {}),
        },
        paymentEvents: {
          count: 1,
          make: () => ({
            workflowId: 'payment-events:k5',
            type: 'paymentEvents',
            running: true,
            startTime: new Date(window.from),
            searchAttributes: { PaymentPhase: 'EVENTS_UNDELIVERED' },
          }),
        },
      },
      counters,
    ),
    listPayments: pagedServiceList(
      count + 1,
      (i) =>
        i === count
          ? fakePayment('pay_stranger')
          : fakePayment(`pay_${i}`, i === 7 ? { status: 'REFUNDED' } : {}),
      counters,
    ),
  };
}

it('reads visibility and the service list page by page, one list per record, and joins them', async () => {
  const counters: PagedCounters = { visibilityPages: 0, servicePages: 0, largestPage: 0 };
  const report = await readReconciliationReport(sources(2_500, counters), window, now);
  expect(counters.servicePages).toBe(Math.ceil(2_501 / SERVICE_PAGE_SIZE));
  expect(counters.largestPage).toBeLessThanOrEqual(1_000);
  expect(report.mismatches.map((m) => `${m.kind}:${m.paymentKey ?? m.providerPaymentId}`).sort()).toEqual([
    // the workflow asked for 100.11 USDC, the service holds 100.1
    'AMOUNT_DIFFERS:k3',
    'EVENTS_NOT_DELIVERED:k5',
    'MOVED_AFTER_OUTCOME:k7',
    'UNKNOWN_TO_WORKFLOWS:pay_stranger',
  ]);
  const usdc = report.totals.find((t) => t.currencyCode === 'USDC')!;
  // 2,501 × 100.1 at the service; 2,499 × 100.1 + 100.11 asked by the workflows
  expect(usdc).toEqual(
    expect.objectContaining({
      serviceSource: '250350.10',
      workflowSource: '250250.01',
      sourceDifference: '100.09',
      serviceFees: '2676.07',
    }),
  );
});

it('asks visibility by type and window, never for one payment', () => {
  const q = reportQueries(window);
  expect(q.payments).toBe(
    "WorkflowType = 'payment' AND StartTime >= '2026-11-20T00:00:00.000Z' AND ExecutionStatus != 'ContinuedAsNew'",
  );
  expect(q.undelivered).toContain("PaymentPhase = 'EVENTS_UNDELIVERED'");
});

it('the daily activity writes the four files into a folder named by the window', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-reports-'));
  const counters: PagedCounters = { visibilityPages: 0, servicePages: 0, largestPage: 0 };
  const s = sources(20, counters);
  const activities = createReportActivities({
    provider: { payments: { create: jest.fn(), get: jest.fn(), listAll: s.listPayments } },
    reports: { dir },
    client: () => s.client,
    heartbeat: () => undefined,
    now: () => now,
  });
  const written = await activities.writeReconciliationReport(window);
  expect(written).toEqual({
    folder: path.join(dir, '2026-11-20_2026-11-21'),
    payments: 21,
    mismatches: 4,
    inFlight: 0,
    allMatch: false,
  });
  expect(readdirSync(written.folder).sort()).toEqual([
    'payments.csv',
    'report.html',
    'report.json',
    'totals.csv',
  ]);
  expect(readFileSync(path.join(written.folder, 'totals.csv'), 'utf8')).toContain(
    'USDC,2102.10,2002.01,100.09',
  );
});

it('refuses, not retryable, on a worker with no folder for reports', async () => {
  const activities = createReportActivities({
    provider: { payments: { create: jest.fn(), get: jest.fn() } },
    reports: null,
  });
  await expect(activities.writeReconciliationReport(window)).rejects.toMatchObject({
    type: 'REPORTS_DIR_NOT_CONFIGURED',
    nonRetryable: true,
  });
});
