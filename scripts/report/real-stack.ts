// The reconciliation report's reader against the real local stack (the dev server on SQLite, the sandbox, the
// worker): N payments started (half funded to COMPLETED), then the report read three times, timed. Small N only:
// the 10,000-payment run is the PostgreSQL one (docs/performance.md, "Reconciliation report").
//   npx tsx scripts/report/real-stack.ts 200
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readReconciliationReport } from '../../activities/report-reader';
import { startLocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { dataConverterFromEnv } from '../../src/codec/data-converter';
import { PaymentPhaseKey } from '../../workflows/search-attributes';
import { demoPaymentRequest } from '../../test/support/demo-payment-request';
import { freePort } from '../../test/support/ports';
import { writeGeneratedTestKeys } from '../../test/support/test-keys';

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 200);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-report-real-'));
  const temporalPort = await freePort();
  const stack = await startLocalStack({
    temporalPort,
    temporalUiPort: await freePort(),
    temporalDbFile: path.join(dir, 'temporal.db'),
    taskQueue: 'report-real',
    schedules: false,
    dataConverter: dataConverterFromEnv({ XBORDER_CODEC_KEYS_FILE: writeGeneratedTestKeys() }),
    sandbox: {
      log: null,
      demoData: true,
      rateLimit: false,
      stepDelaysMs: { toProcessing: 200, toSent: 200, toCompleted: 200 },
    },
  });
  try {
    const from = new Date(Date.now() - 60_000).toISOString();
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < n; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, n - i) }, async (_, j) => {
          const key = `report-real-${i + j}`;
          const s = await startPayment(
            stack.client,
            { paymentKey: key, request: demoPaymentRequest(key, 20 + ((i + j) % 7)) },
            { taskQueue: stack.taskQueue },
          );
          return s.created.outcome === 'CREATED' ? s.created.providerPaymentId : null;
        }),
      );
      ids.push(...batch.filter((x): x is string => x !== null));
    }
    for (const id of ids.slice(0, Math.floor(ids.length / 2)))
      await stack.sandbox.services.payments.fund(id, {});
    const completed = `WorkflowType = 'payment' AND ExecutionStatus = 'Completed' AND ${PaymentPhaseKey.name} = 'COMPLETED'`;
    for (;;) {
      const { count } = await stack.client.workflow.count(completed);
      if (count >= Math.floor(ids.length / 2)) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    console.log(
      `${ids.length} payments created, ${Math.floor(ids.length / 2)} COMPLETED in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const window = { from, to: new Date(Date.now() + 3_600_000).toISOString() };
    for (let run = 1; run <= 3; run++) {
      const t = process.hrtime.bigint();
      const report = await readReconciliationReport(
        { client: stack.client, listPayments: (q) => stack.provider.payments.listAll(q) },
        window,
        new Date(),
      );
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      console.log(
        JSON.stringify({
          run,
          payments: report.counts.payments,
          matched: report.counts.matched,
          open: report.counts.open,
          mismatches: report.mismatches.length,
          readAndCompareMs: Math.round(ms),
          rssMb: Math.round(process.memoryUsage().rss / 1_048_576),
        }),
      );
    }
  } finally {
    await stack.close();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
