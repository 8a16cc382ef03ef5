// Build ids that cannot lie (docs/deployment.md, "Build ids"), on the dev server: a worker derives its build id from
// its workflow bundle, records the bundle's digest on its Worker Deployment Version, and a worker of another bundle
// refuses to start under a build id that bundle registered. Before this, the build id defaulted to the package
// version and any code could run under any id: changed workflow code under an existing PINNED build.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../../src/cli/stack';
import { BuildIdTakenError, registeredBundleDigest } from '../../src/client/build-registry';
import { startXborderWorker, type RunningXborderWorker } from '../../workers/worker';
import { workflowBundleDigest } from '../../workers/build-id';
import { packageVersion } from '../../src/support/package-root';
import { anotherBuildOf } from '../support/another-build';
import { workflowBundle } from '../support/temporal';
import { PRODUCT_WORKFLOWS } from '../support/workflow-bundle-cache';
import { startTestStack } from './stack-support';

jest.setTimeout(180_000);

const deploymentName = `xborder-buildid-${randomUUID().slice(0, 8)}`;
let stack: LocalStack;
let bundleX: string;
let bundleY: string;
const workers: RunningXborderWorker[] = [];

beforeAll(async () => {
  stack = await startTestStack({ worker: false });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-buildid-'));
  const { code } = await workflowBundle(PRODUCT_WORKFLOWS);
  // Y is X plus one comment: the smallest change of code a rebuild without a version bump makes
  bundleX = path.join(dir, 'x.js');
  bundleY = path.join(dir, 'y.js');
  writeFileSync(bundleX, code);
  writeFileSync(bundleY, anotherBuildOf(code, 'another build of the same version'));
}, 120_000);

afterAll(async () => {
  for (const worker of workers) await worker.shutdown().catch(() => undefined);
  await stack?.close();
});

async function start(bundlePath: string, buildId?: string): Promise<RunningXborderWorker> {
  const worker = await startXborderWorker({
    temporal: { address: stack.temporal.address, namespace: stack.namespace },
    taskQueue: stack.taskQueue,
    provider: stack.provider,
    dataConverter: stack.dataConverter,
    workflowBundlePath: bundlePath,
    nexus: false,
    deployment: {
      version: { deploymentName, ...(buildId ? { buildId } : {}) },
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    },
  });
  workers.push(worker);
  return worker;
}

it('derives the build id from the bundle: same version, another code, another build id', async () => {
  const x = await start(bundleX);
  const y = await start(bundleY);
  const digestX = await workflowBundleDigest({ codePath: bundleX });
  expect(x.version).toEqual({ deploymentName, buildId: `${packageVersion()}+${digestX.slice(0, 12)}` });
  expect(y.version?.buildId).toMatch(
    new RegExp(`^${packageVersion().replace(/\./g, '\\.')}\\+[0-9a-f]{12}$`),
  );
  expect(y.version?.buildId).not.toBe(x.version?.buildId);
  // each recorded its own bundle on its version
  const service = stack.client.workflowService;
  expect(await registeredBundleDigest(service, { namespace: stack.namespace, ...x.version! })).toBe(digestX);
  expect(await registeredBundleDigest(service, { namespace: stack.namespace, ...y.version! })).toBe(
    y.bundleDigest,
  );
});

it('refuses to start another bundle under a build id a bundle already registered; the same bundle starts again', async () => {
  const buildId = `pinned-${randomUUID().slice(0, 8)}`;
  const first = await start(bundleX, buildId);
  expect(first.version?.buildId).toBe(buildId);
  const refused = start(bundleY, buildId);
  await expect(refused).rejects.toBeInstanceOf(BuildIdTakenError);
  await expect(refused).rejects.toThrow(/refusing to start/);
  // a second replica (or a restart) of the registered bundle is the same code: it starts
  const replica = await start(bundleX, buildId);
  expect(replica.version?.buildId).toBe(buildId);
  expect(
    await registeredBundleDigest(stack.client.workflowService, {
      namespace: stack.namespace,
      deploymentName,
      buildId,
    }),
  ).toBe(first.bundleDigest);
});
