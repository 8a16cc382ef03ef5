// What the Lambda worker hands @temporalio/lambda-worker (workers/lambda-worker.ts), without a server: version,
// versioning behaviour, connection from temporalConfigFromEnv, task queue, bundle, activities, metrics exporter.
import type { LambdaWorkerConfig } from '@temporalio/lambda-worker';
import { lambdaWorkerSettingsFromEnv } from '../../workers/lambda-worker';
import { generatedApiKey } from '../support/secrets';

const BASE = {
  XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010',
  XBORDER_PROVIDER_API_KEY: generatedApiKey(),
  XBORDER_BUILD_ID: 'abc123',
  XBORDER_CODEC_KEYS_FILE: process.env.XBORDER_CODEC_KEYS_FILE,
};

/** The pre-populated config the package passes to the configure callback (trimmed to what we touch). */
function packageConfig(): LambdaWorkerConfig {
  return {
    workerOptions: {
      maxConcurrentActivityTaskExecutions: 2,
      workerDeploymentOptions: { defaultVersioningBehavior: 'PINNED' },
    },
    connectionOptions: { address: 'from-envconfig:7233' },
    namespace: 'from-envconfig',
    runtimeOptions: { shutdownSignals: [] },
    shutdownHooks: [],
  };
}

it('declares the deployment version and AUTO_UPGRADE by default, and configures our worker', () => {
  const settings = lambdaWorkerSettingsFromEnv({
    ...BASE,
    TEMPORAL_ADDRESS: 'temporal.internal:7233',
    TEMPORAL_NAMESPACE: 'payments',
    XBORDER_TASK_QUEUE: 'xb',
  });
  expect(settings.version).toEqual({ deploymentName: 'xborder', buildId: 'abc123' });
  const config = packageConfig();
  settings.configure(config);
  // Our connection settings replace the package's envconfig ones: one source for every process.
  expect(config.connectionOptions).toEqual({ address: 'temporal.internal:7233' });
  expect(config.namespace).toBe('payments');
  expect(config.workerOptions).toMatchObject({
    taskQueue: 'xb',
    maxConcurrentActivityTaskExecutions: 2, // the package's Lambda defaults are kept
    workerDeploymentOptions: { defaultVersioningBehavior: 'AUTO_UPGRADE' },
    workflowBundle: { codePath: expect.stringMatching(/workflow-bundle\.js$/) },
  });
  expect(Object.keys(config.workerOptions.activities ?? {})).toEqual(
    expect.arrayContaining(['createPayment']),
  );
  expect(config.workerOptions.interceptors?.activity).toHaveLength(1);
  expect(config.runtimeOptions.shutdownSignals).toEqual([]); // Lambda owns the lifecycle
  expect(config.runtimeOptions.telemetryOptions?.metrics).toBeUndefined(); // nothing to scrape in a Lambda
});

it('takes PINNED, an API key with TLS, an explicit bundle and an OTLP metrics collector from the environment', () => {
  const settings = lambdaWorkerSettingsFromEnv({
    ...BASE,
    TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
    TEMPORAL_NAMESPACE: 'ns.acct',
    TEMPORAL_API_KEY: 'key-123',
    XBORDER_DEPLOYMENT_NAME: 'xborder-eu',
    XBORDER_DEFAULT_VERSIONING_BEHAVIOR: 'PINNED',
    XBORDER_WORKFLOW_BUNDLE: '/opt/bundle.js',
    XBORDER_OTLP_METRICS_URL: 'http://127.0.0.1:4317',
  });
  expect(settings.version).toEqual({ deploymentName: 'xborder-eu', buildId: 'abc123' });
  const config = packageConfig();
  settings.configure(config);
  expect(config.connectionOptions).toEqual({
    address: 'ns.acct.tmprl.cloud:7233',
    apiKey: 'key-123',
    tls: {},
  });
  expect(config.workerOptions.workerDeploymentOptions).toEqual({ defaultVersioningBehavior: 'PINNED' });
  expect(config.workerOptions.workflowBundle).toEqual({ codePath: '/opt/bundle.js' });
  expect(config.runtimeOptions.telemetryOptions?.metrics).toMatchObject({
    otel: { url: 'http://127.0.0.1:4317' },
  });
});

it('fails the cold start without a build id or with a bad variable', () => {
  expect(() => lambdaWorkerSettingsFromEnv({ ...BASE, XBORDER_BUILD_ID: undefined })).toThrow(
    /XBORDER_BUILD_ID is required/,
  );
  expect(() =>
    lambdaWorkerSettingsFromEnv({ ...BASE, XBORDER_DEFAULT_VERSIONING_BEHAVIOR: 'SOMETIMES' }),
  ).toThrow(/XBORDER_DEFAULT_VERSIONING_BEHAVIOR/);
  expect(() => lambdaWorkerSettingsFromEnv({ ...BASE, XBORDER_PROVIDER_URL: undefined })).toThrow(
    /XBORDER_PROVIDER_URL/,
  );
});

it('takes the slots and the cache from the worker variables when set (the package keeps 2 activity slots and a cache of 30)', () => {
  const settings = lambdaWorkerSettingsFromEnv({
    ...BASE,
    XBORDER_MAX_CONCURRENT_ACTIVITIES: '20',
    XBORDER_MAX_CONCURRENT_WORKFLOW_TASKS: '10',
    XBORDER_MAX_CACHED_WORKFLOWS: '200',
  });
  const config = packageConfig();
  settings.configure(config);
  expect(config.workerOptions).toMatchObject({
    maxConcurrentActivityTaskExecutions: 20,
    maxConcurrentWorkflowTaskExecutions: 10,
    maxCachedWorkflows: 200,
  });
});
