// Our counters in Prometheus text: the in-process registry and its HTTP endpoint (for
// processes without a worker runtime), the counter names, and the error type the activity interceptor counts.
import { ApplicationFailure } from '@temporalio/common';
import { createXborderMetrics, METRIC_NAMES } from '../../src/telemetry/metrics';
import { PrometheusRegistry, PROMETHEUS_CONTENT_TYPE } from '../../src/telemetry/prometheus-registry';
import { parseBindAddress, startMetricsServer, type MetricsServer } from '../../src/telemetry/metrics-server';
import { errorTypeOf } from '../../src/telemetry/activity-interceptor';
import { telemetryConfigFromEnv, telemetryRuntimeOptions } from '../../src/telemetry/runtime';
import { createJsonLogger } from '../../src/telemetry/logger';
import { createIngressTelemetry } from '../../src/telemetry/ingress-telemetry';
import { createWebhookHandler } from '../../src/ingress/handler';
import { generatedWebhookSecret } from '../support/secrets';

describe('createXborderMetrics on a PrometheusRegistry', () => {
  it('counts payments by outcome, webhook events by result and provider errors by type', () => {
    const registry = new PrometheusRegistry({ service: 'ingress' });
    const metrics = createXborderMetrics(registry);
    metrics.paymentOutcome('COMPLETED');
    metrics.paymentOutcome('COMPLETED');
    metrics.paymentOutcome('EXPIRED');
    metrics.webhookEvent('accepted', 'payment.updated');
    metrics.webhookEvent('duplicate', 'payment.updated');
    metrics.webhookEvent('rejected');
    metrics.providerError('RATE_LIMITED');
    expect(registry.value(METRIC_NAMES.payments, { outcome: 'COMPLETED' })).toBe(2);
    expect(registry.render()).toBe(
      [
        '# HELP xborder_payments_total Payments by outcome',
        '# TYPE xborder_payments_total counter',
        'xborder_payments_total{outcome="COMPLETED",service="ingress"} 2',
        'xborder_payments_total{outcome="EXPIRED",service="ingress"} 1',
        '# HELP xborder_webhook_events_total Webhook events by result',
        '# TYPE xborder_webhook_events_total counter',
        'xborder_webhook_events_total{event_type="payment.updated",result="accepted",service="ingress"} 1',
        'xborder_webhook_events_total{event_type="payment.updated",result="duplicate",service="ingress"} 1',
        'xborder_webhook_events_total{event_type="unknown",result="rejected",service="ingress"} 1',
        '# HELP xborder_provider_errors_total Provider errors by type',
        '# TYPE xborder_provider_errors_total counter',
        'xborder_provider_errors_total{service="ingress",type="RATE_LIMITED"} 1',
        '',
      ].join('\n'),
    );
  });

  it('escapes label values, renders gauges and histograms, and refuses bad names or a falling counter', () => {
    const registry = new PrometheusRegistry();
    registry.createCounter('odd_total').add(1, { note: 'a "quoted"\\path\nline' });
    registry.createGauge('board_pairs').set(5);
    const h = registry.createHistogram('refresh_ms');
    h.record(100);
    h.record(300);
    const text = registry.render();
    expect(text).toContain('odd_total{note="a \\"quoted\\"\\\\path\\nline"} 1');
    expect(text).toContain('# TYPE board_pairs gauge\nboard_pairs 5');
    expect(text).toContain('refresh_ms_sum 400\nrefresh_ms_count 2');
    expect(() => registry.createCounter('bad-name')).toThrow(/invalid metric name/);
    expect(() => registry.createGauge('odd_total')).toThrow(/is a counter/);
    expect(() => registry.createCounter('odd_total').add(-1)).toThrow(/cannot decrease/);
  });
});

describe('startMetricsServer', () => {
  let server: MetricsServer | undefined;
  afterAll(async () => server?.close());

  it('serves the registry at GET /metrics on 127.0.0.1 and 404 elsewhere', async () => {
    const registry = new PrometheusRegistry();
    createXborderMetrics(registry).webhookEvent('accepted', 'payment.created');
    server = await startMetricsServer({ registry, port: 0 });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/metrics`);
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(PROMETHEUS_CONTENT_TYPE);
    expect(await res.text()).toContain(
      'xborder_webhook_events_total{event_type="payment.created",result="accepted"} 1',
    );
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
  });
});

describe('configuration', () => {
  it('parses bind addresses and refuses malformed ones', () => {
    expect(parseBindAddress('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseBindAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(() => parseBindAddress('9464')).toThrow(/host:port/);
    expect(() => parseBindAddress('h:99999')).toThrow(/host:port/);
  });

  it('turns XBORDER_METRICS_ADDRESS into the runtime Prometheus exporter, and none into no exporter', () => {
    const logger = createJsonLogger({ write: () => undefined });
    const on = telemetryRuntimeOptions(
      telemetryConfigFromEnv({ XBORDER_METRICS_ADDRESS: '0.0.0.0:9464' }),
      logger,
    );
    expect(on.telemetryOptions?.metrics).toEqual({ prometheus: { bindAddress: '0.0.0.0:9464' } });
    expect(on.logger).toBe(logger);
    expect(on.telemetryOptions?.logging).toMatchObject({ forward: {} });
    const off = telemetryRuntimeOptions(telemetryConfigFromEnv({}), logger);
    expect(off.telemetryOptions?.metrics).toBeUndefined();
    expect(() => telemetryConfigFromEnv({ XBORDER_METRICS_ADDRESS: 'nonsense' })).toThrow(/host:port/);
  });
});

describe('errorTypeOf (what the activity interceptor counts)', () => {
  it('takes the ApplicationFailure type, a typed error type, else UNKNOWN', () => {
    expect(errorTypeOf(ApplicationFailure.create({ type: 'RATE_LIMITED', message: 'x' }))).toBe(
      'RATE_LIMITED',
    );
    expect(errorTypeOf(Object.assign(new Error('x'), { type: 'NETWORK_ERROR' }))).toBe('NETWORK_ERROR');
    expect(errorTypeOf(new Error('x'))).toBe('UNKNOWN');
    expect(errorTypeOf('boom')).toBe('UNKNOWN');
  });
});

describe('ingress telemetry (createWebhookHandler onOutcome)', () => {
  let server: MetricsServer | null = null;
  afterAll(async () => server?.close());

  it('counts a forged event as rejected, serves the counters and logs one redacted JSON line per event', async () => {
    const lines: string[] = [];
    const telemetry = createIngressTelemetry({
      metricsAddress: '127.0.0.1:0',
      logger: createJsonLogger({ write: (l) => lines.push(l) }),
    });
    const handler = createWebhookHandler({
      secrets: [generatedWebhookSecret()],
      router: { route: () => null },
      onOutcome: telemetry.onOutcome,
    });
    const response = await handler(
      { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,forged' },
      '{"id":"evt_1"}',
    );
    expect(response.status).toBe(401);
    server = await telemetry.startServer();
    const text = await (await fetch(server!.url)).text();
    expect(text).toContain('xborder_webhook_events_total{event_type="unknown",result="rejected"} 1');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'WARN',
      message: 'webhook rejected',
      outcome: 'rejected',
    });
  });

  it('starts no server without an address', async () => {
    expect(await createIngressTelemetry().startServer()).toBeNull();
  });
});
