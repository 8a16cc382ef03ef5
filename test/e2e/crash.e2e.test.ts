// Exactly once under a crash: 50 payments run while the worker process is SIGKILLed at random
// moments and restarted; every payment reaches its outcome and the sandbox holds exactly one provider
// payment per workflow (idempotency keys come from workflow IDs: `<workflowId>:create:<n>`).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment, type StartedPayment } from '../../src/client/payments';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';
import { startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(300_000);

const PAYMENTS = 50;
const KILLS = 6;
const ROOT = path.resolve(__dirname, '..', '..');

let stack: LocalStack;
let bundlePath: string;
const workers = new Set<ChildProcess>();

beforeAll(async () => {
  stack = await startTestStack({ worker: false, sandbox: { demoData: true } });
  // One prebuilt bundle, so each restarted worker is up in about a second.
  bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-bundle-')), 'workflow-bundle.js');
  writeFileSync(bundlePath, await buildWorkflowBundle());
});
afterAll(async () => {
  for (const child of workers) child.kill('SIGKILL');
  await stack?.close();
});

function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'workers', 'main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: stack.temporal.address,
      XBORDER_TASK_QUEUE: stack.taskQueue,
      XBORDER_PROVIDER_URL: stack.sandbox.url,
      XBORDER_PROVIDER_API_KEY: stack.apiKey,
      XBORDER_WORKFLOW_BUNDLE: bundlePath,
      XBORDER_ENSURE_SCHEDULES: 'false',
      XBORDER_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.add(child);
  child.once('exit', () => workers.delete(child));
  return child;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it(`${PAYMENTS} payments survive ${KILLS} SIGKILLs of the worker: one provider payment each, all COMPLETED`, async () => {
  let worker = startWorkerProcess();
  let inFlight = 0;
  const inFlightAtKills: number[] = [];
  const killer = (async () => {
    for (let i = 0; i < KILLS; i++) {
      await sleep(1_000 + Math.random() * 2_500);
      inFlightAtKills.push(inFlight);
      worker.kill('SIGKILL');
      await sleep(Math.random() * 1_000);
      worker = startWorkerProcess();
    }
  })();

  const keys = Array.from({ length: PAYMENTS }, (_, i) => uniqueKey(`crash-${i}`));
  const runs = keys.map(async (key, i) => {
    await sleep(i * 200); // spread the starts over the kills
    inFlight++;
    const started: StartedPayment = await startPayment(
      stack.client,
      {
        paymentKey: key,
        request: demoPaymentRequest(key, 10 + i),
      },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED')
      throw new Error(`${key} was not created: ${JSON.stringify(started.created)}`);
    await sleep(Math.random() * 1_000);
    await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
      headers: stack.sandbox.controlHeaders,
      json: {},
    });
    const outcome = (await started.result()).outcome;
    inFlight--;
    return { key, providerPaymentId: started.created.providerPaymentId, outcome };
  });
  await killer;
  const results = await Promise.all(runs);

  // The kills really hit running payments (not an idle worker).
  expect(inFlightAtKills.filter((n) => n > 0).length).toBeGreaterThanOrEqual(KILLS - 1);
  console.log(`payments in flight at each SIGKILL: ${inFlightAtKills.join(', ')}`);
  expect(results.map((r) => r.outcome)).toEqual(keys.map(() => 'COMPLETED'));
  const byReference = new Map<string, string[]>();
  for await (const payment of stack.provider.payments.listAll()) {
    if (!payment.reference?.startsWith('crash-')) continue;
    byReference.set(payment.reference, [...(byReference.get(payment.reference) ?? []), payment.id]);
  }
  for (const r of results) expect(byReference.get(r.key)).toEqual([r.providerPaymentId]);
  expect(byReference.size).toBe(PAYMENTS);
});
