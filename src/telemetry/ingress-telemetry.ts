// Telemetry of the webhook ingress (no Temporal worker runtime there): webhook events by result counted into
// a PrometheusRegistry served at XBORDER_INGRESS_METRICS_ADDRESS (/metrics), and one redacted JSON log line
// per event. Plugs into createWebhookHandler's `onOutcome` hook.
import type { LogLevel } from '@temporalio/common';
import { createJsonLogger, logLevelFromEnv, type JsonLogger } from './logger';
import { createXborderMetrics, type WebhookEventResult } from './metrics';
import { parseBindAddress, startMetricsServer, type MetricsServer } from './metrics-server';
import { PrometheusRegistry } from './prometheus-registry';
import type { Environment } from '../support/environment';

export const INGRESS_TELEMETRY_ENV_VARS = ['XBORDER_INGRESS_METRICS_ADDRESS', 'XBORDER_LOG_LEVEL'] as const;

export interface IngressTelemetry {
  registry: PrometheusRegistry;
  logger: JsonLogger;
  /** for createWebhookHandler({ onOutcome }) */
  onOutcome(outcome: WebhookEventResult, detail: { eventId?: string; type?: string; message: string }): void;
  /** starts the /metrics endpoint when an address is configured; null otherwise */
  startServer(): Promise<MetricsServer | null>;
}

export function createIngressTelemetry(
  options: { metricsAddress?: string; logger?: JsonLogger } = {},
): IngressTelemetry {
  const registry = new PrometheusRegistry();
  const metrics = createXborderMetrics(registry);
  const logger = options.logger ?? createJsonLogger({ base: { service: 'xborder-ingress' } });
  const bind = options.metricsAddress ? parseBindAddress(options.metricsAddress) : null;
  return {
    registry,
    logger,
    onOutcome(outcome, detail) {
      metrics.webhookEvent(outcome, detail.type);
      const level = outcome === 'failed' ? 'WARN' : outcome === 'rejected' ? 'WARN' : 'INFO';
      logger.log(level, `webhook ${outcome}`, {
        outcome,
        eventId: detail.eventId,
        eventType: detail.type,
        detail: detail.message,
      });
    },
    startServer: () =>
      bind ? startMetricsServer({ registry, host: bind.host, port: bind.port }) : Promise.resolve(null),
  };
}

export interface IngressTelemetryConfig {
  /** host:port of the /metrics endpoint; none = no endpoint (always none in a Lambda) */
  metricsAddress?: string;
  logLevel: LogLevel;
}

/** XBORDER_INGRESS_METRICS_ADDRESS, XBORDER_LOG_LEVEL; a malformed address fails at start-up, not at the first scrape. */
export function ingressTelemetryConfigFromEnv(env: Environment): IngressTelemetryConfig {
  const metricsAddress = env.XBORDER_INGRESS_METRICS_ADDRESS?.trim();
  if (metricsAddress) parseBindAddress(metricsAddress);
  return { logLevel: logLevelFromEnv(env), ...(metricsAddress ? { metricsAddress } : {}) };
}

/** The ingress's telemetry from its configuration; `service` names its log lines. */
export function ingressTelemetryOf(
  config: IngressTelemetryConfig,
  service = 'xborder-ingress',
): IngressTelemetry {
  return createIngressTelemetry({
    ...(config.metricsAddress ? { metricsAddress: config.metricsAddress } : {}),
    logger: createJsonLogger({ level: config.logLevel, base: { service } }),
  });
}
