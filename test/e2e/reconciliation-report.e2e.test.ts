// The reconciliation report on the real stack (dev server, sandbox, worker): each kind of mismatch seeded for real
// and named once, through `xborder report` (its exit code, its files) and the reader the daily Schedule runs.
// Webhooks go nowhere here, so the only entities are the ones our payments start (a payment made at the service
// by hand stays unknown to every workflow); payments learn their status by their own reads (reconcileEveryMs).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import { readReconciliationReport } from '../../activities/report-reader';
import {
  RECONCILIATION_REPORT_WORKFLOW_TYPE,
  type ReconciliationReportResult,
} from '../../workflows/reconciliation-report/api';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { amountsMemo } from '../../src/report/memo';
import {
  awaitCreatedUpdate,
  PAYMENT_WORKFLOW_TYPE,
  paymentWorkflowId,
  type PaymentOutcome,
} from '../../workflows/payment/api';
import type { ReconciliationReport } from '../../src/report/types';
import { ensureReportSchedule } from '../../src/client/report-schedule';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { freePort } from '../support/ports';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(180_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'xborder.js');
let stack: LocalStack;
const from = new Date(Date.now() - 60_000).toISOString();
const reportsDir = mkdtempSync(path.join(os.tmpdir(), 'xborder-reports-e2e-'));

beforeAll(async () => {
  const blackHole = `http://127.0.0.1:${await freePort()}/webhooks`;
  stack = await startTestStack({
    sandboxWebhookUrls: [blackHole],
    sandbox: { demoData: true },
    reports: { dir: reportsDir },
  });
});
afterAll(async () => {
  await stack?.close();
});

/** A payment taken to COMPLETED (funded through the control route); `events` asks for outbound events. */
async function completedPayment(
  prefix: string,
  events = false,
): Promise<{ key: string; providerPaymentId: string }> {
  const key = uniqueKey(prefix);
  const input = {
    paymentKey: key,
    request: demoPaymentRequest(key, 40),
    options: { reconcileEveryMs: 1_000 },
  };
  const started = events
    ? await startedBeforeTheEndpointWent(input)
    : await startPayment(stack.client, input, { taskQueue: stack.taskQueue });
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect((await started.result()).outcome).toBe('COMPLETED');
  return { key, providerPaymentId: started.created.providerPaymentId };
}

/**
 * A payment that asked for events its worker cannot deliver. startPayment refuses such a start now
 * (EVENTS_NOT_DELIVERABLE, nothing started): this is one started while an endpoint was still configured, started the
 * way startPayment starts it (the same input and amounts memo) without that check.
 */
async function startedBeforeTheEndpointWent(input: {
  paymentKey: string;
  request: ReturnType<typeof demoPaymentRequest>;
  options: { reconcileEveryMs: number };
}) {
  const handle = await stack.client.workflow.start(PAYMENT_WORKFLOW_TYPE, {
    workflowId: paymentWorkflowId(input.paymentKey),
    taskQueue: stack.taskQueue,
    args: [{ ...input, events: {} }],
    memo: amountsMemo(input.request),
  });
  const created = await handle.executeUpdate(awaitCreatedUpdate);
  return { created, result: () => handle.result() as Promise<PaymentOutcome> };
}

function xborder(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: stack.temporal.address,
      XBORDER_PROVIDER_URL: stack.sandbox.url,
      XBORDER_PROVIDER_API_KEY: stack.apiKey,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

it('names each seeded mismatch once, and the matching payment not at all', async () => {
  const matched = await completedPayment('rep-ok');
  // the workflow ends COMPLETED; then the receiving bank returns the funds (spec: States and transitions, row 4)
  const returned = await completedPayment('rep-returned');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${returned.providerPaymentId}/return`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  // the service's record of the amount differs from the 40 USDC asked for. The emulator has no route that changes
  // an amount, so the seed edits its record, as a provider-side correction would.
  const amount = await completedPayment('rep-amount');
  (
    stack.sandbox.state.data.payments[amount.providerPaymentId] as { source: { amount: number } }
  ).source.amount = 40.01;
  // the backend is never told: the worker has no endpoint for outbound events (a non-retryable failure at once)
  const untold = await completedPayment('rep-untold', true);
  // a payment made at the service with our key that no workflow follows
  const stranger = await stack.provider.payments.create(demoPaymentRequest(uniqueKey('rep-stranger'), 40), {
    idempotencyKey: uniqueKey('idem'),
  });

  const to = new Date(Date.now() + 3_600_000).toISOString();
  const window = { from, to };
  const expected = [
    `AMOUNT_DIFFERS:${amount.providerPaymentId}`,
    `EVENTS_NOT_DELIVERED:${untold.providerPaymentId}`,
    `MOVED_AFTER_OUTCOME:${returned.providerPaymentId}`,
    `UNKNOWN_TO_WORKFLOWS:${stranger.id}`,
  ];
  const named = (r: ReconciliationReport) =>
    r.mismatches.map((m) => `${m.kind}:${m.providerPaymentId}`).sort();
  // visibility is eventually consistent: the delivery workflow's flag and the closed runs show within a few seconds
  const report = await eventually('the report to name every seeded mismatch', async () => {
    const r = await readReconciliationReport(
      { client: stack.client, listPayments: (q) => stack.provider.payments.listAll(q) },
      window,
      new Date(),
    );
    return expected.every((e) => named(r).includes(e)) ? r : null;
  });
  expect(named(report)).toEqual(expected);
  const row = report.rows.find((r) => r.providerPaymentId === matched.providerPaymentId);
  expect(row).toEqual(expect.objectContaining({ state: 'MATCHED', kinds: [], paymentKey: matched.key }));
  const usdc = report.totals.find((t) => t.currencyCode === 'USDC')!;
  // 5 × 40 at the service plus the 0.01 edit; 4 × 40 asked by workflows: the stranger's 40 and the 0.01 apart
  expect(usdc).toEqual(
    expect.objectContaining({ serviceSource: '200.01', workflowSource: '160.00', sourceDifference: '40.01' }),
  );

  // the command: exit code 1 on mismatches, the same findings in its files
  const out = mkdtempSync(path.join(os.tmpdir(), 'xborder-report-e2e-'));
  const run = await xborder(['report', '--from', from, '--to', to, '--out', out]);
  expect(run.err).toBe('');
  expect(run.code).toBe(1);
  for (const e of expected) expect(run.out).toContain(e.split(':')[0]);
  for (const name of ['payments.csv', 'totals.csv', 'report.json', 'report.html'])
    expect(existsSync(path.join(out, name))).toBe(true);
  const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ReconciliationReport;
  expect(named(json)).toEqual(expected);
  const csv = readFileSync(path.join(out, 'payments.csv'), 'utf8');
  expect(csv.split('\r\n').filter((l) => l.includes(matched.providerPaymentId))).toEqual([
    expect.stringContaining(',MATCHED,'),
  ]);
  const html = readFileSync(path.join(out, 'report.html'), 'utf8');
  for (const e of expected) expect(html).toContain(e.split(':')[1]);
  expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  // kept for the report's sample in docs (printed, not asserted)
  console.log(run.out);
});

it('the daily Schedule itself starts a run that reads its own input and writes the report', async () => {
  // the Schedule's arguments are encrypted bound to its action's workflow ID; each run is `<that ID>-<time>`, which
  // reads them only when the action ID has the reserved Schedule form (src/codec/schedule-binding.ts)
  const { scheduleId } = await ensureReportSchedule(stack.client, {
    taskQueue: stack.taskQueue,
    scheduleId: uniqueKey('report'),
  });
  const schedule = stack.client.schedule.getHandle(scheduleId);
  await schedule.trigger();
  const runId = await eventually('the triggered run', async () => {
    const { info } = await schedule.describe();
    return (
      [...info.runningActions, ...info.recentActions.map((a) => a.action)][0]?.workflow.workflowId ?? null
    );
  });
  const result = (await Promise.race([
    stack.client.workflow.getHandle(runId).result(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`the Schedule's run ${runId} did not complete within 90 s`)), 90_000),
    ),
  ])) as ReconciliationReportResult;
  expect(existsSync(path.join(result.folder, 'report.json'))).toBe(true);
});

it("the daily Schedule's workflow writes the previous UTC day's report through the worker's activity", async () => {
  // what the `reconciliation-report` Schedule starts (the day before today: what it holds depends on the hour the
  // test runs, so only the files and their agreement with the result are checked)
  const result = await stack.client.workflow.execute(RECONCILIATION_REPORT_WORKFLOW_TYPE, {
    workflowId: uniqueKey('report-run'),
    taskQueue: stack.taskQueue,
    args: [{}],
  });
  const written = result as ReconciliationReportResult;
  const folder = path.basename(written.folder);
  expect(folder).toMatch(/^\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}$/);
  expect(path.dirname(written.folder)).toBe(reportsDir);
  for (const name of ['payments.csv', 'totals.csv', 'report.json', 'report.html'])
    expect(existsSync(path.join(written.folder, name))).toBe(true);
  const json = JSON.parse(
    readFileSync(path.join(written.folder, 'report.json'), 'utf8'),
  ) as ReconciliationReport;
  expect(json.window.to.endsWith('T00:00:00.000Z')).toBe(true);
  expect(Date.parse(json.window.to) - Date.parse(json.window.from)).toBe(86_400_000);
  expect(written).toEqual({
    folder: written.folder,
    payments: json.counts.payments,
    mismatches: json.mismatches.length,
    inFlight: json.counts.inFlight,
    allMatch: json.allMatch,
  });
});
