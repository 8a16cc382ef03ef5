// How the current build is served, as the stuck gauge reads it (src/client/build-backlog.ts, stuck-counts.ts) on
// the dev server: its workers' pollers, and the age of the oldest workflow task waiting on it. The signal of a
// deploy that routes work to nobody (docs/deployment.md, "Upgrades"; alert XborderCurrentBuildBacklogAging): the
// current build's workers gone, a new workflow's first task waits and its age grows.
import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../../src/cli/stack';
import { countStuckPayments } from '../../src/client/stuck-counts';
import { startXborderWorker } from '../../workers/worker';
import { makeCurrentIfNone } from '../../src/client/worker-deployments';
import { workflowBundle } from '../support/temporal';
import { PRODUCT_WORKFLOWS } from '../support/workflow-bundle-cache';
import { eventually, startTestStack } from './stack-support';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(180_000);

let stack: LocalStack;
const deploymentName = `xborder-serving-${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

it('sees the current build polling, then, its workers gone, a workflow task waiting on it and its age growing', async () => {
  const bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-serving-')), 'bundle.js');
  writeFileSync(bundlePath, (await workflowBundle(PRODUCT_WORKFLOWS)).code);
  const worker = await startXborderWorker({
    temporal: { address: stack.temporal.address, namespace: stack.namespace },
    taskQueue: stack.taskQueue,
    provider: stack.provider,
    dataConverter: stack.dataConverter,
    workflowBundlePath: bundlePath,
    nexus: false,
    deployment: { version: { deploymentName }, defaultVersioningBehavior: 'AUTO_UPGRADE' },
  });
  const buildId = worker.version!.buildId;
  await makeCurrentIfNone(stack.client, { deploymentName, buildId });
  const count = () =>
    countStuckPayments(stack.client, { now: new Date(), deploymentName, taskQueue: stack.taskQueue });
  const serving = await count();
  expect(serving.current).toMatchObject({ buildId, pollers: { workflow: 1, activity: 1 } });
  expect(serving.current!.backlog.count).toBe(0);

  await worker.shutdown();
  // a new workflow goes to the current build, whose workers are gone: its first task waits
  const handle = await stack.client.workflow.start('rateBoard', {
    taskQueue: stack.taskQueue,
    workflowId: `serving-${randomUUID()}`,
    args: [],
  });
  try {
    const waiting = await eventually('a task waiting on the current build for more than 2 s', async () => {
      const counted = await count();
      return counted.current && counted.current.backlog.count >= 1 && counted.current.backlog.ageSeconds > 2
        ? counted.current
        : null;
    });
    expect(waiting.buildId).toBe(buildId);
  } finally {
    await handle.terminate('test over').catch(() => undefined);
  }
});
