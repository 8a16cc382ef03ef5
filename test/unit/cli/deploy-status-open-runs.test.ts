// `xborder deploy status` says which builds still hold open runs (docs/deployment.md, "Safe deploys with Worker
// Versioning", step 5): the visibility queries it counts with, and how it prints them.
import { formatStatus } from '../../../src/cli/deploy';
import { countOpenRuns, openRunQueries } from '../../../src/client/deployment-open-runs';
import type { Client } from '@temporalio/client';

it('counts open runs of a build by its deployment version search attribute, PINNED ones apart', () => {
  expect(openRunQueries('xborder', 'b-42')).toEqual({
    open: `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = 'xborder:b-42'`,
    pinned: `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion = 'xborder:b-42' AND TemporalWorkflowVersioningBehavior = 'Pinned'`,
  });
  // a quote in a name cannot end the string
  expect(openRunQueries("x'y", 'b').open).toContain(`'x\\'y:b'`);
});

it('asks visibility for both counts', async () => {
  const asked: string[] = [];
  const client = {
    workflow: {
      count: async (q: string) => (asked.push(q), { count: q.includes('Pinned') ? 2 : 5, groups: [] }),
    },
  } as unknown as Client;
  expect(await countOpenRuns(client, 'xborder', 'A')).toEqual({ open: 5, pinned: 2 });
  expect(asked).toEqual(Object.values(openRunQueries('xborder', 'A')));
});

it('prints which builds hold open runs and which may stop', () => {
  const text = formatStatus({
    deploymentName: 'xborder',
    currentBuildId: 'B',
    rampingBuildId: null,
    rampingPercentage: 0,
    versions: [
      {
        buildId: 'A',
        status: 'DRAINING',
        drainage: 'DRAINING',
        createdAt: null,
        openRuns: { open: 3, pinned: 2 },
      },
      { buildId: 'B', status: 'CURRENT', drainage: null, createdAt: null, openRuns: { open: 7, pinned: 0 } },
      {
        buildId: 'C',
        status: 'INACTIVE',
        drainage: 'DRAINED',
        createdAt: null,
        openRuns: { open: 0, pinned: 0 },
      },
    ],
  });
  const line = (build: string) => text.split('\n').find((l) => l.trim().startsWith(`${build} `));
  expect(line('A')).toMatch(/DRAINING .*3 open runs, 2 PINNED: holds this build$/);
  expect(line('B')).toMatch(/CURRENT .*7 open runs, 0 PINNED$/);
  expect(line('C')).toMatch(/INACTIVE .*drainage DRAINED .*no open runs$/);
});
