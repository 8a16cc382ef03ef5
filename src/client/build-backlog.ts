// How the builds of a Worker Deployment are served, from the server's own view (docs/deployment.md, "Upgrades"):
// per build, the workflow tasks waiting in its queue (count and age of the oldest: DescribeWorkerDeploymentVersion
// with its task-queue stats) and, for the current build, the workers polling the task queue (DescribeTaskQueue's
// pollers, each with its deployment version). A few calls per refresh, whatever the number of payments: the stuck
// gauge reads a build's backlog instead of describing each PINNED run on it.
import { isGrpcServiceError, type Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import {
  describeWorkerDeployment,
  WorkerDeploymentNotFoundError,
  type DeploymentStatus,
} from './worker-deployments';

const GRPC_NOT_FOUND = 5;
const TASK_QUEUE_TYPE_WORKFLOW = temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW;
const TASK_QUEUE_TYPE_ACTIVITY = temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY;

export interface TaskBacklog {
  /** tasks waiting (the server's approximation) */
  count: number;
  /** how long the oldest waiting task has waited, in seconds; 0 when none waits */
  ageSeconds: number;
}

function durationSeconds(d: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  if (!d) return 0;
  return Number(d.seconds ?? 0) + (d.nanos ?? 0) / 1e9;
}

/** The workflow-task backlog of one build, across its task queues (the oldest age, the summed count). */
export async function workflowBacklogOf(
  client: Client,
  deploymentName: string,
  buildId: string,
): Promise<TaskBacklog> {
  try {
    const response = await client.workflowService.describeWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: { deploymentName, buildId },
      reportTaskQueueStats: true,
    });
    const queues = (response.versionTaskQueues ?? []).filter((q) => q.type === TASK_QUEUE_TYPE_WORKFLOW);
    return {
      count: queues.reduce((sum, q) => sum + Number(q.stats?.approximateBacklogCount ?? 0), 0),
      ageSeconds: Math.max(0, ...queues.map((q) => durationSeconds(q.stats?.approximateBacklogAge))),
    };
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND) return { count: 0, ageSeconds: 0 };
    throw error;
  }
}

/**
 * A poller the server lists is live if it polled within this: a running worker polls again as soon as a long poll
 * (at most ~70 s) ends; the server keeps a stopped worker's entry for minutes (seen on the cluster: a stopped build
 * still listed 30 s later). The worker container's health check allows the same two minutes.
 */
export const LIVE_POLLER_MS = 120_000;

function timestampMs(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  if (!ts?.seconds) return 0;
  return Number(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

/** Workers of `buildId` that polled `taskQueue` (workflow and activity tasks) within LIVE_POLLER_MS of `now`. */
export async function pollersOf(
  client: Client,
  taskQueue: string,
  deploymentName: string,
  buildId: string,
  now: Date = new Date(),
): Promise<{ workflow: number; activity: number }> {
  const count = async (taskQueueType: number) => {
    const response = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    return (response.pollers ?? []).filter(
      (p) =>
        p.deploymentOptions?.deploymentName === deploymentName &&
        p.deploymentOptions?.buildId === buildId &&
        now.getTime() - timestampMs(p.lastAccessTime) <= LIVE_POLLER_MS,
    ).length;
  };
  return { workflow: await count(TASK_QUEUE_TYPE_WORKFLOW), activity: await count(TASK_QUEUE_TYPE_ACTIVITY) };
}

/** The deployment's routing, or null when no versioned worker ever polled (nothing is pinned, nothing is current). */
export async function deploymentOrNull(
  client: Client,
  deploymentName: string,
): Promise<DeploymentStatus | null> {
  try {
    return await describeWorkerDeployment(client, deploymentName);
  } catch (error) {
    if (error instanceof WorkerDeploymentNotFoundError) return null;
    throw error;
  }
}

/** Builds that may hold PINNED runs but get no new work: neither current nor ramping, and not known drained or never used. */
export function retiredBuilds(status: DeploymentStatus): string[] {
  const live = new Set([status.currentBuildId, status.rampingBuildId].filter((b): b is string => !!b));
  return status.versions
    .filter(
      (v) =>
        !live.has(v.buildId) && v.status !== 'INACTIVE' && v.drainage !== 'DRAINED' && v.status !== 'DRAINED',
    )
    .map((v) => v.buildId);
}
