// The worker's Temporal Runtime with xborder's telemetry: the JSON logger as the Runtime logger
// (worker, workflow and activity logs, plus the Rust core's own logs forwarded at WARN and above), and, when
// XBORDER_METRICS_ADDRESS is set, the runtime's Prometheus exporter at http://<address>/metrics carrying the
// Temporal worker metrics and our own counters (created on the runtime's metric meter).
import { Runtime, makeTelemetryFilterString, type RuntimeOptions } from '@temporalio/worker';
import type { LogLevel } from '@temporalio/common';
import { createJsonLogger, logLevelFromEnv, type JsonLogger } from './logger';
import { createXborderMetrics, type XborderMetrics } from './metrics';
import { parseBindAddress } from './metrics-server';
import type { Environment } from '../support/environment';

export interface TelemetryConfig {
  /** host:port of the Prometheus endpoint; none = no metrics exporter */
  metricsAddress?: string;
  logLevel: LogLevel;
}

/** XBORDER_METRICS_ADDRESS (e.g. 127.0.0.1:9464, 0.0.0.0:9464 in a container), XBORDER_LOG_LEVEL. */
export function telemetryConfigFromEnv(env: Environment): TelemetryConfig {
  const metricsAddress = env.XBORDER_METRICS_ADDRESS?.trim();
  if (metricsAddress) parseBindAddress(metricsAddress); // fail at start-up, not at the first scrape
  return { logLevel: logLevelFromEnv(env), ...(metricsAddress ? { metricsAddress } : {}) };
}

export const TELEMETRY_ENV_VARS = ['XBORDER_METRICS_ADDRESS', 'XBORDER_LOG_LEVEL'] as const;

export function telemetryRuntimeOptions(config: TelemetryConfig, logger: JsonLogger): RuntimeOptions {
  return {
    logger,
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'WARN', other: 'ERROR' }) },
      ...(config.metricsAddress ? { metrics: { prometheus: { bindAddress: config.metricsAddress } } } : {}),
    },
  };
}

export interface InstalledTelemetry {
  runtime: Runtime;
  logger: JsonLogger;
  /** counters on the runtime's meter: exported with the Temporal metrics when metricsAddress is set */
  metrics: XborderMetrics;
  metricsUrl: string | null;
}

/**
 * Installs the process-wide Temporal Runtime. Call once, before the first NativeConnection or Worker is
 * created (Runtime.install throws afterwards).
 */
export function installTelemetryRuntime(
  config: TelemetryConfig,
  logger: JsonLogger = createJsonLogger({ level: config.logLevel, base: { service: 'xborder-worker' } }),
): InstalledTelemetry {
  const runtime = Runtime.install(telemetryRuntimeOptions(config, logger));
  return {
    runtime,
    logger,
    metrics: createXborderMetrics(runtime.metricMeter),
    metricsUrl: config.metricsAddress ? `http://${config.metricsAddress}/metrics` : null,
  };
}
