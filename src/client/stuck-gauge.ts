// The stuck-payments gauge (docs/deployment.md, Dashboards and alerts): on an interval, the stuck queries of
// src/client/stuck.ts (the same as `xborder stuck` and the README's UI filters) counted by kind and set on a
// gauge, so Prometheus can alert on payments nobody is moving. It runs in the long-lived worker process
// (workers/main.ts) on the runtime's metric meter, exported at XBORDER_METRICS_ADDRESS with the other metrics;
// docs/deployment.md, "Dashboards and alerts". One visibility list per kind per refresh: cheap at stuck-payment
// volumes (they should be few), and each payment counts once, under its most serious kind.
import type { Client } from '@temporalio/client';
import type { MetricMeter } from '@temporalio/common';
import { z } from 'zod';
import { findStuckPayments, stuckQueries, type StuckKind } from './stuck';
import type { JsonLogger } from '../telemetry/logger';
import { parseEnvironment, type Environment } from '../support/environment';

export const STUCK_METRIC_NAMES = {
  stuck: 'xborder_stuck_payments',
  refreshed: 'xborder_stuck_payments_refreshed_timestamp_seconds',
} as const;

const StuckGaugeEnvSchema = z.object({
  /** How often to count; 0 turns the gauge off. Default 60 s. */
  XBORDER_STUCK_GAUGE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(60_000),
  /** A payment IN_PROGRESS longer than this is stuck (StuckQueryOptions.inProgressLimitMs). Default 24 h. */
  XBORDER_STUCK_IN_PROGRESS_LIMIT_MS: z.coerce.number().int().positive().default(24 * 3_600_000),
});

export const STUCK_GAUGE_ENV_VARS = Object.keys(StuckGaugeEnvSchema.shape) as ReadonlyArray<keyof typeof StuckGaugeEnvSchema.shape>;

export interface StuckGaugeConfig {
  intervalMs: number;
  inProgressLimitMs: number;
  /** the Worker Deployment whose old builds may hold waiting PINNED payments (StuckQueryOptions.deploymentName) */
  deploymentName?: string;
  /** StuckQueryOptions.waitingTaskLimitMs (default 60 s) */
  waitingTaskLimitMs?: number;
}

export function stuckGaugeConfigFromEnv(env: Environment): StuckGaugeConfig {
  const e = parseEnvironment(StuckGaugeEnvSchema, env, 'stuck-gauge');
  return { intervalMs: e.XBORDER_STUCK_GAUGE_INTERVAL_MS, inProgressLimitMs: e.XBORDER_STUCK_IN_PROGRESS_LIMIT_MS };
}

export interface StuckGauge {
  /** Counts now and sets the gauge; resolves to the counts (also used by the first, immediate refresh). */
  refresh(): Promise<Record<StuckKind, number>>;
  stop(): Promise<void>;
}

export interface StuckGaugeOptions extends StuckGaugeConfig {
  client: Client;
  meter: MetricMeter;
  logger?: JsonLogger;
  now?: () => Date;
}

export function startStuckPaymentsGauge(options: StuckGaugeOptions): StuckGauge {
  const stuck = options.meter.createGauge(STUCK_METRIC_NAMES.stuck, 'int', undefined, 'Running payments matching a stuck query, by kind');
  const refreshed = options.meter.createGauge(STUCK_METRIC_NAMES.refreshed, 'int', undefined, 'When the stuck-payments gauge was last counted');
  const kinds = Object.keys(stuckQueries()) as StuckKind[];

  const refresh = async (): Promise<Record<StuckKind, number>> => {
    const now = options.now?.() ?? new Date();
    const found = await findStuckPayments(options.client, { now, inProgressLimitMs: options.inProgressLimitMs, deploymentName: options.deploymentName, waitingTaskLimitMs: options.waitingTaskLimitMs });
    const counts = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<StuckKind, number>;
    for (const payment of found) counts[payment.kind]++;
    // Every kind every time, 0 included: a series that disappears cannot resolve an alert.
    for (const kind of kinds) stuck.set(counts[kind], { kind });
    refreshed.set(Math.floor(now.getTime() / 1000));
    return counts;
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
          options.logger?.warn('stuck-payments gauge: count failed', { error: error instanceof Error ? error.message : String(error) });
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
