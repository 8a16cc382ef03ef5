// Everything the long-lived worker process reads from its environment, read once by its entry (workers/main.ts,
// `xborder worker`) and handed down as this typed object: nothing below the entry reads process.env
// (docs/architecture.md, "Configuration"). Each part's variables are defined once, beside the code they configure.
import { z } from 'zod';
import { workerCodecConfigFromEnv, type CodecConfig } from '../src/codec/data-converter';
import { quoteRefreshConfigFromEnv, type QuoteRefreshConfig } from '../src/client/quote-refresh-config';
import { stuckGaugeConfigFromEnv, type StuckGaugeConfig } from '../src/client/stuck-gauge';
import { parseEnvironment, type Environment } from '../src/support/environment';
import { telemetryConfigFromEnv, type TelemetryConfig } from '../src/telemetry/runtime';
import { tracingConfigFromEnv, type TracingConfig } from '../src/telemetry/tracing';
import { workerConfigFromEnv, type WorkerConfig } from './config';
import { eventsConfigFromEnv } from './events-config';
import { reportsConfigFromEnv } from './reports-config';
import type { ReportsConfig } from '../activities/report-activities';
import type { EventDeliveryConfig } from '../activities/event-delivery-activities';

const WorkerProcessEnvSchema = z.object({
  /** `false` skips creating/updating the Schedules at start-up (another worker or a deploy step owns them). */
  XBORDER_ENSURE_SCHEDULES: z.string().optional(),
});

/** The worker process's variables besides the worker's, the codec's, telemetry's and the Schedules'. */
export const WORKER_PROCESS_ENV_VARS = Object.keys(WorkerProcessEnvSchema.shape) as ReadonlyArray<
  keyof typeof WorkerProcessEnvSchema.shape
>;

export interface WorkerProcessConfig {
  /** Temporal connection, task queue, provider, versioning, cache (workers/config.ts). */
  worker: WorkerConfig;
  /** Payload keys and switches (docs/codec.md). */
  codec: CodecConfig;
  /** JSON log level, Prometheus address. */
  telemetry: TelemetryConfig;
  tracing: TracingConfig;
  /** The stuck-payments gauge; intervalMs 0 = off. */
  stuckGauge: StuckGaugeConfig;
  /** The quote-refresh Schedule this worker creates or updates; null when XBORDER_ENSURE_SCHEDULES=false. */
  quoteRefresh: QuoteRefreshConfig | null;
  /** Outbound events' endpoints and signing secrets (docs/outbound-events.md). */
  events: EventDeliveryConfig;
  /** Where the daily reconciliation report goes (XBORDER_REPORTS_DIR); null: no report, no report Schedule. */
  reports: ReportsConfig | null;
}

/** Reads and checks every variable now: a wrong one stops the start, naming it, before anything connects. */
export function workerProcessConfigFromEnv(env: Environment): WorkerProcessConfig {
  const own = parseEnvironment(WorkerProcessEnvSchema, env, 'worker');
  const worker = workerConfigFromEnv(env);
  return {
    worker,
    codec: workerCodecConfigFromEnv(env),
    telemetry: telemetryConfigFromEnv(env),
    tracing: tracingConfigFromEnv(env),
    stuckGauge: stuckGaugeConfigFromEnv(env),
    quoteRefresh:
      own.XBORDER_ENSURE_SCHEDULES === 'false'
        ? null
        : { ...quoteRefreshConfigFromEnv(env), taskQueue: worker.taskQueue },
    events: eventsConfigFromEnv(env),
    reports: reportsConfigFromEnv(env),
  };
}
