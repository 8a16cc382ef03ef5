// xborder's workflows and activities as an AWS Lambda worker on @temporalio/lambda-worker (docs/deployment.md,
// "Lambda worker"). Each invocation connects, polls the task queue until shortly before the Lambda deadline, drains
// and closes: the package's lifecycle. What is ours: the configuration from the environment, the same as the
// long-lived worker's (workers/config.ts: Temporal connection through temporalConfigFromEnv, provider URL and key,
// task queue), the provider client, the activities and their provider-error counter, and the JSON logger.
//
// Worker Deployment Versioning is always on in a Lambda worker: it declares XBORDER_DEPLOYMENT_NAME and
// XBORDER_BUILD_ID, and the server needs a current version for the deployment before it hands it any task. Unlike
// `xborder worker`, it does not make its first build current itself (makeCurrentIfNone): the Worker Controller
// invokes it only for a build that already gets tasks, so the deploy does (`xborder deploy set-current`). The
// behaviour of each workflow (PINNED money workflows, AUTO_UPGRADE entities) comes with the bundle
// (workflows/versioning.ts); XBORDER_DEFAULT_VERSIONING_BEHAVIOR is only for a workflow that declares none.
import { runWorker, type LambdaHandler, type LambdaWorkerConfig } from '@temporalio/lambda-worker';
import type { DataConverter, VersioningBehavior, WorkerDeploymentVersion } from '@temporalio/common';
import { makeTelemetryFilterString, type WorkflowBundleOption } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities, type ProviderPort } from '../activities';
import { createProviderClient } from '../src/provider';
import { providerErrorCounter } from '../src/telemetry/activity-interceptor';
import { createJsonLogger, logLevelFromEnv } from '../src/telemetry/logger';
import { DEFAULT_DEPLOYMENT_NAME, workerConfigFromEnv } from './config';
import { eventsConfigFromEnv } from './events-config';
import { xborderNexusHandler } from '../src/nexus/handlers';
import { connectionOptionsOf } from '../src/client/connection-config';
import { dataConverterOf, workerCodecConfigFromEnv } from '../src/codec/data-converter';
import { installTracingFromEnv } from '../src/telemetry/tracing';
import { tracingWorkerOptions } from './tracing';
import { chooseBundlePath } from './tracing-bundle-path';
import { parseEnvironment } from '../src/support/environment';

export { DEFAULT_DEPLOYMENT_NAME };

const LambdaWorkerEnvSchema = z.object({
  /** Worker Deployment name (one per service). */
  XBORDER_DEPLOYMENT_NAME: z.string().min(1).default(DEFAULT_DEPLOYMENT_NAME),
  /** Build id of this deploy (e.g. the git commit): required, a new one for every deploy of changed code. */
  XBORDER_BUILD_ID: z
    .string({ error: 'XBORDER_BUILD_ID is required: the build id of this deploy (e.g. the git commit)' })
    .min(1, 'XBORDER_BUILD_ID is required: the build id of this deploy (e.g. the git commit)'),
  /**
   * Behaviour of workflows that declare none. AUTO_UPGRADE (default): a running workflow moves to the current
   * version's code at its next task, as with the long-lived unversioned worker today, so the `patched()`
   * discipline keeps replay safe and the long-lived entities never strand on an old version. PINNED keeps every
   * workflow on the version that started it, which needs that Lambda version kept deployed until they all close.
   */
  XBORDER_DEFAULT_VERSIONING_BEHAVIOR: z.enum(['AUTO_UPGRADE', 'PINNED']).default('AUTO_UPGRADE'),
  /**
   * Prebuilt workflow bundle; default `workflow-bundle.js` next to the entry (npm run build:lambda puts it there),
   * and with tracing on (XBORDER_TRACING=otlp or OTEL_EXPORTER_OTLP_ENDPOINT) the `-otel.js` file beside it.
   */
  XBORDER_WORKFLOW_BUNDLE: z.string().min(1).optional(),
  /** OTLP/gRPC collector URL for the Temporal and xborder metrics (e.g. an ADOT collector layer); none = no metrics. */
  XBORDER_OTLP_METRICS_URL: z.string().url().optional(),
});

/** The Lambda worker's own variables (besides the worker's and TEMPORAL_*). */
export const LAMBDA_WORKER_ENV_VARS = Object.keys(LambdaWorkerEnvSchema.shape) as ReadonlyArray<
  keyof typeof LambdaWorkerEnvSchema.shape
>;

export interface LambdaWorkerOverrides {
  /** Tests: the workflow bundle made from the sources instead of a prebuilt file. */
  workflowBundle?: WorkflowBundleOption;
  /** Tests: a provider port instead of the HTTP client built from XBORDER_PROVIDER_*. */
  provider?: ProviderPort;
  /** A data converter instead of the codec built from XBORDER_CODEC_KEYS(_FILE). */
  dataConverter?: DataConverter;
}

export interface XborderLambdaWorkerSettings {
  version: WorkerDeploymentVersion;
  defaultVersioningBehavior: VersioningBehavior;
  configure(config: LambdaWorkerConfig): void;
}

/** Everything runWorker needs, read and checked from the environment now (a bad variable fails the cold start). */
export function lambdaWorkerSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: LambdaWorkerOverrides = {},
): XborderLambdaWorkerSettings {
  const worker = workerConfigFromEnv(env);
  const e = parseEnvironment(LambdaWorkerEnvSchema, env, 'Lambda worker');
  const logger = createJsonLogger({
    level: logLevelFromEnv(env),
    base: { service: 'xborder-lambda-worker' },
  });
  const provider =
    overrides.provider ??
    createProviderClient({
      baseUrl: worker.provider.baseUrl,
      apiKey: worker.provider.apiKey,
      timeoutMs: worker.provider.timeoutMs,
      allowPlainHttp: worker.provider.allowPlainHttp,
      logger: logger.child({ component: 'provider' }),
      // this instance's share of the key's rate budget: XBORDER_PROVIDER_PROCESSES is the function's reserved concurrency
      rateBudget: worker.provider.rateBudget,
    });
  // traces by OTLP/HTTP when the environment turns them on, flushed after every invocation
  const tracing = installTracingFromEnv('xborder-lambda-worker', env);
  const traced = tracingWorkerOptions(tracing);
  const workflowBundle = overrides.workflowBundle ?? {
    codePath: chooseBundlePath(
      e.XBORDER_WORKFLOW_BUNDLE ?? `${__dirname}/workflow-bundle.js`,
      tracing !== null,
    ),
  };
  const { temporal } = worker;
  const dataConverter = overrides.dataConverter ?? dataConverterOf(workerCodecConfigFromEnv(env));
  // outbound events' endpoint and secrets (XBORDER_EVENTS_*), as the long-lived worker reads them
  const events = eventsConfigFromEnv(env);
  return {
    version: { deploymentName: e.XBORDER_DEPLOYMENT_NAME, buildId: e.XBORDER_BUILD_ID },
    defaultVersioningBehavior: e.XBORDER_DEFAULT_VERSIONING_BEHAVIOR,
    configure(config) {
      // Our connection settings replace what the package read with envconfig: one source for every process.
      config.connectionOptions = connectionOptionsOf(temporal);
      config.namespace = temporal.namespace;
      Object.assign(config.workerOptions, {
        taskQueue: worker.taskQueue,
        workflowBundle,
        activities: createActivities({ provider, events }),
        // the `xborder` Nexus service, as `xborder worker` serves it (its endpoint targets this task queue)
        nexusServices: [xborderNexusHandler],
        // the same payload encryption as every other worker and client (fails the cold start without keys)
        dataConverter,
        // telemetry: provider errors by type, on the runtime's metric meter
        interceptors: { activity: [providerErrorCounter(), ...traced.activityInterceptors] },
        ...(traced.sinks ? { sinks: traced.sinks } : {}),
        workerDeploymentOptions: { defaultVersioningBehavior: e.XBORDER_DEFAULT_VERSIONING_BEHAVIOR },
        ...(worker.activitiesPerSecond
          ? { maxTaskQueueActivitiesPerSecond: worker.activitiesPerSecond }
          : {}),
        // the long-lived worker's slot and cache settings, when set (the package's own defaults otherwise: 2
        // activity slots, a cache of 30; docs/deployment.md, "Serverless: the Lambda worker")
        ...(worker.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: worker.maxCachedWorkflows } : {}),
        ...(worker.maxConcurrentActivities !== undefined
          ? { maxConcurrentActivityTaskExecutions: worker.maxConcurrentActivities }
          : {}),
        ...(worker.maxConcurrentWorkflowTasks !== undefined
          ? { maxConcurrentWorkflowTaskExecutions: worker.maxConcurrentWorkflowTasks }
          : {}),
      });
      if (tracing) config.shutdownHooks.push(() => tracing.provider.forceFlush());
      config.runtimeOptions = {
        ...config.runtimeOptions,
        logger,
        telemetryOptions: {
          logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) },
          // No Prometheus endpoint in a Lambda (nothing can scrape it): metrics are pushed, if anywhere.
          ...(e.XBORDER_OTLP_METRICS_URL
            ? { metrics: { otel: { url: e.XBORDER_OTLP_METRICS_URL, metricsExportInterval: '10s' } } }
            : {}),
        },
      };
    },
  };
}

/**
 * The Lambda handler. Call once per process: it installs the process-wide Temporal Runtime (runWorker refuses a
 * second call), so it must run before anything else in the process makes a NativeConnection.
 */
export function createXborderLambdaWorker(
  env: NodeJS.ProcessEnv,
  overrides: LambdaWorkerOverrides = {},
): LambdaHandler {
  const settings = lambdaWorkerSettingsFromEnv(env, overrides);
  return runWorker(settings.version, settings.configure);
}
