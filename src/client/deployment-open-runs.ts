// Which builds of a Worker Deployment still hold open runs (docs/deployment.md, "Safe deploys with Worker
// Versioning", step 5). The server's own drainage status (DRAINING/DRAINED) is refreshed only every few minutes
// and says nothing about how many runs remain; visibility answers at once with a count. Temporal's system search
// attributes say where a run is: `TemporalWorkerDeploymentVersion` ("<deployment>:<build id>", the version its last
// workflow task ran on; a PINNED run never leaves it) and `TemporalWorkflowVersioningBehavior` ("Pinned" or
// "AutoUpgrade"). A build may stop only when it holds no open PINNED run: open AUTO_UPGRADE runs (the entities)
// move to the Current Version at their next workflow task.
import type { Client } from '@temporalio/client';

export interface BuildOpenRuns {
  /** open runs whose last workflow task ran on this build */
  open: number;
  /** of which PINNED: they need this build's workers until they close */
  pinned: number;
}

/** The deployment version string of the search attribute (server ≥ 1.28: "<deployment>:<build id>"). */
export function deploymentVersionString(deploymentName: string, buildId: string): string {
  return `${deploymentName}:${buildId}`;
}

/** The two visibility queries for one build; the same strings work in the Temporal UI's filter box. */
export function openRunQueries(deploymentName: string, buildId: string): BuildOpenRunQueries {
  const version = deploymentVersionString(deploymentName, buildId).replace(/'/g, "\\'");
  const open = `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = '${version}'`;
  return { open, pinned: `${open} AND TemporalWorkflowVersioningBehavior = 'Pinned'` };
}

export interface BuildOpenRunQueries {
  open: string;
  pinned: string;
}

export async function countOpenRuns(
  client: Client,
  deploymentName: string,
  buildId: string,
): Promise<BuildOpenRuns> {
  const queries = openRunQueries(deploymentName, buildId);
  const [open, pinned] = await Promise.all([
    client.workflow.count(queries.open),
    client.workflow.count(queries.pinned),
  ]);
  return { open: open.count, pinned: pinned.count };
}

/** `xborder deploy status`: the deployment's status with each build's open runs counted. */
export async function withOpenRuns<
  S extends { deploymentName: string; versions: Array<{ buildId: string }> },
>(
  client: Client,
  status: S,
): Promise<S & { versions: Array<S['versions'][number] & { openRuns: BuildOpenRuns }> }> {
  const versions = [];
  for (const v of status.versions)
    versions.push({ ...v, openRuns: await countOpenRuns(client, status.deploymentName, v.buildId) });
  return { ...status, versions };
}

/** True while `buildId` holds an open PINNED run: its workers must keep running (or the run be moved). */
export async function holdsOpenRuns(
  client: Client,
  deploymentName: string,
  buildId: string,
): Promise<boolean> {
  return (await countOpenRuns(client, deploymentName, buildId)).pinned > 0;
}
