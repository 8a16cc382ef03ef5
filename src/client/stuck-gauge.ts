// The stuck-payments gauge (docs/deployment.md, Dashboards and alerts): on an interval, the stuck payments
// counted by kind (src/client/stuck-counts.ts: one visibility count per kind, the same queries as `xborder stuck` and
// the UI filters of docs/operations.md) and set on a gauge, so Prometheus can alert on payments nobody is moving; with them, how
// the current build is served (its pollers, the age of its oldest waiting workflow task), so a deploy that routes
// work to nobody alerts. One process per cluster runs it: the `stuck-gauge` service of compose
// (workers/stuck-gauge-main.ts); a worker runs it too unless XBORDER_STUCK_GAUGE_INTERVAL_MS=0 (one worker, `npm
// start`). Its cost is a dozen calls a refresh whatever the number of payments.
import type { Client } from '@temporalio/client';
import type { MetricMeter } from '@temporalio/common';
import { z } from 'zod';
import { stuckQueries, type StuckKind } from './stuck';
import { countStuckPayments, type StuckCounts } from './stuck-counts';
import type { JsonLogger } from '../telemetry/logger';
import { parseEnvironment, type Environment } from '../support/environment';

export const STUCK_METRIC_NAMES = {
  stuck: 'xborder_stuck_payments',
  refreshed: 'xborder_stuck_payments_refreshed_timestamp_seconds',
  /** age of the oldest workflow task waiting on the current / ramping build (label `build`), seconds */
  backlogAge: 'xborder_build_backlog_age_seconds',
  /** workflow tasks waiting on the current / ramping build */
  backlogTasks: 'xborder_build_backlog_tasks',
  /** workers of the current / ramping build polling the task queue, by task type */
  pollers: 'xborder_build_pollers',
  /** visibility and Worker Deployment calls of the last refresh: the gauge's own cost */
  calls: 'xborder_stuck_gauge_calls',
} as const;

const StuckGaugeEnvSchema = z.object({
  /** How often to count; 0 turns the gauge off. Default 60 s. */
  XBORDER_STUCK_GAUGE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(60_000),
  /** A payment IN_PROGRESS longer than this is stuck (StuckQueryOptions.inProgressLimitMs). Default 24 h. */
  XBORDER_STUCK_IN_PROGRESS_LIMIT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3_600_000),
});

export const STUCK_GAUGE_ENV_VARS = Object.keys(StuckGaugeEnvSchema.shape) as ReadonlyArray<
  keyof typeof StuckGaugeEnvSchema.shape
>;

export interface StuckGaugeConfig {
  intervalMs: number;
  inProgressLimitMs: number;
  /** the Worker Deployment whose old builds may hold waiting PINNED payments (StuckQueryOptions.deploymentName) */
  deploymentName?: string;
  /** StuckQueryOptions.waitingTaskLimitMs (default 60 s) */
  waitingTaskLimitMs?: number;
  /** the workers' task queue: the current build's pollers are counted on it */
  taskQueue?: string;
}

export function stuckGaugeConfigFromEnv(env: Environment): StuckGaugeConfig {
  const e = parseEnvironment(StuckGaugeEnvSchema, env, 'stuck-gauge');
  return {
    intervalMs: e.XBORDER_STUCK_GAUGE_INTERVAL_MS,
    inProgressLimitMs: e.XBORDER_STUCK_IN_PROGRESS_LIMIT_MS,
  };
}

export interface StuckGauge {
  /** Counts now and sets the gauges; resolves to what it counted (also used by the first, immediate refresh). */
  refresh(): Promise<StuckCounts>;
  stop(): Promise<void>;
}

export interface StuckGaugeOptions extends StuckGaugeConfig {
  client: Client;
  meter: MetricMeter;
  logger?: JsonLogger;
  now?: () => Date;
}

export function startStuckPaymentsGauge(options: StuckGaugeOptions): StuckGauge {
  const stuck = options.meter.createGauge(
    STUCK_METRIC_NAMES.stuck,
    'int',
    undefined,
    'Running payments matching a stuck query, by kind',
  );
  const refreshed = options.meter.createGauge(
    STUCK_METRIC_NAMES.refreshed,
    'int',
    undefined,
    'When the stuck-payments gauge was last counted',
  );
  const kinds = Object.keys(stuckQueries()) as StuckKind[];

  const backlogAge = options.meter.createGauge(
    STUCK_METRIC_NAMES.backlogAge,
    'float',
    undefined,
    'Age of the oldest workflow task waiting on the current or ramping build',
  );
  const backlogTasks = options.meter.createGauge(
    STUCK_METRIC_NAMES.backlogTasks,
    'int',
    undefined,
    'Workflow tasks waiting on the current or ramping build',
  );
  const pollers = options.meter.createGauge(
    STUCK_METRIC_NAMES.pollers,
    'int',
    undefined,
    'Workers of the current or ramping build polling the task queue',
  );
  const calls = options.meter.createGauge(
    STUCK_METRIC_NAMES.calls,
    'int',
    undefined,
    'Temporal calls of the last stuck-gauge refresh',
  );

  const refresh = async (): Promise<StuckCounts> => {
    const now = options.now?.() ?? new Date();
    const counted = await countStuckPayments(options.client, {
      now,
      inProgressLimitMs: options.inProgressLimitMs,
      ...(options.deploymentName ? { deploymentName: options.deploymentName } : {}),
      ...(options.waitingTaskLimitMs !== undefined ? { waitingTaskLimitMs: options.waitingTaskLimitMs } : {}),
      ...(options.taskQueue ? { taskQueue: options.taskQueue } : {}),
    });
    // Every kind every time, 0 included: a series that disappears cannot resolve an alert.
    for (const kind of kinds) stuck.set(counted.counts[kind] ?? 0, { kind });
    for (const [build, serving] of [
      ['current', counted.current],
      ['ramping', counted.ramping],
    ] as const) {
      backlogAge.set(serving?.backlog.ageSeconds ?? 0, { build });
      backlogTasks.set(serving?.backlog.count ?? 0, { build });
      // no pollers counted (no task queue given, no such build): no series value to alert on is better than a false 0
      const polling =
        serving?.pollers ?? (build === 'ramping' && options.taskQueue ? { workflow: 0, activity: 0 } : null);
      if (polling) {
        pollers.set(polling.workflow, { build, task_type: 'workflow' });
        pollers.set(polling.activity, { build, task_type: 'activity' });
      }
    }
    calls.set(counted.calls);
    refreshed.set(Math.floor(now.getTime() / 1000));
    return counted;
  };

  // One count at a time: a slow visibility store must not pile up queries.
  let busy: Promise<void> | null = null;
  const tick = () => {
    if (busy) return;
    busy = refresh()
      .then(
        () => undefined,
        (error: unknown) => {
          // Logged, not fatal: the timestamp gauge goes stale and its alert fires if this keeps failing.
          options.logger?.warn('stuck-payments gauge: count failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        },
      )
      .finally(() => {
        busy = null;
      });
  };
  tick();
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    refresh,
    async stop() {
      clearInterval(timer);
      await busy;
    },
  };
}
