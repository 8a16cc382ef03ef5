// When the newest completed run of the reconcile Schedule started: how far back a sweep tells moves after the outcome
// (reconcile-activities.ts, movedSinceMs). Read from the Schedule itself: its recent actions are written by the server
// (which run it started, when), so no client can slip a run in. A visibility query on `TemporalScheduledById` would
// not do: any client may set that search attribute on a run it starts by hand (perhaps with a narrower window), and
// such a run taken as a completed sweep would narrow the look-back past moves of payments it never listed.
import { warnInActivity } from './activity-log';
import type { Client } from '@temporalio/client';
import { scheduleOf, SCHEDULE_WORKFLOW_ID_PREFIX } from '../src/codec/schedule-binding';

/** Recent actions read at most (the server keeps the last 10). */
const RECENT_ACTIONS_READ = 10;

/** The Schedule a run belongs to, from its workflow ID (`schedule:<id>-<time>`); null for any other ID. */
export function scheduleOfRun(workflowId: string): string | null {
  const action = scheduleOf(workflowId);
  return action === undefined || action === workflowId
    ? null
    : action.slice(SCHEDULE_WORKFLOW_ID_PREFIX.length);
}

/**
 * The start (ms) of the newest run the Schedule `scheduleId` started that has completed, or null: none among its
 * recent actions, a Schedule that starts its runs on another task queue (another deployment's), or Temporal not
 * answering (the whole window is told: a wider look-back, never a narrower one).
 */
export async function lastCompletedRunOfSchedule(
  client: Pick<Client, 'workflow' | 'schedule'>,
  taskQueue: string,
  scheduleId: string,
): Promise<number | null> {
  try {
    const schedule = await client.schedule.getHandle(scheduleId).describe();
    if (schedule.action.type !== 'startWorkflow' || schedule.action.taskQueue !== taskQueue) return null;
    const newestFirst = [...schedule.info.recentActions]
      .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime())
      .slice(0, RECENT_ACTIONS_READ);
    for (const { action } of newestFirst) {
      if (action.type !== 'startWorkflow') continue;
      const run = await client.workflow
        .getHandle(action.workflow.workflowId, action.workflow.firstExecutionRunId)
        .describe();
      if (run.status.name === 'COMPLETED') return run.startTime.getTime();
    }
  } catch (err) {
    warnInActivity('last completed sweep not read from its Schedule; the whole window is told', {
      error: String(err),
    });
  }
  return null;
}
