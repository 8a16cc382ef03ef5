// xborder's own counters: payments by outcome, webhook events by result, provider errors by
// type. Counted into any MetricMeter: the worker runtime's (exported with the Temporal metrics on the runtime's
// Prometheus endpoint) or a PrometheusRegistry (ingress, served by startMetricsServer).
import type { MetricCounter, MetricMeter } from '@temporalio/common';

export const METRIC_NAMES = {
  payments: 'xborder_payments_total',
  webhookEvents: 'xborder_webhook_events_total',
  providerErrors: 'xborder_provider_errors_total',
} as const;

/** accepted/duplicate/rejected, plus the ingress's ignored (no workflow follows it) and failed (Temporal down). */
export type WebhookEventResult = 'accepted' | 'duplicate' | 'rejected' | 'ignored' | 'failed';

export interface XborderMetrics {
  /** a payment workflow ended with this outcome (COMPLETED, FAILED, EXPIRED, REFUNDED, REJECTED, CANCELLED) */
  paymentOutcome(outcome: string): void;
  /** the ingress accepted, dropped as duplicate, or rejected (bad signature, bad body) a webhook event */
  webhookEvent(result: WebhookEventResult, eventType?: string): void;
  /** a provider call failed with this error type (ProviderError.type / ApplicationFailure.type) */
  providerError(type: string): void;
}

export function createXborderMetrics(meter: MetricMeter): XborderMetrics {
  const counters = new Map<string, MetricCounter>();
  const counter = (name: string, description: string): MetricCounter => {
    let c = counters.get(name);
    if (!c) {
      c = meter.createCounter(name, undefined, description);
      counters.set(name, c);
    }
    return c;
  };
  return {
    paymentOutcome: (outcome) => counter(METRIC_NAMES.payments, 'Payments by outcome').add(1, { outcome }),
    webhookEvent: (result, eventType) =>
      counter(METRIC_NAMES.webhookEvents, 'Webhook events by result').add(1, {
        result,
        event_type: eventType ?? 'unknown',
      }),
    providerError: (type) => counter(METRIC_NAMES.providerErrors, 'Provider errors by type').add(1, { type }),
  };
}
