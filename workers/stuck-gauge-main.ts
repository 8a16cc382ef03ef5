// The stuck gauge as a process of its own: `node dist/workers/stuck-gauge-main.js`, the `stuck-gauge` service of
// temporal-docker/compose.yaml (docs/deployment.md, "Dashboards and alerts"). One per cluster, however many worker
// replicas and builds run (they set XBORDER_STUCK_GAUGE_INTERVAL_MS=0): the counts are the cluster's, not a
// replica's, and one process counting is the whole cost. It holds no payload key and no provider key: counts,
// search attributes and the Worker Deployment API carry no payload. A failed connect exits 1 (Docker restarts it);
// a failed count is logged and the refreshed-timestamp gauge goes stale (alert XborderStuckGaugeStale).
import type { DataConverter } from '@temporalio/common';
import { connectClient } from '../src/client/connect';
import { temporalConfigFromEnv, describeTemporalConfig } from '../src/client/connection-config';
import { startStuckPaymentsGauge, stuckGaugeConfigFromEnv } from '../src/client/stuck-gauge';
import { parseEnvironment, type Environment } from '../src/support/environment';
import { createJsonLogger } from '../src/telemetry/logger';
import { installTelemetryRuntime, telemetryConfigFromEnv } from '../src/telemetry/runtime';
import { WorkerEnvSchema } from './config';

/** The workers' deployment and task queue, read as the workers read them (workers/config.ts). */
const GaugeProcessEnvSchema = WorkerEnvSchema.pick({
  XBORDER_DEPLOYMENT_NAME: true,
  XBORDER_TASK_QUEUE: true,
});

export const STUCK_GAUGE_PROCESS_ENV_VARS = Object.keys(GaugeProcessEnvSchema.shape) as ReadonlyArray<
  keyof typeof GaugeProcessEnvSchema.shape
>;

/** No codec: nothing this process reads is a payload. */
const NO_PAYLOADS: DataConverter = {};

export async function runStuckGaugeProcess(env: Environment): Promise<void> {
  const own = parseEnvironment(GaugeProcessEnvSchema, env, 'stuck-gauge');
  const config = stuckGaugeConfigFromEnv(env);
  if (config.intervalMs === 0)
    throw new Error('stuck-gauge: XBORDER_STUCK_GAUGE_INTERVAL_MS=0 leaves this process nothing to do');
  const temporal = temporalConfigFromEnv(env);
  const telemetryConfig = telemetryConfigFromEnv(env);
  const telemetry = installTelemetryRuntime(
    telemetryConfig,
    createJsonLogger({ level: telemetryConfig.logLevel, base: { service: 'xborder-stuck-gauge' } }),
  );
  if (telemetry.metricsUrl) console.log(`stuck-gauge: metrics at ${telemetry.metricsUrl}`);
  const client = await connectClient(temporal, NO_PAYLOADS);
  console.log(
    `stuck-gauge: Temporal ${describeTemporalConfig(temporal)}, deployment ${own.XBORDER_DEPLOYMENT_NAME}, task queue ${own.XBORDER_TASK_QUEUE}, every ${config.intervalMs} ms`,
  );
  const gauge = startStuckPaymentsGauge({
    ...config,
    deploymentName: own.XBORDER_DEPLOYMENT_NAME,
    taskQueue: own.XBORDER_TASK_QUEUE,
    client,
    meter: telemetry.runtime.metricMeter,
    logger: telemetry.logger,
  });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await gauge.stop();
  await client.connection.close();
  console.log('stuck-gauge: stopped');
}

if (require.main === module) {
  runStuckGaugeProcess(process.env).then(
    // the Temporal runtime's native threads (its metrics exporter) would keep the process alive after the stop
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
