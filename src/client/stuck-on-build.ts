// Stuck kind WAITING_FOR_ITS_BUILD (docs/deployment.md, "A pinned run that does not end"): a PINNED payment on a
// build that is neither current nor ramping, whose next workflow task has waited longer than a limit. Only that
// build's workers may take the task; when they were stopped too early the run waits, unseen by every other stuck
// query (its phase is whatever it was). Nothing is lost — the task runs once the build is back or the run is moved
// (versioning override) — but a person must do one of the two. One visibility list of the runs left on old builds,
// then one describe per run (its pending workflow task): few outside a deploy, and only old builds are read.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { describeWorkerDeployment, WorkerDeploymentNotFoundError } from './worker-deployments';
import { deploymentVersionString } from './deployment-open-runs';
import { PAYMENT_WORKFLOW_TYPE } from '../../workflows/payment/api';

/** The base query (UI filter box); findStuckPayments adds the builds that are current or ramping, excluded. */
export const PINNED_RUNNING_PAYMENTS = `WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND TemporalWorkflowVersioningBehavior = 'Pinned'`;

export const DEFAULT_WAITING_TASK_LIMIT_MS = 60_000;

function quoted(value: string): string {
  return `'${value.replace(/'/g, "\\'")}'`;
}

/** The runs of `deploymentName` pinned to a build that gets no new work, whose workflow task waits past the limit. */
export async function* waitingForItsBuild(
  client: Client,
  options: { deploymentName: string; now: Date; waitingTaskLimitMs?: number },
): AsyncGenerator<WorkflowExecutionInfo> {
  let live: string[];
  try {
    const status = await describeWorkerDeployment(client, options.deploymentName);
    live = [status.currentBuildId, status.rampingBuildId].filter((b): b is string => !!b);
  } catch (error) {
    if (error instanceof WorkerDeploymentNotFoundError) return; // unversioned workers: nothing is pinned
    throw error;
  }
  const versions = live.map((b) => quoted(deploymentVersionString(options.deploymentName, b)));
  // Runs of another deployment in the namespace are read too: one whose task waits that long is stuck as well.
  const query = `${PINNED_RUNNING_PAYMENTS}${versions.length ? ` AND TemporalWorkerDeploymentVersion NOT IN (${versions.join(', ')})` : ''}`;
  const limit = options.waitingTaskLimitMs ?? DEFAULT_WAITING_TASK_LIMIT_MS;
  for await (const wf of client.workflow.list({ query })) {
    const described = await client.workflow.getHandle(wf.workflowId, wf.runId).describe();
    const scheduled = described.raw.pendingWorkflowTask?.scheduledTime;
    if (!scheduled?.seconds) continue;
    const scheduledMs = Number(scheduled.seconds) * 1000 + Math.floor((scheduled.nanos ?? 0) / 1e6);
    if (options.now.getTime() - scheduledMs > limit) yield wf;
  }
}
