// Telemetry of the webhook ingress (no Temporal worker runtime there): webhook events by result counted into
// a PrometheusRegistry served at XBORDER_INGRESS_METRICS_ADDRESS (/metrics), and one redacted JSON log line
// per event. Plugs into createWebhookHandler's `onOutcome` hook.
import { createJsonLogger, logLevelFromEnv, type JsonLogger } from './logger';
import { createXborderMetrics, type WebhookEventResult } from './metrics';
import { parseBindAddress, startMetricsServer, type MetricsServer } from './metrics-server';
import { PrometheusRegistry } from './prometheus-registry';

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
      logger.log(level, `webhook ${outcome}`, { outcome, eventId: detail.eventId, eventType: detail.type, detail: detail.message });
    },
    startServer: () => (bind ? startMetricsServer({ registry, host: bind.host, port: bind.port }) : Promise.resolve(null)),
  };
}

export function ingressTelemetryFromEnv(env: NodeJS.ProcessEnv = process.env): IngressTelemetry {
  const metricsAddress = env.XBORDER_INGRESS_METRICS_ADDRESS?.trim();
  return createIngressTelemetry({
    ...(metricsAddress ? { metricsAddress } : {}),
    logger: createJsonLogger({ level: logLevelFromEnv(env), base: { service: 'xborder-ingress' } }),
  });
}
