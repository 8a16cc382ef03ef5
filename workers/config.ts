import { z } from 'zod';
import type { VersioningBehavior } from '@temporalio/common';
import { temporalConfigFromEnv, type TemporalConnectionConfig } from '../src/client/connection-config';
import { refuseKnownSecret } from '../src/security/known-secrets';
import { readFileSync } from 'node:fs';
import { ConfigurationError, parseEnvironment } from '../src/support/environment';

/** The one task queue of xborder's workflows and activities, unless XBORDER_TASK_QUEUE says otherwise. */
export const DEFAULT_TASK_QUEUE = 'xborder';

/** The Worker Deployment of xborder's workers (one per service; the Lambda worker's default too). */
export const DEFAULT_DEPLOYMENT_NAME = 'xborder';

/** The worker's own variable that holds a secret, also read as XBORDER_PROVIDER_API_KEY_FILE (providerApiKey). */
export const PROVIDER_SECRET_ENV_VARS = ['XBORDER_PROVIDER_API_KEY'] as const;

export const WorkerEnvSchema = z.object({
  XBORDER_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  XBORDER_PROVIDER_URL: z
    .string()
    .url('XBORDER_PROVIDER_URL must be the service base URL, e.g. http://127.0.0.1:4010'),
  /** The payments service API key, or (better: `docker inspect` does not show it) a file holding it, _FILE (e.g. a Docker or Kubernetes secret). */
  XBORDER_PROVIDER_API_KEY: z.string().min(1).optional(),
  XBORDER_PROVIDER_API_KEY_FILE: z.string().min(1).optional(),
  XBORDER_PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** `1`: plain http:// to a non-loopback provider host is allowed (a private network such as compose's sandbox). */
  XBORDER_PROVIDER_ALLOW_HTTP: z.enum(['0', '1']).default('0'),
  /**
   * The provider key's rate budget, HTTP calls per second, across every process that uses the key (spec: Limits: its
   * numbers are not shown; docs/deployment.md "Provider rate budget"). Each process takes its share:
   * XBORDER_PROVIDER_CALLS_PER_SECOND / XBORDER_PROVIDER_PROCESSES. Default 8 (the sandbox allows 100 per 10 s).
   */
  XBORDER_PROVIDER_CALLS_PER_SECOND: z.coerce.number().positive().default(8),
  /** How many processes (worker replicas, Lambda concurrency) share the key's budget: the most that may run at once. */
  XBORDER_PROVIDER_PROCESSES: z.coerce.number().int().positive().default(1),
  /** Server-side limit on activity tasks across all workers of the queue (tasks, not HTTP calls: see the budget above). */
  XBORDER_ACTIVITIES_PER_SECOND: z.coerce.number().positive().optional(),
  /** Prebuilt workflow bundle (npm run build); bundled at start-up when absent. */
  XBORDER_WORKFLOW_BUNDLE: z.string().min(1).optional(),
  XBORDER_SHUTDOWN_GRACE_MS: z.coerce.number().int().nonnegative().default(10_000),
  /**
   * Workflows kept in the worker's cache: the worker's memory budget (docs/performance.md). A payment is
   * two cached workflows; an evicted one is replayed on its next event. Default: the SDK's, sized from the heap.
   */
  XBORDER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().nonnegative().optional(),
  /**
   * Workflow tasks and activities one worker runs at once (its slots; alert XborderWorkerSlotsExhausted). Default the
   * SDK's: 40 workflow tasks, 100 activities (as temporal_worker_task_slots_available shows a fresh worker).
   */
  XBORDER_MAX_CONCURRENT_WORKFLOW_TASKS: z.coerce.number().int().positive().optional(),
  XBORDER_MAX_CONCURRENT_ACTIVITIES: z.coerce.number().int().positive().optional(),
  /**
   * Worker Deployment Versioning (docs/deployment.md "Safe deploys with Worker Versioning"): on by default, every
   * worker declares XBORDER_DEPLOYMENT_NAME / XBORDER_BUILD_ID and gets tasks only once its version is current or
   * ramping (the first build of a deployment makes itself current: makeCurrentIfNone). `false` is kept only for a
   * Temporal server without the Worker Deployment API (before 1.28).
   */
  XBORDER_WORKER_VERSIONING: z
    .enum(['true', 'false'], { error: 'XBORDER_WORKER_VERSIONING must be true or false' })
    .default('true'),
  XBORDER_DEPLOYMENT_NAME: z.string().min(1).default(DEFAULT_DEPLOYMENT_NAME),
  /**
   * Build id of this deploy. Unset (the rule): derived from the workflow bundle the worker runs, `<version>+<sha8…>`
   * (workers/build-id.ts), so new workflow code is always a new build. Set: kept only if no other bundle registered
   * it (the worker refuses to start otherwise: src/client/build-registry.ts).
   */
  XBORDER_BUILD_ID: z.string().min(1).optional(),
  /**
   * Who moves the deployment's Current and Ramping Version. `worker` (default): the first build of a deployment
   * makes itself current, later ones wait for `xborder deploy`. `controller`: the Temporal Worker Controller does
   * (Kubernetes, deploy/helm/xborder): the worker never touches routing (a change by another identity would take
   * ownership away from the controller, its docs/manager-identity.md) and takes the deployment name and build id
   * the controller injects into its pods, TEMPORAL_DEPLOYMENT_NAME and TEMPORAL_WORKER_BUILD_ID.
   */
  XBORDER_ROUTING_MANAGED_BY: z
    .enum(['worker', 'controller'], { error: 'XBORDER_ROUTING_MANAGED_BY must be worker or controller' })
    .default('worker'),
  TEMPORAL_DEPLOYMENT_NAME: z.string().min(1).optional(),
  TEMPORAL_WORKER_BUILD_ID: z.string().min(1).optional(),
});

/** Every variable of the worker's own (TEMPORAL_ENV_VARS besides); the compose test checks temporal-docker against it. */
export const WORKER_ENV_VARS = Object.keys(WorkerEnvSchema.shape) as ReadonlyArray<
  keyof typeof WorkerEnvSchema.shape
>;

export interface WorkerConfig {
  temporal: TemporalConnectionConfig;
  taskQueue: string;
  provider: {
    baseUrl: string;
    apiKey: string;
    timeoutMs: number;
    allowPlainHttp: boolean;
    /** this process's share of the key's rate budget (src/provider/rate-budget.ts) */
    rateBudget: { callsPerSecond: number; burst: number };
  };
  activitiesPerSecond?: number;
  workflowBundlePath?: string;
  shutdownGraceMs: number;
  maxCachedWorkflows?: number;
  maxConcurrentWorkflowTasks?: number;
  maxConcurrentActivities?: number;
  /** Present unless XBORDER_WORKER_VERSIONING=false (a server without the Worker Deployment API). */
  deployment?: WorkerDeploymentSettings;
  /** false when the Temporal Worker Controller owns routing (XBORDER_ROUTING_MANAGED_BY=controller) */
  makesItselfCurrent: boolean;
}

export interface WorkerDeploymentSettings {
  /**
   * The Worker Deployment and, when given, the build id. No build id: the worker derives it from its workflow bundle
   * (workers/build-id.ts). Either way the worker refuses a build id another bundle registered.
   */
  version: { deploymentName: string; buildId?: string };
  /** For a workflow that declares none; every xborder workflow declares one (workflows/versioning.ts). */
  defaultVersioningBehavior: VersioningBehavior;
}

/** The API key from XBORDER_PROVIDER_API_KEY or the file XBORDER_PROVIDER_API_KEY_FILE names: exactly one of them. */
function providerApiKey(e: {
  XBORDER_PROVIDER_API_KEY?: string | undefined;
  XBORDER_PROVIDER_API_KEY_FILE?: string | undefined;
}): string {
  if (e.XBORDER_PROVIDER_API_KEY && e.XBORDER_PROVIDER_API_KEY_FILE)
    throw new ConfigurationError(
      'worker: set XBORDER_PROVIDER_API_KEY or XBORDER_PROVIDER_API_KEY_FILE, not both',
    );
  if (e.XBORDER_PROVIDER_API_KEY) return e.XBORDER_PROVIDER_API_KEY;
  if (!e.XBORDER_PROVIDER_API_KEY_FILE)
    throw new ConfigurationError(
      'worker: XBORDER_PROVIDER_API_KEY is required (the payments service API key), or XBORDER_PROVIDER_API_KEY_FILE naming a file that holds it',
    );
  let key: string;
  try {
    key = readFileSync(e.XBORDER_PROVIDER_API_KEY_FILE, 'utf8').trim();
  } catch (error) {
    // the path is named, never the content
    throw new ConfigurationError(
      `worker: XBORDER_PROVIDER_API_KEY_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): ${e.XBORDER_PROVIDER_API_KEY_FILE}`,
    );
  }
  if (!key)
    throw new ConfigurationError(
      `worker: XBORDER_PROVIDER_API_KEY_FILE is empty: ${e.XBORDER_PROVIDER_API_KEY_FILE}`,
    );
  return key;
}

export function workerConfigFromEnv(env: NodeJS.ProcessEnv): WorkerConfig {
  const e = parseEnvironment(WorkerEnvSchema, env, 'worker');
  const apiKey = providerApiKey(e);
  refuseKnownSecret('XBORDER_PROVIDER_API_KEY', apiKey, 'api-key');
  const controlled = e.XBORDER_ROUTING_MANAGED_BY === 'controller';
  if (controlled && (!e.TEMPORAL_DEPLOYMENT_NAME || !e.TEMPORAL_WORKER_BUILD_ID)) {
    throw new ConfigurationError(
      'XBORDER_ROUTING_MANAGED_BY=controller needs TEMPORAL_DEPLOYMENT_NAME and TEMPORAL_WORKER_BUILD_ID (the Temporal Worker Controller sets both in the pods it makes)',
    );
  }
  return {
    makesItselfCurrent: !controlled,
    temporal: temporalConfigFromEnv(env),
    taskQueue: e.XBORDER_TASK_QUEUE,
    provider: {
      baseUrl: e.XBORDER_PROVIDER_URL,
      apiKey,
      timeoutMs: e.XBORDER_PROVIDER_TIMEOUT_MS,
      allowPlainHttp: e.XBORDER_PROVIDER_ALLOW_HTTP === '1',
      rateBudget: processShare(e.XBORDER_PROVIDER_CALLS_PER_SECOND, e.XBORDER_PROVIDER_PROCESSES),
    },
    ...(e.XBORDER_ACTIVITIES_PER_SECOND ? { activitiesPerSecond: e.XBORDER_ACTIVITIES_PER_SECOND } : {}),
    ...(e.XBORDER_WORKFLOW_BUNDLE ? { workflowBundlePath: e.XBORDER_WORKFLOW_BUNDLE } : {}),
    shutdownGraceMs: e.XBORDER_SHUTDOWN_GRACE_MS,
    ...(e.XBORDER_MAX_CACHED_WORKFLOWS !== undefined
      ? { maxCachedWorkflows: e.XBORDER_MAX_CACHED_WORKFLOWS }
      : {}),
    ...(e.XBORDER_MAX_CONCURRENT_WORKFLOW_TASKS !== undefined
      ? { maxConcurrentWorkflowTasks: e.XBORDER_MAX_CONCURRENT_WORKFLOW_TASKS }
      : {}),
    ...(e.XBORDER_MAX_CONCURRENT_ACTIVITIES !== undefined
      ? { maxConcurrentActivities: e.XBORDER_MAX_CONCURRENT_ACTIVITIES }
      : {}),
    ...(e.XBORDER_WORKER_VERSIONING === 'true'
      ? {
          deployment: {
            version: controlled
              ? { deploymentName: e.TEMPORAL_DEPLOYMENT_NAME!, buildId: e.TEMPORAL_WORKER_BUILD_ID! }
              : {
                  deploymentName: e.XBORDER_DEPLOYMENT_NAME,
                  ...(e.XBORDER_BUILD_ID ? { buildId: e.XBORDER_BUILD_ID } : {}),
                },
            defaultVersioningBehavior: 'AUTO_UPGRADE',
          },
        }
      : {}),
  };
}

/**
 * One process's share of the key's budget: calls per second and a burst of one second's worth (at least one call).
 * With at most `processes` processes, all of them together start at most `callsPerSecond × W + max(processes, callsPerSecond)`
 * calls in any W seconds (docs/deployment.md "Provider rate budget").
 */
export function processShare(
  callsPerSecond: number,
  processes: number,
): { callsPerSecond: number; burst: number } {
  const share = callsPerSecond / processes;
  return { callsPerSecond: share, burst: Math.max(1, Math.floor(share)) };
}
