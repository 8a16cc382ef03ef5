// The quote-refresh Schedule (ARCHITECTURE: refreshQuotes): created or updated idempotently.
import { ScheduleOverlapPolicy, type Client, type ScheduleHandle } from '@temporalio/client';
import {
  RATE_BOARD_WORKFLOW_ID,
  RATE_BOARD_WORKFLOW_TYPE,
  type RateBoardInput,
} from '../../workflows/rate-board/api';
import { REFRESH_QUOTES_WORKFLOW_TYPE, type RefreshQuotesInput } from '../../workflows/refresh-quotes/api';
import { scheduleActionWorkflowId } from '../codec/schedule-binding';
import { ensureSchedule } from './ensure-schedule';
import {
  QuoteRefreshConfigSchema,
  type QuoteRefreshConfigInput,
  type QuoteRefreshConfig,
} from './quote-refresh-config';

export * from './quote-refresh-config';

/** What ensureSchedules did: the quote-refresh Schedule's ID, whether it was created, and its handle. */
export interface EnsuredSchedule {
  scheduleId: string;
  /** false when the Schedule existed and was updated to `config` */
  created: boolean;
  handle: ScheduleHandle;
}

function scheduleParts(config: QuoteRefreshConfig) {
  const input: RefreshQuotesInput = {
    pairs: config.pairs,
    referenceAmount: config.referenceAmount,
    pauseBetweenCallsMs: config.pauseBetweenCallsMs,
    ...(config.boardWorkflowId ? { boardWorkflowId: config.boardWorkflowId } : {}),
  };
  return {
    spec: { intervals: [{ every: config.intervalMs }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: REFRESH_QUOTES_WORKFLOW_TYPE,
      // The Schedule appends the fire time to this ID, so each run has its own. The reserved form lets the runs
      // read the arguments encoded for the action, and nothing else (src/codec/schedule-binding.ts).
      workflowId: scheduleActionWorkflowId(config.scheduleId),
      taskQueue: config.taskQueue,
      args: [input],
      workflowExecutionTimeout: Math.max(config.intervalMs * 5, 10 * 60_000),
    },
    policies: {
      // A slow refresh is never doubled: the next tick is skipped while one runs.
      overlap: ScheduleOverlapPolicy.SKIP,
      catchupWindow: config.catchupWindowMs,
    },
  };
}

/**
 * Starts the rateBoard entity unless it runs (USE_EXISTING): refreshes then only signal it. refreshQuotes
 * still starts it itself when it is missing (terminated by an operator, say).
 */
export async function ensureRateBoard(
  client: Client,
  options: { taskQueue: string; boardWorkflowId?: string },
): Promise<{ workflowId: string; runId: string }> {
  const workflowId = options.boardWorkflowId ?? RATE_BOARD_WORKFLOW_ID;
  const input: RateBoardInput = {};
  const handle = await client.workflow.start(RATE_BOARD_WORKFLOW_TYPE, {
    workflowId,
    taskQueue: options.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: 'Indicative rates per currency/rail pair, fed by the quote-refresh Schedule',
  });
  return { workflowId, runId: handle.firstExecutionRunId };
}

/**
 * Creates the Schedule, or updates it to `config` when it exists on this task queue (never fails with "already
 * exists"). An update keeps the Schedule's state: a Schedule an operator paused stays paused.
 */
export async function ensureSchedules(
  client: Client,
  configInput: QuoteRefreshConfigInput,
): Promise<EnsuredSchedule> {
  const config = QuoteRefreshConfigSchema.parse(configInput);
  const parts = scheduleParts(config);
  await ensureRateBoard(client, config);
  // one on another task queue is another deployment's (the rate board is one per namespace too): left as it is,
  // ScheduleOfAnotherTaskQueueError (src/client/ensure-schedule.ts)
  const { created } = await ensureSchedule(client, config.scheduleId, {
    taskQueue: config.taskQueue,
    parts: () => parts,
    note: 'quote refresh (xborder ensureSchedules)',
  });
  return { scheduleId: config.scheduleId, created, handle: client.schedule.getHandle(config.scheduleId) };
}
