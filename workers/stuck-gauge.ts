// The worker process's stuck-payments gauge (src/client/stuck-gauge.ts): its own client, the runtime's meter
// (so the gauge is exported at XBORDER_METRICS_ADDRESS with the worker metrics), started and stopped with the
// worker. A failed connect is logged and leaves the gauge off: the worker is useful without it.
import type { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { connectClient } from '../src/client/connect';
import type { TemporalConnectionConfig } from '../src/client/connection-config';
import type { InstalledTelemetry } from '../src/telemetry/runtime';
import { startStuckPaymentsGauge, type StuckGaugeConfig } from '../src/client/stuck-gauge';
import { DEFAULT_DEPLOYMENT_NAME } from './config';

export async function startStuckGauge(
  config: StuckGaugeConfig,
  temporal: TemporalConnectionConfig,
  dataConverter: DataConverter,
  telemetry: Pick<InstalledTelemetry, 'runtime' | 'logger'>,
): Promise<{ stop(): Promise<void> }> {
  if (config.intervalMs === 0) return { stop: async () => undefined };
  let client: Client;
  try {
    client = await connectClient(temporal, dataConverter);
  } catch (error) {
    telemetry.logger.warn('stuck-payments gauge off: no Temporal client', {
      error: error instanceof Error ? error.message : String(error),
    });
    return { stop: async () => undefined };
  }
  // Every deploy may strand PINNED payments on an old build: the gauge looks at this worker's deployment.
  const deploymentName = config.deploymentName ?? DEFAULT_DEPLOYMENT_NAME;
  const gauge = startStuckPaymentsGauge({
    ...config,
    deploymentName,
    client,
    meter: telemetry.runtime.metricMeter,
    logger: telemetry.logger,
  });
  return {
    async stop() {
      await gauge.stop();
      await client.connection.close();
    },
  };
}
