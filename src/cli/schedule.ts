// `xborder schedule create|describe|pause|unpause|trigger|delete` — the quote-refresh Schedule.
// `create` is ensureSchedules: it creates, or updates an existing Schedule to the configuration of the
// environment (XBORDER_QUOTE_* variables, src/client/quote-refresh-config.ts), and starts the rate board.
import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import {
  ensureSchedules,
  formatRatePair,
  quoteRefreshConfigFromEnv,
  QuoteRefreshConfigSchema,
  QUOTE_REFRESH_SCHEDULE_ID,
  type QuoteRefreshConfig,
} from '../client/schedules';
import {
  ensureReconcileSchedule,
  RECONCILE_EVERY_MS,
  RECONCILE_SCHEDULE_ID,
} from '../client/reconcile-schedule';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, cliContext, parseCommandArgs, printJson } from './cli-env';
import { EXIT, UsageError } from './exit-codes';
import type { Environment } from '../support/environment';

export const SCHEDULE_SUBCOMMANDS = ['create', 'describe', 'pause', 'unpause', 'trigger', 'delete'] as const;
export type ScheduleSubcommand = (typeof SCHEDULE_SUBCOMMANDS)[number];

const USAGE = `Usage: xborder schedule <${SCHEDULE_SUBCOMMANDS.join('|')}> [--id ${QUOTE_REFRESH_SCHEDULE_ID}] [--note TEXT] [--json]
  create    create the quote-refresh Schedule, or update it to the environment's configuration
            (XBORDER_QUOTE_REFRESH_INTERVAL_MS, XBORDER_QUOTE_PAIRS, XBORDER_QUOTE_REFERENCE_AMOUNT, XBORDER_QUOTE_PAUSE_MS);
            with --id ${RECONCILE_SCHEDULE_ID}: the reconcile Schedule (every 15 minutes), which workers make at start
  describe  interval, policies, state, recent and next runs
  pause / unpause   (with --note saying why)
  trigger   run a refresh now
  delete    remove the Schedule (the rate board keeps its last rates, which then age)
  --json    the result as one JSON document
${CONNECTION_USAGE}
Exit codes: 0 done, 1 no such Schedule, 2 usage, 3 cannot connect.`;

export function isScheduleSubcommand(value: string | undefined): value is ScheduleSubcommand {
  return (SCHEDULE_SUBCOMMANDS as readonly string[]).includes(value ?? '');
}

export async function runSchedule(args: string[], env: Environment): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    {
      args,
      allowPositionals: true,
      options: {
        id: { type: 'string' },
        note: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...CONNECTION_OPTIONS,
      },
    },
    USAGE,
  );
  const sub = positionals[0];
  if (values.help) {
    console.log(USAGE);
    return EXIT.OK;
  }
  if (!isScheduleSubcommand(sub) || positionals.length !== 1) {
    throw new UsageError(
      sub === undefined ? 'give a subcommand' : `unknown subcommand "${positionals.join(' ')}"`,
      USAGE,
    );
  }
  // create: the XBORDER_QUOTE_* variables, checked before anything connects
  const quoteRefresh = sub === 'create' ? quoteRefreshConfigFromEnv(env) : undefined;
  const ctx = await cliContext(values, env);
  try {
    return await runScheduleSubcommand(ctx.client, sub, {
      scheduleId: values.id ?? QUOTE_REFRESH_SCHEDULE_ID,
      taskQueue: ctx.taskQueue,
      ...(quoteRefresh ? { quoteRefresh } : {}),
      ...(values.note ? { note: values.note } : {}),
      json: values.json ?? false,
    });
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) {
      const scheduleId = values.id ?? QUOTE_REFRESH_SCHEDULE_ID;
      if (values.json) printJson({ scheduleId, found: false });
      console.error(`no Schedule ${scheduleId}; create it with: xborder schedule create`);
      return EXIT.NOT_OK;
    }
    throw err;
  } finally {
    await ctx.close();
  }
}

export async function runScheduleSubcommand(
  client: Client,
  sub: ScheduleSubcommand,
  options: {
    scheduleId: string;
    taskQueue: string;
    note?: string;
    json: boolean;
    /** create: the Schedule's settings (XBORDER_QUOTE_*, read by the caller); default the built-in ones. */
    quoteRefresh?: QuoteRefreshConfig;
  },
): Promise<number> {
  const handle = client.schedule.getHandle(options.scheduleId);
  // One line of text, or with --json one document: { scheduleId, action, ... }.
  const done = (text: string, action: string, extra: Record<string, unknown> = {}) => {
    if (options.json) printJson({ scheduleId: options.scheduleId, action, ...extra });
    else console.log(text);
    return EXIT.OK;
  };
  switch (sub) {
    case 'create': {
      if (options.scheduleId === RECONCILE_SCHEDULE_ID) {
        // the sweep that finds lost webhooks: a deployment whose workers make no Schedules (Lambda) makes it here
        const reconcile = await ensureReconcileSchedule(client, { taskQueue: options.taskQueue });
        const action = reconcile.created ? 'created' : 'updated';
        return done(
          `${action} Schedule ${reconcile.scheduleId}: reconcilePayments every ${RECONCILE_EVERY_MS} ms, task queue ${options.taskQueue}` +
            (reconcile.instead ? ` (${reconcile.instead})` : ''),
          action,
          {
            // the Schedule made: another than asked when another task queue's deployment runs payment-reconcile
            scheduleId: reconcile.scheduleId,
            workflowType: 'reconcilePayments',
            everyMs: RECONCILE_EVERY_MS,
            taskQueue: options.taskQueue,
            ...(reconcile.instead ? { instead: reconcile.instead } : {}),
          },
        );
      }
      const config = {
        ...(options.quoteRefresh ?? QuoteRefreshConfigSchema.parse({ taskQueue: options.taskQueue })),
        taskQueue: options.taskQueue,
        scheduleId: options.scheduleId,
      };
      const ensured = await ensureSchedules(client, config);
      return done(
        `${ensured.created ? 'created' : 'updated'} Schedule ${ensured.scheduleId}: every ${config.intervalMs} ms, ` +
          `${config.pairs.length} pairs (${config.pairs.map(formatRatePair).join(', ')}), task queue ${config.taskQueue}`,
        ensured.created ? 'created' : 'updated',
        {
          intervalMs: config.intervalMs,
          pairs: config.pairs.map(formatRatePair),
          taskQueue: config.taskQueue,
        },
      );
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
        recentActions: d.info.recentActions.map((a) => ({
          scheduledAt: a.scheduledAt,
          takenAt: a.takenAt,
          workflowId: a.action.workflow.workflowId,
        })),
        nextActionTimes: d.info.nextActionTimes,
        runningActions: d.info.runningActions.map((a) => a.workflow.workflowId),
      };
      if (options.json) printJson(summary);
      else console.log(formatDescription(summary));
      return EXIT.OK;
    }
    case 'pause':
      await handle.pause(options.note ?? 'paused with xborder schedule pause');
      return done(`paused ${options.scheduleId}`, 'paused');
    case 'unpause':
      await handle.unpause(options.note ?? 'unpaused with xborder schedule unpause');
      return done(`unpaused ${options.scheduleId}`, 'unpaused');
    case 'trigger':
      await handle.trigger();
      return done(`triggered ${options.scheduleId}`, 'triggered');
    case 'delete':
      await handle.delete();
      return done(`deleted ${options.scheduleId}`, 'deleted');
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
