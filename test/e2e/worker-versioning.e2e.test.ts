// Worker Deployment Versioning on the dev server (docs/deployment.md, "Safe deploys with Worker
// Versioning"). Two versioned workers of one deployment on one task queue, builds A and B (the same code: what
// differs in a real deploy does not matter to the routing). Payments start while A is current; B is deployed and
// made current with `xborder deploy set-current`; A's payments (PINNED) finish on A's worker, new payments run on
// B, and the entities (AUTO_UPGRADE) move to B, at their next task and across continue-as-new. The evidence is the
// server's: the deployment version of every WorkflowTaskCompleted event and describe's versioning info.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment, type StartedPayment } from '../../src/client/payments';
import { describeWorkerDeployment, setCurrentVersion } from '../../src/client/worker-deployments';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import {
  RATE_BOARD_WORKFLOW_TYPE,
  rateBoardQuery,
  rateBoardUpdateSignal,
} from '../../workflows/rate-board/api';
import type { rateBoard } from '../../workflows/rate-board/workflow';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';
import { startXborderWorker, type RunningWorker } from '../../workers/worker';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(300_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'xborder.js');
const deploymentName = `xborder-e2e-${randomUUID().slice(0, 8)}`;
const A = 'build-a';
const B = 'build-b';
let stack: LocalStack;
let bundlePath: string;
const workers: RunningWorker[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false, sandbox: { demoData: true, quoteValidityMs: 120_000 } });
  // One bundle for both builds (the routing is what is tested, not a code change); built once, loaded twice.
  bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-versioning-')), 'workflow-bundle.js');
  writeFileSync(bundlePath, await buildWorkflowBundle());
}, 180_000);

afterAll(async () => {
  for (const worker of workers) await worker.shutdown().catch(() => undefined);
  await stack?.close();
});

async function startBuild(buildId: string): Promise<RunningWorker> {
  const worker = await startXborderWorker({
    temporal: { address: stack.temporal.address, namespace: stack.namespace },
    taskQueue: stack.taskQueue,
    provider: stack.provider,
    dataConverter: stack.dataConverter,
    workflowBundlePath: bundlePath,
    deployment: { version: { deploymentName, buildId }, defaultVersioningBehavior: 'AUTO_UPGRADE' },
  });
  workers.push(worker);
  return worker;
}

function xborder(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: stack.temporal.address,
      XBORDER_DEPLOYMENT_NAME: deploymentName,
    },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

/** A build exists in the deployment once one of its workers has polled. */
function buildRegistered(buildId: string): Promise<true> {
  return eventually(
    `build ${buildId} to be registered`,
    async () =>
      (await describeWorkerDeployment(stack.client, deploymentName)).versions.some(
        (v) => v.buildId === buildId,
      )
        ? true
        : null,
    60_000,
  );
}

async function startOnePayment(prefix: string): Promise<StartedPayment & { providerPaymentId: string }> {
  const key = uniqueKey(prefix);
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key, 25),
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  return { ...started, providerPaymentId: started.created.providerPaymentId };
}

const fund = (providerPaymentId: string) =>
  got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });

/** The build of every completed workflow task of one run, in order (the history's worker-deployment fields). */
async function taskBuilds(client: Client, workflowId: string, runId?: string): Promise<string[]> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  return (history.events ?? []).flatMap((e) => {
    const v = e.workflowTaskCompletedEventAttributes?.deploymentVersion;
    if (!e.workflowTaskCompletedEventAttributes) return [];
    expect(v?.deploymentName).toBe(deploymentName);
    return [v?.buildId ?? '(none)'];
  });
}

/** describe's versioning info: the behaviour the workflow declared and the build it is on. */
async function versioning(
  handle: WorkflowHandle,
): Promise<{ behavior: string; buildId: string | undefined }> {
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  const behaviors: Record<number, string> = { 1: 'PINNED', 2: 'AUTO_UPGRADE' };
  return {
    behavior: behaviors[Number(info?.behavior)] ?? String(info?.behavior),
    buildId: info?.deploymentVersion?.buildId ?? undefined,
  };
}

it('PINNED payments finish on the build that started them, new ones run on the current build, entities move to it', async () => {
  // --- build A is deployed and current
  await startBuild(A);
  await buildRegistered(A);
  await setCurrentVersion(stack.client, deploymentName, A);

  const paymentsOnA = [await startOnePayment('ver-a1'), await startOnePayment('ver-a2')];
  const entitiesOfA = paymentsOnA.map((p) =>
    stack.client.workflow.getHandle(providerPaymentWorkflowId(p.providerPaymentId)),
  );
  for (const entity of entitiesOfA) {
    await eventually('the entity to run on A', async () =>
      (await versioning(entity)).buildId === A ? true : null,
    );
  }
  // An AUTO_UPGRADE entity that continues-as-new: the rate board, after 2 updates per run.
  const boardId = uniqueKey('ver-board');
  const board = await stack.client.workflow.start<typeof rateBoard>(RATE_BOARD_WORKFLOW_TYPE, {
    workflowId: boardId,
    taskQueue: stack.taskQueue,
    args: [{ maxUpdatesPerRun: 2 }],
  });
  await board.signal(rateBoardUpdateSignal, { entries: [], refreshedBy: 'versioning-test-1' });
  await eventually('the board to take its first update on A', async () =>
    (await board.query(rateBoardQuery)).updatesThisRun === 1 ? true : null,
  );
  expect(await versioning(board)).toEqual({ behavior: 'AUTO_UPGRADE', buildId: A });

  // --- build B is deployed beside A, then made current with the CLI
  await startBuild(B);
  await buildRegistered(B);
  const setCurrent = await xborder(['deploy', 'set-current', B, '--json']);
  expect(setCurrent.err).toBe('');
  expect(setCurrent.code).toBe(0);
  expect(JSON.parse(setCurrent.out)).toMatchObject({
    deploymentName,
    action: 'set-current',
    currentBuildId: B,
    previousBuildId: A,
  });
  const status = await xborder(['deploy', 'status', '--json']);
  expect(status.code).toBe(0);
  const described = JSON.parse(status.out) as Awaited<ReturnType<typeof describeWorkerDeployment>>;
  expect(described).toMatchObject({ deploymentName, currentBuildId: B, rampingBuildId: null });
  expect(described.versions.find((v) => v.buildId === B)?.status).toBe('CURRENT');
  // A keeps the payments pinned to it: no longer current, not gone
  expect(['DRAINING', 'INACTIVE']).toContain(described.versions.find((v) => v.buildId === A)?.status);
  // ... and `deploy status` counts them: A holds 2 open PINNED runs (visibility may lag a moment)
  const openRunsOf = async (build: string) => {
    const s = JSON.parse((await xborder(['deploy', 'status', '--json'])).out) as {
      versions: Array<{ buildId: string; openRuns: { open: number; pinned: number } }>;
    };
    return s.versions.find((v) => v.buildId === build)?.openRuns;
  };
  await eventually("deploy status to count A's pinned payments", async () =>
    (await openRunsOf(A))?.pinned === 2 ? true : null,
  );
  expect((await xborder(['deploy', 'status'])).out).toMatch(
    new RegExp(`${A} .*open runs?, 2 PINNED: holds this build`),
  );

  // --- A's payments, funded now, finish on A (both workers poll the same task queue)
  for (const p of paymentsOnA) await fund(p.providerPaymentId);
  for (const p of paymentsOnA) {
    expect((await p.result()).outcome).toBe('COMPLETED');
    const builds = await taskBuilds(stack.client, p.workflowId);
    expect(builds.length).toBeGreaterThan(3);
    expect(new Set(builds)).toEqual(new Set([A]));
    expect(await versioning(stack.client.workflow.getHandle(p.workflowId))).toEqual({
      behavior: 'PINNED',
      buildId: A,
    });
  }

  // --- A holds no open PINNED run any more: its workers may stop
  await eventually('deploy status to show A without pinned runs', async () =>
    (await openRunsOf(A))?.pinned === 0 ? true : null,
  );

  // --- their entities (AUTO_UPGRADE) moved to B at their first task after the switch
  for (const entity of entitiesOfA) {
    await eventually('the entity to move to B', async () =>
      (await versioning(entity)).buildId === B ? true : null,
    );
    expect((await versioning(entity)).behavior).toBe('AUTO_UPGRADE');
    const builds = await taskBuilds(stack.client, entity.workflowId);
    expect(builds[0]).toBe(A);
    expect(builds[builds.length - 1]).toBe(B);
    expect(builds.indexOf(B)).toBeGreaterThan(builds.lastIndexOf(A)); // never back to A once on B
  }

  // --- a new payment runs on B from its first task, its entity too
  const onB = await startOnePayment('ver-b1');
  await fund(onB.providerPaymentId);
  expect((await onB.result()).outcome).toBe('COMPLETED');
  expect(new Set(await taskBuilds(stack.client, onB.workflowId))).toEqual(new Set([B]));
  expect(await versioning(stack.client.workflow.getHandle(onB.workflowId))).toEqual({
    behavior: 'PINNED',
    buildId: B,
  });
  expect(new Set(await taskBuilds(stack.client, providerPaymentWorkflowId(onB.providerPaymentId)))).toEqual(
    new Set([B]),
  );

  // --- the board's second update: it moves to B and continues-as-new; the next run is on B from its first task
  const firstRunId = board.firstExecutionRunId;
  await board.signal(rateBoardUpdateSignal, { entries: [], refreshedBy: 'versioning-test-2' });
  const latest = stack.client.workflow.getHandle(boardId);
  await eventually('the board to continue as new', async () =>
    (await latest.query(rateBoardQuery)).generation === 1 ? true : null,
  );
  const firstRunBuilds = await taskBuilds(stack.client, boardId, firstRunId);
  expect(firstRunBuilds[0]).toBe(A);
  expect(firstRunBuilds[firstRunBuilds.length - 1]).toBe(B);
  const secondRun = (await latest.describe()).runId;
  expect(secondRun).not.toBe(firstRunId);
  expect(new Set(await taskBuilds(stack.client, boardId, secondRun))).toEqual(new Set([B]));
  expect(await versioning(latest)).toEqual({ behavior: 'AUTO_UPGRADE', buildId: B });
  await latest.terminate('test done');

  // --- a ramp and its end, through the CLI
  const ramp = await xborder(['deploy', 'ramp', A, '10', '--json']);
  expect(ramp.code).toBe(0);
  expect(JSON.parse(ramp.out)).toMatchObject({ action: 'ramp', rampingBuildId: A, rampingPercentage: 10 });
  expect(await describeWorkerDeployment(stack.client, deploymentName)).toMatchObject({
    currentBuildId: B,
    rampingBuildId: A,
    rampingPercentage: 10,
  });
  const stopRamp = await xborder(['deploy', 'stop-ramp']);
  expect(stopRamp.code).toBe(0);
  expect(stopRamp.out).toMatch(new RegExp(`no ramp \\(was ${A} at 10%\\)`));
  expect(await describeWorkerDeployment(stack.client, deploymentName)).toMatchObject({
    currentBuildId: B,
    rampingBuildId: null,
  });

  // --- an unknown deployment is exit code 1 with what to do
  const unknown = await xborder(['deploy', 'status', '--deployment', `nope-${randomUUID().slice(0, 8)}`]);
  expect(unknown.code).toBe(1);
  expect(unknown.err).toMatch(
    /no Worker Deployment "nope-.*": start a worker with XBORDER_DEPLOYMENT_NAME=nope-/,
  );
});

it('an unversioned worker runs the same bundle: the behaviours are declared only on a versioned worker', async () => {
  // The server refuses a versioning behaviour from an unversioned worker (the workflow task never completes); every
  // worker is versioned now, but a run started on an unversioned one before the switch (or on a server without the
  // Worker Deployment API, XBORDER_WORKER_VERSIONING=false) must still run. Its own task queue, so no versioned
  // worker takes it.
  const taskQueue = `${stack.taskQueue}-unversioned`;
  workers.push(
    await startXborderWorker({
      temporal: { address: stack.temporal.address, namespace: stack.namespace },
      taskQueue,
      provider: stack.provider,
      dataConverter: stack.dataConverter,
      workflowBundlePath: bundlePath,
    }),
  );
  const key = uniqueKey('ver-unversioned');
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key, 25),
    },
    { taskQueue },
  );
  expect(started.created.outcome).toBe('CREATED');
  const history = await stack.client.workflow.getHandle(started.workflowId).fetchHistory();
  const completed = (history.events ?? []).flatMap((e) =>
    e.workflowTaskCompletedEventAttributes ? [e.workflowTaskCompletedEventAttributes] : [],
  );
  expect(completed.length).toBeGreaterThan(0);
  for (const task of completed) {
    expect(task.deploymentVersion?.deploymentName ?? '').toBe('');
    expect(Number(task.versioningBehavior ?? 0)).toBe(0); // VERSIONING_BEHAVIOR_UNSPECIFIED
  }
  await stack.client.workflow.getHandle(started.workflowId).terminate('test done');
});

it('xborder worker makes its build current when the deployment has none, and leaves another build current alone', async () => {
  const ROOT = path.resolve(__dirname, '..', '..');
  const ownDeployment = `xborder-e2e-first-${randomUUID().slice(0, 8)}`;
  const taskQueue = `${stack.taskQueue}-processes`;
  const children: ChildProcess[] = [];
  /** Starts `xborder worker` (workers/main.ts) and resolves with its output once `until` appears in it. */
  const workerProcess = (buildId: string, until: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'workers', 'main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          TEMPORAL_ADDRESS: stack.temporal.address,
          XBORDER_TASK_QUEUE: taskQueue,
          XBORDER_PROVIDER_URL: stack.sandbox.url,
          XBORDER_PROVIDER_API_KEY: stack.apiKey,
          XBORDER_WORKFLOW_BUNDLE: bundlePath,
          XBORDER_ENSURE_SCHEDULES: 'false',
          XBORDER_STUCK_GAUGE_INTERVAL_MS: '0',
          XBORDER_LOG_LEVEL: 'ERROR',
          XBORDER_DEPLOYMENT_NAME: ownDeployment,
          XBORDER_BUILD_ID: buildId,
        },
      });
      children.push(child);
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`worker ${buildId} never printed ${String(until)}:\n${out}`)),
        120_000,
      );
      const take = (c: Buffer) => {
        out += c.toString();
        if (until.test(out)) {
          clearTimeout(timer);
          resolve(out);
        }
      };
      child.stdout.on('data', take);
      child.stderr.on('data', take);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`worker ${buildId} exited (${code}):\n${out}`));
      });
    });
  try {
    const first = await workerProcess('first', /made current|could not make/);
    expect(first).toContain(`worker: Worker Deployment ${ownDeployment}, build first`);
    expect(first).toContain(
      `worker: Worker Deployment ${ownDeployment}: build first made current (the deployment had no current build)`,
    );
    const second = await workerProcess('second', /left as it is|could not make|made current/);
    expect(second).toContain(
      `worker: Worker Deployment ${ownDeployment}: build first is current, left as it is; build second gets tasks once made current or ramping (xborder deploy set-current second)`,
    );
    expect(await describeWorkerDeployment(stack.client, ownDeployment)).toMatchObject({
      currentBuildId: 'first',
    });

    const key = uniqueKey('ver-process');
    const started = await startPayment(
      stack.client,
      { paymentKey: key, request: demoPaymentRequest(key, 25) },
      { taskQueue },
    );
    expect(started.created.outcome).toBe('CREATED');
    expect(await versioning(stack.client.workflow.getHandle(started.workflowId))).toEqual({
      behavior: 'PINNED',
      buildId: 'first',
    });
    await stack.client.workflow.getHandle(started.workflowId).terminate('test done');
  } finally {
    for (const child of children) child.kill('SIGKILL');
  }
});
