// `xborder schedule create|describe|pause|unpause|trigger|delete` — the quote-refresh Schedule (issue 6).
// `create` is ensureSchedules: it creates, or updates an existing Schedule to the configuration of the
// environment (XBORDER_QUOTE_* variables, src/client/quote-refresh-config.ts), and starts the rate board.
import { parseArgs } from 'node:util';
import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import { ensureSchedules, formatRatePair, quoteRefreshConfigFromEnv, QUOTE_REFRESH_SCHEDULE_ID } from '../client/schedules';
import { cliContext } from './cli-env';

export const SCHEDULE_SUBCOMMANDS = ['create', 'describe', 'pause', 'unpause', 'trigger', 'delete'] as const;
export type ScheduleSubcommand = (typeof SCHEDULE_SUBCOMMANDS)[number];

const USAGE = `Usage: xborder schedule <${SCHEDULE_SUBCOMMANDS.join('|')}> [--id ${QUOTE_REFRESH_SCHEDULE_ID}] [--note TEXT] [--json]
  create    create the quote-refresh Schedule, or update it to the environment's configuration
            (XBORDER_QUOTE_REFRESH_INTERVAL_MS, XBORDER_QUOTE_PAIRS, XBORDER_QUOTE_REFERENCE_AMOUNT, XBORDER_QUOTE_PAUSE_MS)
  describe  interval, policies, state, recent and next runs
  pause / unpause   (with --note saying why)
  trigger   run a refresh now
  delete    remove the Schedule (the rate board keeps its last rates, which then age)`;

export function isScheduleSubcommand(value: string | undefined): value is ScheduleSubcommand {
  return (SCHEDULE_SUBCOMMANDS as readonly string[]).includes(value ?? '');
}

export async function runSchedule(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { id: { type: 'string' }, note: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const sub = positionals[0];
  if (values.help || !isScheduleSubcommand(sub)) {
    (values.help ? console.log : console.error)(USAGE);
    return values.help ? 0 : 2;
  }
  const ctx = await cliContext();
  try {
    return await runScheduleSubcommand(ctx.client, sub, {
      scheduleId: values.id ?? QUOTE_REFRESH_SCHEDULE_ID,
      taskQueue: ctx.taskQueue,
      ...(values.note ? { note: values.note } : {}),
      json: values.json ?? false,
    });
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) {
      console.error(`no Schedule ${values.id ?? QUOTE_REFRESH_SCHEDULE_ID}; create it with: xborder schedule create`);
      return 1;
    }
    throw err;
  } finally {
    await ctx.close();
  }
}

export async function runScheduleSubcommand(
  client: Client,
  sub: ScheduleSubcommand,
  options: { scheduleId: string; taskQueue: string; note?: string; json: boolean },
): Promise<number> {
  const handle = client.schedule.getHandle(options.scheduleId);
  switch (sub) {
    case 'create': {
      const config = { ...quoteRefreshConfigFromEnv(), taskQueue: options.taskQueue, scheduleId: options.scheduleId };
      const ensured = await ensureSchedules(client, config);
      console.log(
        `${ensured.created ? 'created' : 'updated'} Schedule ${ensured.scheduleId}: every ${config.intervalMs} ms, ` +
          `${config.pairs.length} pairs (${config.pairs.map(formatRatePair).join(', ')}), task queue ${config.taskQueue}`,
      );
      return 0;
    }
    case 'describe': {
      const d = await handle.describe();
      const summary = {
        scheduleId: d.scheduleId,
        intervals: d.spec.intervals ?? [],
        overlap: d.policies.overlap ?? 'SKIP',
        catchupWindowMs: d.policies.catchupWindow,
        paused: d.state.paused,
        note: d.state.note ?? null,
        recentActions: d.info.recentActions.map((a) => ({ scheduledAt: a.scheduledAt, takenAt: a.takenAt, workflowId: a.action.workflow.workflowId })),
        nextActionTimes: d.info.nextActionTimes,
        runningActions: d.info.runningActions.map((a) => a.workflow.workflowId),
      };
      console.log(options.json ? JSON.stringify(summary, null, 2) : formatDescription(summary));
      return 0;
    }
    case 'pause':
      await handle.pause(options.note ?? 'paused with xborder schedule pause');
      console.log(`paused ${options.scheduleId}`);
      return 0;
    case 'unpause':
      await handle.unpause(options.note ?? 'unpaused with xborder schedule unpause');
      console.log(`unpaused ${options.scheduleId}`);
      return 0;
    case 'trigger':
      await handle.trigger();
      console.log(`triggered ${options.scheduleId}`);
      return 0;
    case 'delete':
      await handle.delete();
      console.log(`deleted ${options.scheduleId}`);
      return 0;
  }
}

function formatDescription(s: {
  scheduleId: string;
  intervals: unknown[];
  overlap: string;
  catchupWindowMs: number;
  paused: boolean;
  note: string | null;
  recentActions: { takenAt: Date; workflowId: string }[];
  nextActionTimes: Date[];
  runningActions: string[];
}): string {
  return [
    `Schedule ${s.scheduleId}${s.paused ? ' (PAUSED)' : ''}`,
    `  intervals:      ${JSON.stringify(s.intervals)}`,
    `  overlap:        ${s.overlap}; catch-up window ${s.catchupWindowMs} ms`,
    `  note:           ${s.note ?? '-'}`,
    `  running:        ${s.runningActions.join(', ') || '-'}`,
    `  recent runs:    ${s.recentActions.map((a) => `${a.takenAt.toISOString()} ${a.workflowId}`).join('\n                  ') || '-'}`,
    `  next runs:      ${s.nextActionTimes.map((t) => t.toISOString()).join(', ') || '-'}`,
  ].join('\n');
}
