// Tracing, the pure parts: when it is on, the bundle a traced worker loads, and the redaction of spans.
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { RedactingSpanProcessor, tracingModeFromEnv } from '../../src/telemetry/tracing';
import { tracingBundlePath } from '../../workers/tracing-bundle-path';

describe('tracingModeFromEnv', () => {
  it('is off by default and on with XBORDER_TRACING=otlp or an OTLP endpoint', () => {
    expect(tracingModeFromEnv({})).toBe('off');
    expect(tracingModeFromEnv({ XBORDER_TRACING: 'otlp' })).toBe('otlp');
    expect(tracingModeFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe('otlp');
    expect(
      tracingModeFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }),
    ).toBe('otlp');
  });
  it('lets XBORDER_TRACING=off and OTEL_SDK_DISABLED win, and refuses other values', () => {
    expect(tracingModeFromEnv({ XBORDER_TRACING: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toBe(
      'off',
    );
    expect(tracingModeFromEnv({ XBORDER_TRACING: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe('off');
    expect(() => tracingModeFromEnv({ XBORDER_TRACING: 'jaeger' })).toThrow(/XBORDER_TRACING/);
  });
});

it('finds the tracing bundle beside the configured one', () => {
  expect(tracingBundlePath('/app/dist/workflow-bundle.js')).toBe('/app/dist/workflow-bundle-otel.js');
  expect(tracingBundlePath('/opt/bundle')).toBe('/opt/bundle-otel.js');
});

it('masks personal data in span names, attributes, exception events and status messages on the way out', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new RedactingSpanProcessor(new SimpleSpanProcessor(exporter))],
  });
  const span = provider.getTracer('test').startSpan('provider POST', {
    kind: SpanKind.CLIENT,
    attributes: {
      'url.path': '/v1/payments',
      email: 'jane.doe@example.com',
      note: 'account 123456789012',
      ok: 201,
    },
  });
  span.recordException(new Error('bad accountNumber 123456789012 for jane.doe@example.com'));
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'refused jane.doe@example.com' });
  span.end();
  const [out] = exporter.getFinishedSpans();
  expect(out!.attributes).toEqual({
    'url.path': '/v1/payments',
    email: '[REDACTED]',
    note: 'account [REDACTED]',
    ok: 201,
  });
  const text = JSON.stringify({ events: out!.events, status: out!.status });
  expect(text).not.toContain('jane.doe@example.com');
  expect(text).not.toContain('123456789012');
  expect(out!.spanContext().traceId).toBe(span.spanContext().traceId); // still the span, only its data masked
});
