// The artefacts of `npm run build:lambda` (scripts/lambda/build.ts), built into test-artifacts/ and run: the
// ingress file delivers a webhook to the dev server; the worker directory, loaded by a plain `node` process as the
// Lambda runtime would, serves one invocation and registers its Worker Deployment Version with the server.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildLambdaIngress, buildLambdaWorker } from '../../scripts/lambda/build';
import type { handler, resetLambdaIngress } from '../../src/ingress/lambda-main';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { createDevServerEnv, uniqueTaskQueue } from '../support/temporal';
import { lambdaEvent, signedPaymentEvent, TEST_SECRET } from './events';
import { generatedApiKey } from '../support/secrets';

jest.setTimeout(180_000);

// Inside the repository, so the worker's external @temporalio packages resolve from its node_modules as they
// would from the artefact's own after `npm install --omit=dev`.
const OUT = path.resolve(__dirname, '..', '..', 'test-artifacts', `lambda-${randomUUID()}`);

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createDevServerEnv();
}, 120_000);
afterAll(async () => {
  await env?.teardown();
  rmSync(OUT, { recursive: true, force: true });
});

it('the ingress artefact is one file whose handler delivers a webhook', async () => {
  const file = await buildLambdaIngress(path.join(OUT, 'ingress'));
  const saved = { ...process.env };
  Object.assign(process.env, {
    TEMPORAL_ADDRESS: env.address,
    XBORDER_WEBHOOK_SECRETS: TEST_SECRET,
    XBORDER_TASK_QUEUE: uniqueTaskQueue('lambda-build'),
    XBORDER_LOG_LEVEL: 'ERROR',
  });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const artefact = require(file) as {
      handler: typeof handler;
      resetLambdaIngress: typeof resetLambdaIngress;
    };
    const paymentId = `pay_${randomUUID()}`;
    const result = await artefact.handler(
      lambdaEvent('apiGatewayV2', signedPaymentEvent(paymentId), { base64: true }),
    );
    expect(result.statusCode).toBe(200);
    await artefact.resetLambdaIngress();
    const history = await env.client.workflow.getHandle(providerPaymentWorkflowId(paymentId)).fetchHistory();
    expect((history.events ?? []).some((e) => e.workflowExecutionSignaledEventAttributes)).toBe(true);
  } finally {
    process.env = saved;
  }
});

it('the worker artefact runs one invocation in a fresh node process and registers its deployment version', async () => {
  const dir = await buildLambdaWorker(path.join(OUT, 'worker'));
  const deploymentName = `xborder-build-${randomUUID().slice(0, 8)}`;
  // A simulated invocation with 10 s left: the worker polls ~3 s (7 s are kept for the drain), then closes.
  const invoke = `
    const { handler } = require(${JSON.stringify(path.join(dir, 'index.js'))});
    const deadline = Date.now() + 10000;
    const context = { awsRequestId: 'req-1', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:w', getRemainingTimeInMillis: () => deadline - Date.now() };
    handler({}, context).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  await promisify(execFile)(process.execPath, ['-e', invoke], {
    timeout: 90_000,
    env: {
      PATH: process.env.PATH,
      TEMPORAL_ADDRESS: env.address,
      XBORDER_TASK_QUEUE: uniqueTaskQueue('lambda-build'),
      XBORDER_PROVIDER_URL: 'http://127.0.0.1:9',
      XBORDER_PROVIDER_API_KEY: generatedApiKey(),
      XBORDER_DEPLOYMENT_NAME: deploymentName,
      XBORDER_BUILD_ID: 'artefact-1',
      XBORDER_LOG_LEVEL: 'ERROR',
      XBORDER_CODEC_KEYS_FILE: process.env.XBORDER_CODEC_KEYS_FILE, // the test key (test/support/jest-setup.ts)
    },
  });
  const described = await env.client.workflowService.describeWorkerDeployment({
    namespace: env.namespace ?? 'default',
    deploymentName,
  });
  const buildIds = (described.workerDeploymentInfo?.versionSummaries ?? []).map(
    (v) => v.deploymentVersion?.buildId,
  );
  expect(buildIds).toEqual(['artefact-1']);
});
