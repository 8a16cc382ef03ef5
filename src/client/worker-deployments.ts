// Worker Deployment Versioning (docs/deployment.md, "Safe deploys with Worker Versioning"): the
// operations of a deploy on the Worker Deployment API of the Temporal server (>= 1.28 / Cloud). The SDK 1.24 client
// has no high-level wrapper for them, so these call WorkflowService directly. Used by `xborder deploy` and the tests.
import { isGrpcServiceError, type Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const GRPC_NOT_FOUND = 5;
const GRPC_FAILED_PRECONDITION = 9;

/** No deployment of that name in the namespace (no versioned worker has polled yet). */
export class WorkerDeploymentNotFoundError extends Error {
  readonly type = 'WorkerDeploymentNotFoundError';
  constructor(readonly deploymentName: string) {
    super(
      `no Worker Deployment "${deploymentName}": start a worker with XBORDER_DEPLOYMENT_NAME=${deploymentName} ` +
        `first; the deployment exists once it has polled`,
    );
    this.name = 'WorkerDeploymentNotFoundError';
  }
}

/**
 * The server refused to route work to a build (FAILED_PRECONDITION): most often its workers have not polled yet,
 * or not yet on every task queue the current build serves (the server will not let a task queue fall back to
 * unversioned workers). Not retryable as such: the fix is the build's workers, then the same command again.
 */
export class DeploymentStepRefusedError extends Error {
  readonly type = 'DeploymentStepRefusedError';
  constructor(
    readonly deploymentName: string,
    readonly buildId: string,
    readonly serverMessage: string,
  ) {
    super(
      `the server refused to route work of ${deploymentName} to build ${buildId}: ${serverMessage}. ` +
        `Start build ${buildId}'s workers (XBORDER_DEPLOYMENT_NAME=${deploymentName} XBORDER_BUILD_ID=${buildId} xborder worker) ` +
        `on every task queue, wait until \`xborder deploy status\` lists the build, then run this again`,
    );
    this.name = 'DeploymentStepRefusedError';
  }
}

export interface DeploymentVersionSummary {
  buildId: string;
  /** INACTIVE | CURRENT | RAMPING | DRAINING | DRAINED | CREATED (the server's status, prefix removed) */
  status: string;
  /** DRAINING while PINNED workflows still run on it; DRAINED when none do (its workers may stop); null when unknown */
  drainage: string | null;
  createdAt: string | null;
}

export interface DeploymentStatus {
  deploymentName: string;
  /** null: unversioned workers get the new workflows */
  currentBuildId: string | null;
  rampingBuildId: string | null;
  rampingPercentage: number;
  versions: DeploymentVersionSummary[];
}

export interface SetVersionOptions {
  /** Accept a version no worker has polled with yet (the server refuses it by default: its tasks would wait). */
  allowNoPollers?: boolean;
  identity?: string;
}

/** The server's enum value by name, without its prefix (WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED → DRAINED). */
function enumName(
  values: Record<number, string>,
  value: number | null | undefined,
  prefix: string,
): string | null {
  if (value === null || value === undefined || value === 0) return null;
  const name = values[value];
  return name ? name.replace(prefix, '') : String(value);
}

function timestampIso(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): string | null {
  if (!ts?.seconds) return null;
  return new Date(Number(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6)).toISOString();
}

async function notFoundAware<T>(deploymentName: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND)
      throw new WorkerDeploymentNotFoundError(deploymentName);
    throw error;
  }
}

/** A routing change (set-current, ramp): the server's refusal becomes a DeploymentStepRefusedError with the fix. */
async function routingChange<T>(deploymentName: string, buildId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await notFoundAware(deploymentName, call);
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === GRPC_FAILED_PRECONDITION) {
      throw new DeploymentStepRefusedError(deploymentName, buildId, error.details || error.message);
    }
    throw error;
  }
}

export async function describeWorkerDeployment(
  client: Client,
  deploymentName: string,
): Promise<DeploymentStatus> {
  const response = await notFoundAware(deploymentName, () =>
    client.workflowService.describeWorkerDeployment({ namespace: client.options.namespace, deploymentName }),
  );
  const info = response.workerDeploymentInfo;
  const routing = info?.routingConfig;
  const statuses = temporal.api.enums.v1.WorkerDeploymentVersionStatus as unknown as Record<number, string>;
  const drainages = temporal.api.enums.v1.VersionDrainageStatus as unknown as Record<number, string>;
  return {
    deploymentName,
    currentBuildId: routing?.currentDeploymentVersion?.buildId || null,
    rampingBuildId: routing?.rampingDeploymentVersion?.buildId || null,
    rampingPercentage: routing?.rampingVersionPercentage ?? 0,
    versions: (info?.versionSummaries ?? []).map((v) => ({
      buildId: v.deploymentVersion?.buildId ?? '',
      status: enumName(statuses, v.status, 'WORKER_DEPLOYMENT_VERSION_STATUS_') ?? 'UNSPECIFIED',
      drainage: enumName(drainages, v.drainageInfo?.status ?? v.drainageStatus, 'VERSION_DRAINAGE_STATUS_'),
      createdAt: timestampIso(v.createTime),
    })),
  };
}

/** Makes `buildId` the Current Version: new workflows and AUTO_UPGRADE ones go to it; PINNED ones stay where they are. */
export async function setCurrentVersion(
  client: Client,
  deploymentName: string,
  buildId: string,
  options: SetVersionOptions = {},
): Promise<{ previousBuildId: string | null }> {
  const response = await routingChange(deploymentName, buildId, () =>
    client.workflowService.setWorkerDeploymentCurrentVersion({
      namespace: client.options.namespace,
      deploymentName,
      buildId,
      allowNoPollers: options.allowNoPollers ?? false,
      identity: options.identity ?? client.options.identity,
    }),
  );
  return { previousBuildId: response.previousDeploymentVersion?.buildId || null };
}

/**
 * Sends `percentage` of new workflows (and of AUTO_UPGRADE ones, by workflow ID) to `buildId`, the rest to the
 * Current Version. An empty buildId with 0 stops the ramp.
 */
export async function setRampingVersion(
  client: Client,
  deploymentName: string,
  buildId: string,
  percentage: number,
  options: SetVersionOptions = {},
): Promise<{ previousBuildId: string | null; previousPercentage: number }> {
  const response = await routingChange(deploymentName, buildId, () =>
    client.workflowService.setWorkerDeploymentRampingVersion({
      namespace: client.options.namespace,
      deploymentName,
      buildId,
      percentage,
      allowNoPollers: options.allowNoPollers ?? false,
      identity: options.identity ?? client.options.identity,
    }),
  );
  return {
    previousBuildId: response.previousDeploymentVersion?.buildId || null,
    previousPercentage: response.previousPercentage ?? 0,
  };
}

/** What makeCurrentIfNone found and did. */
export type FirstCurrentOutcome =
  /** the deployment had no Current Version (new workflows went to unversioned workers): this build is it now */
  | { action: 'made-current'; deploymentName: string; buildId: string }
  /** this build was already current (a restart, a second worker of the build) */
  | { action: 'already-current'; deploymentName: string; buildId: string }
  /** another build is current: left as it is (moving it is a deploy decision: xborder deploy set-current) */
  | { action: 'other-current'; deploymentName: string; buildId: string; currentBuildId: string };

export interface MakeCurrentIfNoneOptions {
  /** How long to wait for the server to know the build (its workers must have polled). Default 60 s. */
  timeoutMs?: number;
  retryEveryMs?: number;
  identity?: string;
}

const GRPC_ABORTED = 10;

/**
 * Until the build's workers have polled every task queue of the version (workflow and activity), the server answers
 * not found, "missing active task queues" or no pollers; a write racing another one fails on the conflict token.
 * All of them pass with time; anything else (permission, bad name) does not and is thrown at once.
 */
function worthRetrying(error: unknown): boolean {
  if (error instanceof WorkerDeploymentNotFoundError) return true;
  if (!isGrpcServiceError(error)) return false;
  return (
    error.code === GRPC_NOT_FOUND || error.code === GRPC_FAILED_PRECONDITION || error.code === GRPC_ABORTED
  );
}

/**
 * Makes `buildId` the deployment's Current Version when the deployment has none, and only then: the first build
 * of a deployment takes the new workflows without an operator's step, and a later build never moves "current"
 * away from another one by itself (that is `xborder deploy set-current`, a deploy decision; docs/deployment.md,
 * "Safe deploys with Worker Versioning"). The read and the write are tied by the describe's conflict token, so two
 * builds starting at once cannot both become current: the loser re-reads and finds the other one current.
 * Call it after the build's worker has started polling; it retries, bounded by `timeoutMs`, until the server
 * knows the build.
 */
export async function makeCurrentIfNone(
  client: Client,
  version: { deploymentName: string; buildId: string },
  options: MakeCurrentIfNoneOptions = {},
): Promise<FirstCurrentOutcome> {
  const { deploymentName, buildId } = version;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const namespace = client.options.namespace;
  for (;;) {
    try {
      const described = await notFoundAware(deploymentName, () =>
        client.workflowService.describeWorkerDeployment({ namespace, deploymentName }),
      );
      const current =
        described.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
      if (current === buildId) return { action: 'already-current', deploymentName, buildId };
      if (current !== null)
        return { action: 'other-current', deploymentName, buildId, currentBuildId: current };
      await notFoundAware(deploymentName, () =>
        client.workflowService.setWorkerDeploymentCurrentVersion({
          namespace,
          deploymentName,
          buildId,
          conflictToken: described.conflictToken,
          identity: options.identity ?? client.options.identity,
        }),
      );
      return { action: 'made-current', deploymentName, buildId };
    } catch (error) {
      if (!worthRetrying(error) || Date.now() >= deadline) {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(
          `could not make build ${buildId} current in Worker Deployment ${deploymentName}: ${why}`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.retryEveryMs ?? 250));
    }
  }
}

/** One line for a log: what makeCurrentIfNone did. */
export function describeFirstCurrent(outcome: FirstCurrentOutcome): string {
  const { deploymentName: name, buildId } = outcome;
  switch (outcome.action) {
    case 'made-current':
      return `Worker Deployment ${name}: build ${buildId} made current (the deployment had no current build)`;
    case 'already-current':
      return `Worker Deployment ${name}: build ${buildId} is current`;
    case 'other-current':
      return `Worker Deployment ${name}: build ${outcome.currentBuildId} is current, left as it is; build ${buildId} gets tasks once made current or ramping (xborder deploy set-current ${buildId})`;
  }
}
