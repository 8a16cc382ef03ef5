// The stuck gauge's cost at 10,000 parked payments (docs/deployment.md, "Dashboards and alerts"): a drain in which
// 10,000 PINNED payments wait for funds on a build that is no longer current and whose workers are gone. Counted
// against a recording fake of the Temporal client (a real 10,000-payment run is the chaos suite's park-10k; not run
// here): every visibility call (a list page of 1,000, a count), every describe, every Worker Deployment call is one.
// Before: the gauge listed every kind and described each PINNED run on an old build, ~10,000 calls a refresh per
// replica. After: counts and the builds' backlogs, a dozen calls whatever the number of payments.
import type { Client } from '@temporalio/client';
import { findStuckPayments } from '../../src/client/stuck';
import { startStuckPaymentsGauge } from '../../src/client/stuck-gauge';
import { PrometheusRegistry } from '../../src/telemetry/prometheus-registry';

const now = new Date('2030-01-02T00:00:00Z');
const PARKED = 10_000;
const PAGE = 1_000; // the SDK's visibility page

/** A fake of the calls the gauge makes; every query that names PINNED runs matches the parked payments, none else. */
function recordingTemporal(parked: number) {
  const calls: string[] = [];
  const matches = (query: string) =>
    query.includes("TemporalWorkflowVersioningBehavior = 'Pinned'") ? parked : 0;
  const scheduled = { seconds: String(Math.floor(now.getTime() / 1000) - 120), nanos: 0 };
  const backlog = (buildId: string) =>
    buildId === 'A'
      ? { approximateBacklogCount: parked, approximateBacklogAge: { seconds: 120 } }
      : { approximateBacklogCount: 0, approximateBacklogAge: null };
  const client = {
    options: { namespace: 'default' },
    workflowService: {
      describeWorkerDeployment: async () => {
        calls.push('describeWorkerDeployment');
        return {
          workerDeploymentInfo: {
            routingConfig: { currentDeploymentVersion: { buildId: 'B' } },
            versionSummaries: [
              { deploymentVersion: { buildId: 'A' }, status: 4 /* DRAINING */ },
              { deploymentVersion: { buildId: 'B' }, status: 2 /* CURRENT */ },
            ],
          },
        };
      },
      describeWorkerDeploymentVersion: async ({
        deploymentVersion,
      }: {
        deploymentVersion: { buildId: string };
      }) => {
        calls.push(`describeWorkerDeploymentVersion ${deploymentVersion.buildId}`);
        return {
          versionTaskQueues: [
            { name: 'xborder', type: 1 /* WORKFLOW */, stats: backlog(deploymentVersion.buildId) },
          ],
        };
      },
      describeTaskQueue: async () => {
        calls.push('describeTaskQueue');
        return {
          pollers: [
            {
              deploymentOptions: { deploymentName: 'xborder', buildId: 'B' },
              lastAccessTime: { seconds: Math.floor(now.getTime() / 1000) - 5 },
            },
            // a worker of B stopped 10 minutes ago: the server still lists it, it is not live
            {
              deploymentOptions: { deploymentName: 'xborder', buildId: 'B' },
              lastAccessTime: { seconds: Math.floor(now.getTime() / 1000) - 600 },
            },
          ],
        };
      },
    },
    workflow: {
      count: async (query: string) => {
        calls.push('count');
        return { count: matches(query), groups: [] };
      },
      list: ({ query }: { query: string }) =>
        (async function* () {
          const n = matches(query);
          for (let page = 0; page === 0 || page * PAGE < n; page++) {
            calls.push('list page');
            for (let i = page * PAGE; i < Math.min(n, (page + 1) * PAGE); i++)
              yield {
                workflowId: `payment:${i}`,
                runId: `run-${i}`,
                startTime: now,
                typedSearchAttributes: { get: () => undefined },
              };
          }
        })(),
      getHandle: () => ({
        describe: async () => {
          calls.push('describe');
          return { raw: { pendingWorkflowTask: { scheduledTime: scheduled } } };
        },
      }),
    },
  } as unknown as Client;
  return { client, calls };
}

it(`counts ${PARKED.toLocaleString('en')} payments waiting on a drained-away build in a dozen calls, not one describe each`, async () => {
  // before: what the gauge ran each refresh until now, and what `xborder stuck` still runs (it prints each payment)
  const listed = recordingTemporal(PARKED);
  const found = await findStuckPayments(listed.client, {
    now,
    deploymentName: 'xborder',
    waitingTaskLimitMs: 60_000,
  });
  expect(found.filter((p) => p.kind === 'WAITING_FOR_ITS_BUILD')).toHaveLength(PARKED);
  expect(listed.calls.filter((c) => c === 'describe')).toHaveLength(PARKED);
  expect(listed.calls.length).toBe(10_020); // 9 kinds' lists (QUOTING_TOO_LONG the ninth), the deployment, 10 pages, 10,000 describes

  // after: the gauge's refresh
  const counted = recordingTemporal(PARKED);
  const registry = new PrometheusRegistry();
  const gauge = startStuckPaymentsGauge({
    client: counted.client,
    meter: registry,
    intervalMs: 3_600_000,
    inProgressLimitMs: 24 * 3_600_000,
    deploymentName: 'xborder',
    waitingTaskLimitMs: 60_000,
    taskQueue: 'xborder',
    now: () => now,
  });
  const result = await gauge.refresh();
  await gauge.stop();
  expect(result.counts.WAITING_FOR_ITS_BUILD).toBe(PARKED); // the same answer
  const perRefresh = counted.calls.length / 2; // the gauge counts once at start, then the refresh above
  expect(counted.calls.filter((c) => c === 'describe')).toEqual([]);
  expect(perRefresh).toBe(result.calls);
  expect(perRefresh).toBe(14); // 9 counts (QUOTING_TOO_LONG the ninth), the deployment, A's and B's backlogs, B's pollers (workflow, activity)
  expect(registry.render()).toContain('xborder_stuck_payments{kind="WAITING_FOR_ITS_BUILD"} 10000');
  expect(registry.render()).toContain('xborder_build_pollers{build="current",task_type="workflow"} 1');
});

it('costs the same at 10 parked payments as at 10,000', async () => {
  const costs: number[] = [];
  for (const parked of [10, PARKED]) {
    const { client, calls } = recordingTemporal(parked);
    const gauge = startStuckPaymentsGauge({
      client,
      meter: new PrometheusRegistry(),
      intervalMs: 3_600_000,
      inProgressLimitMs: 24 * 3_600_000,
      deploymentName: 'xborder',
      taskQueue: 'xborder',
      now: () => now,
    });
    await gauge.refresh();
    await gauge.stop();
    costs.push(calls.length / 2); // the first count at start and the refresh
  }
  expect(costs[0]).toBe(costs[1]);
});
