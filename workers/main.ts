// Worker entrypoint: `xborder worker` / `node dist/workers/main.js`. The entry reads the environment once
// (workers/process-config.ts); runWorkerProcess and everything below it take the typed config. Stops gracefully on
// SIGTERM/SIGINT (in-flight activities get the grace time).
import type { DataConverter } from '@temporalio/common';
import { describeTemporalConfig, type TemporalConnectionConfig } from '../src/client/connection-config';
import { createProviderClient } from '../src/provider';
import { startXborderWorker } from './worker';
import { installTelemetryRuntime } from '../src/telemetry/runtime';
import { connectClient } from '../src/client/connect';
import { ensureSchedules, type QuoteRefreshConfig } from '../src/client/schedules';
import { startStuckGauge } from './stuck-gauge';
import { ensureReconcileSchedule } from '../src/client/reconcile-schedule';
import { ensureReportSchedule } from '../src/client/report-schedule';
import { installTracingFor } from '../src/telemetry/tracing';
import { dataConverterOf } from '../src/codec/data-converter';
import { describeFirstCurrent, makeCurrentIfNone } from '../src/client/worker-deployments';
import { workerProcessConfigFromEnv, type WorkerProcessConfig } from './process-config';

export async function runWorkerProcess(processConfig: WorkerProcessConfig): Promise<void> {
  const config = processConfig.worker;
  const dataConverter = dataConverterOf(processConfig.codec); // before connecting: no keys fails at once
  // telemetry: JSON logs (redacted) and, with XBORDER_METRICS_ADDRESS, Prometheus metrics.
  // Must run before the first NativeConnection.
  const telemetry = installTelemetryRuntime(processConfig.telemetry);
  if (telemetry.metricsUrl) console.log(`worker: metrics at ${telemetry.metricsUrl}`);
  // traces by OTLP when XBORDER_TRACING=otlp or OTEL_EXPORTER_OTLP_ENDPOINT is set (off by default)
  const tracing = installTracingFor(processConfig.tracing, 'xborder-worker');
  if (tracing) console.log('worker: tracing on (OTLP)');
  const provider = createProviderClient({
    baseUrl: config.provider.baseUrl,
    apiKey: config.provider.apiKey,
    timeoutMs: config.provider.timeoutMs,
    allowPlainHttp: config.provider.allowPlainHttp,
    logger: telemetry.logger.child({ component: 'provider' }),
    // this process's share of the key's rate budget, per HTTP call (docs/deployment.md "Provider rate budget")
    rateBudget: config.provider.rateBudget,
  });
  console.log(
    `worker: Temporal ${describeTemporalConfig(config.temporal)}, task queue ${config.taskQueue}, provider ${config.provider.baseUrl}`,
  );
  const running = await startXborderWorker({
    ...config,
    provider,
    dataConverter,
    events: processConfig.events,
    reports: processConfig.reports,
  });
  // a versioned worker gets tasks only once its version is current or ramping (docs/deployment.md, "Safe deploys");
  // its build id is derived from its workflow bundle unless XBORDER_BUILD_ID names one ("Build ids")
  console.log(
    running.version
      ? `worker: Worker Deployment ${running.version.deploymentName}, build ${running.version.buildId} (workflow bundle sha256 ${running.bundleDigest.slice(0, 12)}…)`
      : 'worker: unversioned (XBORDER_WORKER_VERSIONING=false: for a server without the Worker Deployment API)',
  );
  // under the Temporal Worker Controller the controller alone moves routing (XBORDER_ROUTING_MANAGED_BY=controller)
  if (running.version && config.makesItselfCurrent)
    await takeCurrentIfNone(config.temporal, dataConverter, running.version);
  // the quote-refresh Schedule is created or updated at start-up (XBORDER_ENSURE_SCHEDULES=false skips it).
  if (processConfig.quoteRefresh)
    await ensureQuoteRefresh(
      processConfig.quoteRefresh,
      config.temporal,
      dataConverter,
      processConfig.reports !== null,
    );
  // the stuck-payments gauge on the runtime's meter (XBORDER_STUCK_GAUGE_INTERVAL_MS=0 turns it off).
  const stuckGauge = await startStuckGauge(
    {
      ...processConfig.stuckGauge,
      deploymentName: config.deployment?.version.deploymentName,
      taskQueue: config.taskQueue,
    },
    config.temporal,
    dataConverter,
    telemetry,
  );
  const stop = (signal: string) => {
    console.log(`worker: ${signal} received, draining`);
    void running.shutdown();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  await running.done;
  await stuckGauge.stop();
  await tracing?.shutdown(); // flushes the last spans
  console.log('worker: stopped');
}

/**
 * The first build of a deployment becomes its Current Version; a later one waits for `xborder deploy set-current`
 * (makeCurrentIfNone). A failure is logged with what to do, not fatal: the worker polls on, and gets tasks as soon
 * as an operator makes its build current.
 */
async function takeCurrentIfNone(
  temporal: TemporalConnectionConfig,
  dataConverter: DataConverter,
  version: { deploymentName: string; buildId: string },
): Promise<void> {
  try {
    const client = await connectClient(temporal, dataConverter);
    try {
      console.log(
        `worker: ${describeFirstCurrent(await makeCurrentIfNone(client, version, { identity: `xborder worker (${client.options.identity})` }))}`,
      );
    } finally {
      await client.connection.close();
    }
  } catch (error) {
    console.error(
      `worker: ${error instanceof Error ? error.message : String(error)}; it gets no tasks until its build is current: xborder deploy set-current ${version.buildId}`,
    );
  }
}

/** A failure here is logged, not fatal: the worker is useful without the Schedule, and the next start retries. */
async function ensureQuoteRefresh(
  quoteRefresh: QuoteRefreshConfig,
  temporal: TemporalConnectionConfig,
  dataConverter: DataConverter,
  reports: boolean,
): Promise<void> {
  const { taskQueue } = quoteRefresh;
  try {
    const client = await connectClient(temporal, dataConverter);
    try {
      // each on its own: one that cannot be made does not keep the others from being made
      await ensureOne('quote-refresh', () => ensureSchedules(client, quoteRefresh));
      // the sweep that finds lost webhooks (a PAYIN, a funding or final status, a move after the outcome), every 15 minutes
      await ensureOne('payment-reconcile', () => ensureReconcileSchedule(client, { taskQueue }));
      // the daily reconciliation report, where this worker writes one (XBORDER_REPORTS_DIR)
      if (reports)
        await ensureOne('reconciliation-report', () => ensureReportSchedule(client, { taskQueue }));
    } finally {
      await client.connection.close();
    }
  } catch (error) {
    console.error(
      `worker: could not connect to ensure its Schedules: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function ensureOne(
  name: string,
  ensure: () => Promise<{ scheduleId: string; created: boolean; instead?: string }>,
): Promise<void> {
  try {
    const ensured = await ensure();
    console.log(
      `worker: Schedule ${ensured.scheduleId} ${ensured.created ? 'created' : 'updated'}${ensured.instead ? ` (${ensured.instead})` : ''}`,
    );
  } catch (error) {
    console.error(
      `worker: could not ensure the ${name} Schedule: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

if (require.main === module) {
  Promise.resolve()
    .then(() => runWorkerProcess(workerProcessConfigFromEnv(process.env)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
