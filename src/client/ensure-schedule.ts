// Creates one of xborder's Schedules, or updates it to what this deployment asks, never taking over one that starts
// its runs on another task queue. Two deployments of xborder may share a namespace (each with its own task queue);
// each sweep lists only its own task queue's payments (activities/reconcile-activities.ts), so a Schedule moved
// from one task queue to the other by the last worker to start would leave the first deployment's payments without
// their sweep, silently, and the two would keep taking it from each other at every start.
import { createHash } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleOptions,
} from '@temporalio/client';
import { isScheduleId } from '../codec/schedule-binding';

/** What a Schedule is made of, as ensureSchedule writes it (created, or the existing one updated to it). */
export type ScheduleParts = Pick<ScheduleOptions, 'spec' | 'policies'> & {
  action: ScheduleOptions['action'] & { taskQueue: string };
};

/** A Schedule to ensure: its parts are made for its ID (the action's workflow ID is derived from it). */
export interface ScheduleToEnsure {
  taskQueue: string;
  parts: (scheduleId: string) => ScheduleParts;
  /** shown in the Schedule's state (the UI, `temporal schedule describe`) */
  note: string;
}

/**
 * The Schedule exists and starts its runs on another task queue: another deployment's. Not retryable: the same
 * start finds the same Schedule. The fix is a Schedule of this deployment's own (another ID), or, when the other
 * task queue is gone, deleting the old Schedule.
 */
export class ScheduleOfAnotherTaskQueueError extends Error {
  readonly type = 'SCHEDULE_OF_ANOTHER_TASK_QUEUE';
  readonly retryable = false;
  constructor(
    readonly scheduleId: string,
    readonly itsTaskQueue: string,
    readonly ownTaskQueue: string,
  ) {
    super(
      `Schedule ${scheduleId} starts its runs on task queue "${itsTaskQueue}", not on this deployment's "${ownTaskQueue}": ` +
        `left as it is (another deployment in this namespace runs it). Give this deployment a Schedule of its own ` +
        `(another --id), or, if no worker serves "${itsTaskQueue}" any more, delete it: ` +
        `temporal schedule delete --schedule-id ${scheduleId}`,
    );
    this.name = 'ScheduleOfAnotherTaskQueueError';
  }
}

/**
 * Creates the Schedule, or updates it to `parts` when it exists on the same task queue (an update keeps its state:
 * a Schedule an operator paused stays paused). One that exists on another task queue is left as it is:
 * ScheduleOfAnotherTaskQueueError. The task queue is checked on the description the update is made from (the SDK
 * reads it just before writing, with no conflict token: a Schedule moved in between is written over, a window of
 * one round trip).
 */
export async function ensureSchedule(
  client: Client,
  scheduleId: string,
  { taskQueue, parts: partsFor, note }: ScheduleToEnsure,
): Promise<{ scheduleId: string; created: boolean }> {
  const parts = partsFor(scheduleId);
  if (parts.action.taskQueue !== taskQueue)
    throw new Error('a Schedule is ensured for the task queue it runs on');
  try {
    await client.schedule.create({ scheduleId, ...parts, state: { note } });
    return { scheduleId, created: true };
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  await client.schedule.getHandle(scheduleId).update((previous) => {
    const its = previous.action.type === 'startWorkflow' ? previous.action.taskQueue : undefined;
    if (its !== undefined && its !== taskQueue)
      throw new ScheduleOfAnotherTaskQueueError(scheduleId, its, taskQueue);
    return { ...previous, ...parts };
  });
  return { scheduleId, created: false };
}

/**
 * The ID of a task queue's own Schedule when another task queue's deployment holds the default: `<default>-<task
 * queue>`, or, for a task queue name a Schedule ID cannot hold (src/codec/schedule-binding.ts: A-Z a-z 0-9 . _ : -, at
 * most 200, no trailing time), `<default>-<16 hex of its SHA-256>`.
 */
export function taskQueueScheduleId(defaultId: string, taskQueue: string): string {
  const named = `${defaultId}-${taskQueue}`;
  if (isScheduleId(named)) return named;
  return `${defaultId}-${createHash('sha256').update(taskQueue).digest('hex').slice(0, 16)}`;
}

/** Whether the Schedule exists and starts its runs on `taskQueue`. */
async function isOnTaskQueue(client: Client, scheduleId: string, taskQueue: string): Promise<boolean> {
  try {
    const { action } = await client.schedule.getHandle(scheduleId).describe();
    return action.type === 'startWorkflow' && action.taskQueue === taskQueue;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}

/**
 * ensureSchedule under xborder's default ID, or, when that one is another task queue's, under this task queue's own
 * (taskQueueScheduleId): a second deployment in the namespace gets a Schedule of its own rather than none (`instead`
 * says why). Once it has its own, it keeps it, even after the default is freed (deleted with its deployment): taking
 * the default then would give it two. An ID the operator chose is never replaced: use ensureSchedule.
 */
export async function ensureDefaultSchedule(
  client: Client,
  defaultId: string,
  schedule: ScheduleToEnsure,
): Promise<{ scheduleId: string; created: boolean; instead?: string }> {
  const ownId = taskQueueScheduleId(defaultId, schedule.taskQueue);
  if (await isOnTaskQueue(client, ownId, schedule.taskQueue)) {
    // a worker of an older build may have taken the freed default meanwhile: two on one task queue, said
    const twice = await isOnTaskQueue(client, defaultId, schedule.taskQueue);
    return {
      ...(await ensureSchedule(client, ownId, schedule)),
      instead: twice
        ? `this task queue's own; ${defaultId} runs on this task queue too: delete one of them (each run costs its reads)`
        : `this task queue's own, made when ${defaultId} was another task queue's`,
    };
  }
  try {
    return await ensureSchedule(client, defaultId, schedule);
  } catch (err) {
    if (!(err instanceof ScheduleOfAnotherTaskQueueError)) throw err;
    return {
      ...(await ensureSchedule(client, ownId, schedule)),
      instead: `${defaultId} runs on task queue "${err.itsTaskQueue}" (another deployment's; delete it if no worker serves that queue any more)`,
    };
  }
}
