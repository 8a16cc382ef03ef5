// Worker Deployment Versioning, without a server: which workflows are PINNED and which AUTO_UPGRADE
// (declared in workflows/versioning.ts, carried by the bundle to every worker, the Lambda one too), and the
// worker's version from the environment (workers/config.ts; versioned unless XBORDER_WORKER_VERSIONING=false). On the dev server, versioned and unversioned:
// test/e2e/worker-versioning.e2e.test.ts.
import * as registered from '../../workflows';
import { WORKFLOW_VERSIONING_BEHAVIORS } from '../../workflows/versioning';
import { workerConfigFromEnv } from '../../workers/config';
import { packageVersion } from '../../src/support/package-root';
import { generatedApiKey } from '../support/secrets';
import { derivedBuildId, workflowBundleDigest } from '../../workers/build-id';

// Every registered workflow has a behaviour: a compile-time check (tsc runs over the tests).
export const everyWorkflowHasABehavior: Record<keyof typeof registered, string> =
  WORKFLOW_VERSIONING_BEHAVIORS;

const base = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010', XBORDER_PROVIDER_API_KEY: generatedApiKey() };

it('declares PINNED on the money workflows and AUTO_UPGRADE on the entities and the scheduled runs, for every registered workflow', () => {
  expect(WORKFLOW_VERSIONING_BEHAVIORS).toEqual({
    payment: 'PINNED',
    transfer: 'PINNED',
    onboardCustomer: 'PINNED',
    registerAccount: 'PINNED',
    providerPayment: 'AUTO_UPGRADE',
    providerCustomer: 'AUTO_UPGRADE',
    rateBoard: 'AUTO_UPGRADE',
    refreshQuotes: 'AUTO_UPGRADE',
    reconcilePayments: 'AUTO_UPGRADE',
    paymentEvents: 'AUTO_UPGRADE', // the outbound events' delivery workflow: long-lived, moves no money
    reconciliationReport: 'AUTO_UPGRADE', // the daily report: writes files, moves no money
    nexusOutcome: 'AUTO_UPGRADE', // relays a payment's outcome to a Nexus caller under its key: moves no money
  });
  expect(Object.keys(WORKFLOW_VERSIONING_BEHAVIORS).sort()).toEqual(Object.keys(registered).sort());
  // attached to each workflow function as a getter (it reads workflowInfo(): only a versioned worker declares it)
  for (const fn of Object.values(registered)) {
    expect(typeof (fn as { workflowDefinitionOptions?: unknown }).workflowDefinitionOptions).toBe('function');
  }
});

it('versions the worker by default: deployment xborder, no build id from the environment (the worker derives it from its bundle)', () => {
  expect(workerConfigFromEnv(base).deployment).toEqual({
    version: { deploymentName: 'xborder' },
    defaultVersioningBehavior: 'AUTO_UPGRADE',
  });
});

it('leaves the worker unversioned only with an explicit XBORDER_WORKER_VERSIONING=false', () => {
  expect(
    workerConfigFromEnv({ ...base, XBORDER_BUILD_ID: 'abc', XBORDER_WORKER_VERSIONING: 'false' }),
  ).not.toHaveProperty('deployment');
});

it('declares the deployment name and build id, the build id never the package version by default', () => {
  expect(
    workerConfigFromEnv({ ...base, XBORDER_WORKER_VERSIONING: 'true' }).deployment?.version.buildId,
  ).not.toBe(packageVersion());
  expect(workerConfigFromEnv({ ...base, XBORDER_WORKER_VERSIONING: 'true' }).deployment).toEqual({
    version: { deploymentName: 'xborder' },
    defaultVersioningBehavior: 'AUTO_UPGRADE',
  });
  expect(
    workerConfigFromEnv({
      ...base,
      XBORDER_WORKER_VERSIONING: 'true',
      XBORDER_DEPLOYMENT_NAME: 'xborder-eu',
      XBORDER_BUILD_ID: 'git-3f2a9c1',
    }).deployment?.version,
  ).toEqual({ deploymentName: 'xborder-eu', buildId: 'git-3f2a9c1' });
});

it('refuses a bad XBORDER_WORKER_VERSIONING or an empty build id with the variable named', () => {
  expect(() => workerConfigFromEnv({ ...base, XBORDER_WORKER_VERSIONING: 'yes' })).toThrow(
    /XBORDER_WORKER_VERSIONING must be true or false/,
  );
  expect(() =>
    workerConfigFromEnv({ ...base, XBORDER_WORKER_VERSIONING: 'true', XBORDER_BUILD_ID: '' }),
  ).toThrow(/XBORDER_BUILD_ID/);
});

it('derives the build id from the workflow bundle: another code is another id, the same code the same id', async () => {
  const a = await workflowBundleDigest({ code: 'bundle A' });
  const b = await workflowBundleDigest({ code: 'bundle A\n// one character more' });
  expect(a).toMatch(/^[0-9a-f]{64}$/);
  expect(derivedBuildId(a, '0.3.0')).toBe(`0.3.0+${a.slice(0, 12)}`);
  expect(derivedBuildId(a, '0.3.0')).toBe(
    derivedBuildId(await workflowBundleDigest({ code: 'bundle A' }), '0.3.0'),
  );
  // the version unchanged, the code changed: never the same id (what a version-only build id got wrong)
  expect(derivedBuildId(b, '0.3.0')).not.toBe(derivedBuildId(a, '0.3.0'));
});
