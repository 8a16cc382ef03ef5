// Moving a stuck PINNED payment to a fixed build (docs/deployment.md, "A pinned run that does not end"): a payment
// pinned to build A; A's workers are stopped; the operator pins the run to build B with the Temporal CLI's
// versioning override; the payment then takes its next workflow tasks on B and completes there.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { describeWorkerDeployment, setCurrentVersion } from '../../src/client/worker-deployments';
import { paymentStateQuery } from '../../workflows/payment/api';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';
import { startXborderWorker, type RunningWorker } from '../../workers/worker';
import { temporalBinaries } from '../support/temporal';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(300_000);

const deploymentName = `xborder-e2e-override-${randomUUID().slice(0, 8)}`;
const A = 'build-a';
const B = 'build-b';
let stack: LocalStack;
let bundlePath: string;
const workers: RunningWorker[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false, sandbox: { demoData: true, quoteValidityMs: 120_000 } });
  bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-override-')), 'workflow-bundle.js');
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
  await eventually(
    `build ${buildId} to be registered`,
    async () =>
      (await describeWorkerDeployment(stack.client, deploymentName)).versions.some(
        (v) => v.buildId === buildId,
      )
        ? true
        : null,
    60_000,
  );
  return worker;
}

async function versioning(handle: WorkflowHandle) {
  const info = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  return {
    behavior: Number(info?.behavior),
    buildId: info?.deploymentVersion?.buildId ?? undefined,
    overrideBuildId:
      info?.versioningOverride?.pinned?.version?.buildId ??
      info?.versioningOverride?.pinnedVersion ??
      undefined,
  };
}

it('a payment pinned to a stopped build moves to a fixed build with the versioning override, and completes there', async () => {
  const workerA = await startBuild(A);
  await setCurrentVersion(stack.client, deploymentName, A);
  const key = uniqueKey('override');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: demoPaymentRequest(key, 25) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const handle = stack.client.workflow.getHandle(started.workflowId);
  expect(await versioning(handle)).toMatchObject({ behavior: 1 /* PINNED */, buildId: A });

  // build B (the fix) is deployed and made current; A is stopped while its payment still waits for funds
  await startBuild(B);
  // The server refuses a current version whose task queues (workflow and activity) have not all been polled yet
  // ("missing active task queues from the current version"): a new build's second poller may lag its first.
  await eventually(
    'build B to be accepted as current',
    () =>
      setCurrentVersion(stack.client, deploymentName, B).then(
        () => true,
        (error: unknown) => (/missing active task queues/.test(String(error)) ? null : Promise.reject(error)),
      ),
    60_000,
  );
  await workerA.shutdown();

  // stranded: no worker of A is left to answer a query of the run (startPayment's createdAnswer, xborder status)
  // (the query is cancelled after 5 s, not left to retry: a retry still pending when the file closes its
  // connection would throw from a timer)
  const giveUp = new AbortController();
  const timer = setTimeout(() => giveUp.abort(), 5_000);
  const stranded = await stack.client
    .withAbortSignal(giveUp.signal, () => handle.query(paymentStateQuery))
    .then(
      () => 'answered',
      () => (giveUp.signal.aborted ? 'no answer' : 'failed'),
    );
  clearTimeout(timer);
  expect(stranded).toBe('no answer');

  // the documented procedure: pin the run to B (CLI 1.9.1 flags), then check with describe
  const cli = temporalBinaries().cli ?? 'temporal';
  await promisify(execFile)(cli, [
    'workflow',
    'update-options',
    '--address',
    stack.temporal.address,
    '--namespace',
    stack.namespace,
    '--workflow-id',
    started.workflowId,
    '--versioning-override-behavior',
    'pinned',
    '--versioning-override-deployment-name',
    deploymentName,
    '--versioning-override-build-id',
    B,
  ]);
  await eventually('the override to show', async () =>
    (await versioning(handle)).overrideBuildId === B ? true : null,
  );

  // B's worker answers the run now (a query needs a worker of the run's build) and takes its next tasks
  expect((await handle.query(paymentStateQuery)).phase).toBe('AWAITING_FUNDS');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect((await started.result()).outcome).toBe('COMPLETED');
  const history = await handle.fetchHistory();
  const builds = (history.events ?? []).flatMap((e) =>
    e.workflowTaskCompletedEventAttributes
      ? [e.workflowTaskCompletedEventAttributes.deploymentVersion?.buildId]
      : [],
  );
  expect(builds[0]).toBe(A);
  expect(builds.at(-1)).toBe(B);
});
