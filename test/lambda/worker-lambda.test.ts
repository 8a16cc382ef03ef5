// The Lambda worker (workers/lambda-worker.ts on @temporalio/lambda-worker) in-process: the handler is invoked
// with a simulated Lambda context, again and again as a scheduler would, against the local stack (dev server,
// sandbox, ingress; no long-lived worker). A payment runs to COMPLETED and every workflow task and activity of
// it ran through the Lambda invocations (the worker identity is `<awsRequestId>@<function ARN>`).
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { LambdaHandler } from '@temporalio/lambda-worker';
import { _runWorkerInternal } from '@temporalio/lambda-worker/lib/lambda-worker';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { lambdaWorkerSettingsFromEnv } from '../../workers/lambda-worker';
import { loadWorkflowBundle } from '../../workers/workflow-bundle';
import { makeCurrentIfNone } from '../../src/client/worker-deployments';
import { startTestStack, uniqueKey } from '../e2e/stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(180_000);

const FUNCTION_ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:xborder-worker';

/** What the Lambda runtime passes; only the deadline and the ids matter to the worker. */
function lambdaContext(timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'xborder-worker',
    functionVersion: '$LATEST',
    invokedFunctionArn: FUNCTION_ARN,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: '/aws/lambda/xborder-worker',
    logStreamName: `2026/11/23/[$LATEST]${requestId}`,
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

let stack: LocalStack;
let handler: LambdaHandler;
const deploymentName = `xborder-lambda-${randomUUID().slice(0, 8)}`;
const buildId = 'lambda-test-1';
const identities = new Set<string>();
let invoking = true;
let invocations: Promise<void> = Promise.resolve();

/** Invokes the handler back to back (each invocation polls ~8 s, then drains) until stopped: a stand-in for the scheduler. */
function keepInvoking(): Promise<void> {
  return (async () => {
    while (invoking) {
      const context = lambdaContext(15_000);
      identities.add(`${context.awsRequestId}@${FUNCTION_ARN}`);
      await handler({}, context);
    }
  })();
}

beforeAll(async () => {
  stack = await startTestStack({ worker: false, sandbox: { demoData: true, quoteValidityMs: 60_000 } });
  const workflowBundle = await loadWorkflowBundle(); // from the sources; a deployed worker loads the prebuilt file
  const settings = lambdaWorkerSettingsFromEnv(
    {
      TEMPORAL_ADDRESS: stack.temporal.address,
      TEMPORAL_NAMESPACE: stack.namespace,
      XBORDER_TASK_QUEUE: stack.taskQueue,
      XBORDER_PROVIDER_URL: stack.sandbox.url,
      XBORDER_PROVIDER_API_KEY: stack.apiKey,
      XBORDER_DEPLOYMENT_NAME: deploymentName,
      XBORDER_BUILD_ID: buildId,
      XBORDER_LOG_LEVEL: 'ERROR',
      XBORDER_CODEC_KEYS_FILE: process.env.XBORDER_CODEC_KEYS_FILE, // the test key (test/support/jest-setup.ts)
    },
    { workflowBundle },
  );
  // runWorker (createXborderLambdaWorker) is exactly this with the package's default dependencies; the one
  // difference here: jest-setup has already installed this process's Runtime, so the install is skipped.
  handler = _runWorkerInternal(settings.version, settings.configure, {
    connect: (options) => NativeConnection.connect(options),
    createWorker: (options) => Worker.create(options),
    loadConnectConfig: () => ({ connectionOptions: {} }),
    installRuntime: () => undefined,
    getLogger: () => Runtime.instance().logger,
  });
}, 180_000);

afterAll(async () => {
  invoking = false;
  await invocations.catch(() => undefined);
  await stack?.close();
});

/**
 * A versioned worker gets tasks only once its version is current; the version exists once the worker has polled.
 * The deploy's step (docs/deployment.md, "Serverless: the Lambda worker", step 4), as the first build: the deployment
 * has no current build yet.
 */
async function makeCurrent(): Promise<void> {
  expect(
    await makeCurrentIfNone(stack.client, { deploymentName, buildId }, { identity: 'worker-lambda.test' }),
  ).toMatchObject({ action: 'made-current' });
}

it('runs a payment to COMPLETED with every workflow task and activity on the Lambda worker', async () => {
  invocations = keepInvoking();
  await makeCurrent();

  const key = uniqueKey('lambda-pay');
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key),
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect((await started.result()).outcome).toBe('COMPLETED');

  const history = await stack.client.workflow.getHandle(started.workflowId).fetchHistory();
  const events = history.events ?? [];
  const workflowTaskWorkers = events.flatMap((e) =>
    e.workflowTaskStartedEventAttributes ? [e.workflowTaskStartedEventAttributes.identity] : [],
  );
  const activityWorkers = events.flatMap((e) =>
    e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.identity] : [],
  );
  expect(workflowTaskWorkers.length).toBeGreaterThan(0);
  expect(activityWorkers.length).toBeGreaterThan(0);
  for (const identity of [...workflowTaskWorkers, ...activityWorkers]) expect(identities).toContain(identity);
  // ran on the declared Worker Deployment Version
  const versions = events.flatMap((e) => {
    const v = e.workflowTaskCompletedEventAttributes?.deploymentVersion;
    return v ? [`${v.deploymentName}:${v.buildId}`] : [];
  });
  expect(new Set(versions)).toEqual(new Set([`${deploymentName}:${buildId}`]));
  // the bundle's versioning behaviours reach the Lambda worker: the payment PINNED, its entity AUTO_UPGRADE
  const behavior = async (workflowId: string) =>
    Number(
      (await stack.client.workflow.getHandle(workflowId).describe()).raw.workflowExecutionInfo?.versioningInfo
        ?.behavior,
    );
  expect(await behavior(started.workflowId)).toBe(1); // VERSIONING_BEHAVIOR_PINNED
  expect(await behavior(providerPaymentWorkflowId(started.created.providerPaymentId))).toBe(2); // AUTO_UPGRADE
});
