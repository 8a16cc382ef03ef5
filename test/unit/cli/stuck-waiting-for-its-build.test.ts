// Stuck kind WAITING_FOR_ITS_BUILD (docs/deployment.md, "A pinned run that does not end"): PINNED payments on a build
// that is neither current nor ramping, whose next workflow task waits longer than the limit.
import type { Client } from '@temporalio/client';
import { waitingForItsBuild } from '../../../src/client/stuck-on-build';

const now = new Date('2030-01-02T00:00:00Z');
const secondsAgo = (s: number) => ({ seconds: String(Math.floor(now.getTime() / 1000) - s), nanos: 0 });

function fakeClient(
  pending: Record<string, { seconds: string; nanos: number } | null>,
  routing: { current: string; ramping?: string } | 'none',
) {
  const queries: string[] = [];
  const client = {
    options: { namespace: 'default' },
    workflowService: {
      describeWorkerDeployment: async () => {
        if (routing === 'none')
          throw Object.assign(new Error('not found'), { code: 5, details: 'not found', metadata: {} });
        return {
          workerDeploymentInfo: {
            routingConfig: {
              currentDeploymentVersion: { buildId: routing.current },
              rampingDeploymentVersion: routing.ramping ? { buildId: routing.ramping } : null,
              rampingVersionPercentage: 10,
            },
            versionSummaries: [],
          },
        };
      },
    },
    workflow: {
      list: ({ query }: { query: string }) => {
        queries.push(query);
        return (async function* () {
          for (const workflowId of Object.keys(pending)) yield { workflowId, runId: `run-${workflowId}` };
        })();
      },
      getHandle: (workflowId: string) => ({
        describe: async () => ({
          raw: { pendingWorkflowTask: pending[workflowId] ? { scheduledTime: pending[workflowId] } : null },
        }),
      }),
    },
  } as unknown as Client;
  return { client, queries };
}

async function ids(gen: AsyncGenerator<{ workflowId: string }>): Promise<string[]> {
  const out: string[] = [];
  for await (const wf of gen) out.push(wf.workflowId);
  return out;
}

it('lists PINNED payments off the live builds whose workflow task waits past the limit, not the others', async () => {
  const { client, queries } = fakeClient(
    { 'payment:waits': secondsAgo(120), 'payment:fresh': secondsAgo(10), 'payment:idle': null },
    { current: 'B', ramping: 'C' },
  );
  expect(
    await ids(waitingForItsBuild(client, { deploymentName: 'xborder', now, waitingTaskLimitMs: 60_000 })),
  ).toEqual(['payment:waits']);
  expect(queries).toEqual([
    `WorkflowType = 'payment' AND ExecutionStatus = 'Running' AND TemporalWorkflowVersioningBehavior = 'Pinned' AND TemporalWorkerDeploymentVersion NOT IN ('xborder:B', 'xborder:C')`,
  ]);
});

it('looks for nothing when no versioned worker ever polled (no deployment)', async () => {
  const { client, queries } = fakeClient({ 'payment:waits': secondsAgo(120) }, 'none');
  expect(await ids(waitingForItsBuild(client, { deploymentName: 'xborder', now }))).toEqual([]);
  expect(queries).toEqual([]);
});
