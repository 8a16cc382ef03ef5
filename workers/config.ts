import { z } from 'zod';
import { temporalConfigFromEnv, type TemporalConnectionConfig } from '../src/client/connection-config';

/** The one task queue of xborder's workflows and activities, unless XBORDER_TASK_QUEUE says otherwise. */
export const DEFAULT_TASK_QUEUE = 'xborder';

const WorkerEnvSchema = z.object({
  XBORDER_TASK_QUEUE: z.string().min(1).default(DEFAULT_TASK_QUEUE),
  XBORDER_PROVIDER_URL: z.string().url('XBORDER_PROVIDER_URL must be the service base URL, e.g. http://127.0.0.1:4010'),
  XBORDER_PROVIDER_API_KEY: z.string().min(1, 'XBORDER_PROVIDER_API_KEY is required (the payments service API key)'),
  XBORDER_PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Server-side limit across all workers of the queue: keeps us under the provider's rate limit (spec: Limits). */
  XBORDER_ACTIVITIES_PER_SECOND: z.coerce.number().positive().optional(),
  /** Prebuilt workflow bundle (npm run build); bundled at start-up when absent. */
  XBORDER_WORKFLOW_BUNDLE: z.string().min(1).optional(),
  XBORDER_SHUTDOWN_GRACE_MS: z.coerce.number().int().nonnegative().default(10_000),
  /**
   * Workflows kept in the worker's cache: the worker's memory budget (issue 12, docs/performance.md). A payment is
   * two cached workflows; an evicted one is replayed on its next event. Default: the SDK's, sized from the heap.
   */
  XBORDER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().nonnegative().optional(),
});

/** Every variable of the worker's own (TEMPORAL_ENV_VARS besides); the compose test checks temporal-docker against it. */
export const WORKER_ENV_VARS = Object.keys(WorkerEnvSchema.shape) as ReadonlyArray<keyof typeof WorkerEnvSchema.shape>;

export interface WorkerConfig {
  temporal: TemporalConnectionConfig;
  taskQueue: string;
  provider: { baseUrl: string; apiKey: string; timeoutMs: number };
  activitiesPerSecond?: number;
  workflowBundlePath?: string;
  shutdownGraceMs: number;
  maxCachedWorkflows?: number;
}

export function workerConfigFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const parsed = WorkerEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ');
    throw new Error(`Invalid worker environment:\n  ${problems}`);
  }
  const e = parsed.data;
  return {
    temporal: temporalConfigFromEnv(env),
    taskQueue: e.XBORDER_TASK_QUEUE,
    provider: { baseUrl: e.XBORDER_PROVIDER_URL, apiKey: e.XBORDER_PROVIDER_API_KEY, timeoutMs: e.XBORDER_PROVIDER_TIMEOUT_MS },
    ...(e.XBORDER_ACTIVITIES_PER_SECOND ? { activitiesPerSecond: e.XBORDER_ACTIVITIES_PER_SECOND } : {}),
    ...(e.XBORDER_WORKFLOW_BUNDLE ? { workflowBundlePath: e.XBORDER_WORKFLOW_BUNDLE } : {}),
    shutdownGraceMs: e.XBORDER_SHUTDOWN_GRACE_MS,
    ...(e.XBORDER_MAX_CACHED_WORKFLOWS !== undefined ? { maxCachedWorkflows: e.XBORDER_MAX_CACHED_WORKFLOWS } : {}),
  };
}
