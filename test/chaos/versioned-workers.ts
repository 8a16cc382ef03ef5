// The chaos workers are versioned, as production's are (docs/deployment.md, "Safe deploys with Worker
// Versioning"): each scenario has a Worker Deployment of its own (so a deploy in one cannot route another's work),
// build A made current once its first worker polls. A versioned worker gets no task before its build is current
// or ramping.
import type { Client } from '@temporalio/client';
import {
  describeWorkerDeployment,
  setCurrentVersion,
  WorkerDeploymentNotFoundError,
} from '../../src/client/worker-deployments';
import { superviseWorker, type WorkerSupervisor, type WorkerTarget } from './worker-supervisor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once a worker of `buildId` has polled (the build is listed in the deployment). */
export async function buildRegistered(
  client: Client,
  deploymentName: string,
  buildId: string,
  timeoutMs = 120_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (
        (await describeWorkerDeployment(client, deploymentName)).versions.some((v) => v.buildId === buildId)
      )
        return;
    } catch (error) {
      if (!(error instanceof WorkerDeploymentNotFoundError) && Date.now() > until) throw error;
    }
    if (Date.now() > until) throw new Error(`build ${buildId} of ${deploymentName} never polled`);
    await sleep(500);
  }
}

/** Starts the supervised workers of one build and waits until the build is listed. */
export async function startBuild(
  client: Client,
  target: WorkerTarget,
  version: { deploymentName: string; buildId: string },
  log: (line: string) => void,
): Promise<WorkerSupervisor> {
  const workers = await superviseWorker({ ...target, version }, log);
  await buildRegistered(client, version.deploymentName, version.buildId);
  return workers;
}

/**
 * A deploy step the server may refuse for a while after a build's first poll: its version workflow is still
 * settling, or its workers have not yet polled every task queue of the current version (FAILED_PRECONDITION
 * "missing active task queues"). Asked again once a second, as an operator would, for up to `attempts` tries.
 */
export async function untilAccepted<T>(step: () => Promise<T>, attempts = 60): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await sleep(1_000);
    }
  }
}

/** Build A's workers, made current: where every scenario starts. */
export async function startCurrentBuild(
  client: Client,
  target: WorkerTarget,
  version: { deploymentName: string; buildId: string },
  log: (line: string) => void,
): Promise<WorkerSupervisor> {
  const workers = await startBuild(client, target, version, log);
  await untilAccepted(() => setCurrentVersion(client, version.deploymentName, version.buildId));
  return workers;
}
