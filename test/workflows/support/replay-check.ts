// REPLAYS AFTER A CRASH: a worker that takes over after a crash has no cache and replays each workflow's history. A
// replay that does not give the same commands at every point of a history is a run a crash would have broken.
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { writeFileSync } from 'node:fs';
import { Violation } from '../../unit/simulation/world';
import { workflowBundle } from '../../support/temporal';
import { WORKFLOWS_PATH } from './harness';

/** Replays the latest run of each workflow on one replay worker; XBORDER_SIM_TS_DUMP=<dir> keeps a failing history. */
export async function replaysOnANewWorker(client: Client, workflowIds: readonly string[]): Promise<void> {
  const histories = await Promise.all(
    workflowIds.map(async (workflowId) => ({
      workflowId,
      history: await client.workflow.getHandle(workflowId).fetchHistory(),
    })),
  );
  const replays = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(WORKFLOWS_PATH) },
    histories,
  );
  for await (const result of replays)
    if (result.error) {
      const dump = process.env.XBORDER_SIM_TS_DUMP;
      if (dump)
        writeFileSync(
          `${dump}/${result.workflowId.replace(/[^\w-]/g, '_')}.json`,
          JSON.stringify(histories.find((h) => h.workflowId === result.workflowId)?.history),
        );
      throw new Violation('REPLAYS AFTER A CRASH', `${result.workflowId}: ${String(result.error)}`);
    }
}
