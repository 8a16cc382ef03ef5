// OpenTelemetry traces: one trace from the client's startPayment or the ingress's webhook, through
// the workflow and its activities, to each provider HTTP call (traceparent sent on it). Off by default; on with
// XBORDER_TRACING=otlp, or when a standard OTLP endpoint variable is set (docs/deployment.md, "Tracing").
// Span attributes carry ids only (workflow, run, activity, event ids; provider ids): never personal data, and a
// redacting processor masks anything that looks like it on the way out (src/telemetry/redact.ts).
import { context, propagation, trace, type Attributes, type AttributeValue } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Context } from '@opentelemetry/api';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import { REDACTED, isSensitiveKey, redactText } from './redact';
import type { Environment } from '../support/environment';

export type TracingMode = 'off' | 'otlp';

/** What the worker needs to export workflow spans (sinks) and to pick the bundle with the tracing interceptor. */
export interface Tracing {
  readonly serviceName: string;
  readonly resource: Resource;
  /** The redacting processor every span (Node or workflow sink) ends in. */
  readonly spanProcessor: SpanProcessor;
  readonly provider: BasicTracerProvider;
  /** Flushes pending spans and unregisters the provider. */
  shutdown(): Promise<void>;
}

/**
 * XBORDER_TRACING=otlp|off wins; unset, tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set; OTEL_SDK_DISABLED=true turns it off (the OTel convention).
 */
export function tracingModeFromEnv(env: Environment): TracingMode {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return 'off';
  const explicit = env.XBORDER_TRACING?.trim().toLowerCase();
  if (explicit) {
    if (explicit === 'otlp' || explicit === 'off') return explicit;
    throw new Error(`XBORDER_TRACING must be "otlp" or "off", not "${env.XBORDER_TRACING}"`);
  }
  return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : 'off';
}

/** Tracing as the process's entry read it from the environment. */
export interface TracingConfig {
  mode: TracingMode;
  /** OTEL_SERVICE_NAME: overrides the process's own service name (the OTel convention). */
  serviceName?: string;
}

/** tracingModeFromEnv and OTEL_SERVICE_NAME. The exporter reads its OTEL_EXPORTER_OTLP_* variables itself. */
export function tracingConfigFromEnv(env: Environment): TracingConfig {
  const serviceName = env.OTEL_SERVICE_NAME?.trim();
  return { mode: tracingModeFromEnv(env), ...(serviceName ? { serviceName } : {}) };
}

let installed: Tracing | null = null;

/** The OTLP exporter's package version this code is pinned to (an optional peer dependency, as @temporalio/worker). */
export const OTLP_EXPORTER_PACKAGE = '@opentelemetry/exporter-trace-otlp-http@0.57.2';

/**
 * The OTLP/HTTP exporter, loaded only when tracing is on: its package and what it pulls in (~22 MB) are an optional
 * peer dependency, so a client-only install does without them (the images and the Lambda worker install it).
 */
function otlpExporter(): SpanExporter {
  let loaded: typeof OtlpHttp;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  } catch (error) {
    throw new Error(
      `Tracing by OTLP needs ${OTLP_EXPORTER_PACKAGE}: npm install ${OTLP_EXPORTER_PACKAGE} (${String(error)})`,
    );
  }
  return new loaded.OTLPTraceExporter();
}

/** The tracing this process installed, or null (tracing off). */
export function currentTracing(): Tracing | null {
  return installed;
}

/**
 * Installs tracing once per process: a global tracer provider (so the SDK's interceptors and our own spans find
 * it), the W3C trace-context propagator (traceparent on provider calls) and an AsyncLocalStorage context manager
 * (the active span follows awaits). `spanProcessor` is for tests (an in-memory exporter); the default exports by
 * OTLP/HTTP configured by the standard OTEL_EXPORTER_OTLP_* variables. A second call returns the first.
 */
export function installTracing(options: { serviceName: string; spanProcessor?: SpanProcessor }): Tracing {
  if (installed) return installed;
  const resource = new Resource({ 'service.name': options.serviceName });
  const spanProcessor = new RedactingSpanProcessor(
    options.spanProcessor ?? new BatchSpanProcessor(otlpExporter()),
  );
  const provider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  provider.register({
    contextManager,
    propagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
    }),
  });
  const tracing: Tracing = {
    serviceName: options.serviceName,
    resource,
    spanProcessor,
    provider,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      installed = null;
    },
  };
  installed = tracing;
  return tracing;
}

/**
 * installTracing when the configuration turns tracing on, named `serviceName` unless OTEL_SERVICE_NAME said
 * otherwise; when it is off, the tracing already installed (or null).
 */
export function installTracingFor(config: TracingConfig, serviceName: string): Tracing | null {
  return config.mode === 'off'
    ? installed
    : installTracing({ serviceName: config.serviceName ?? serviceName });
}

/** installTracingFor(tracingConfigFromEnv(env), serviceName): for tests and tools that hold an environment record. */
export function installTracingFromEnv(serviceName: string, env: Environment): Tracing | null {
  return installTracingFor(tracingConfigFromEnv(env), serviceName);
}

function redactValue(key: string, value: AttributeValue | undefined): AttributeValue | undefined {
  if (isSensitiveKey(key)) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'string' ? redactText(v) : v)) as AttributeValue;
  return value;
}

function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = redactValue(key, value);
  return out;
}

/**
 * The span as exporters see it: attributes, event attributes (exception messages and stacks), the status
 * message and the name go through the log redaction. A view over the span (its prototype chain keeps the
 * span's methods), the span itself is not changed.
 */
export function redactedSpan(span: ReadableSpan): ReadableSpan {
  const view = Object.create(span) as ReadableSpan;
  Object.defineProperties(view, {
    name: { value: redactText(span.name) },
    attributes: { value: redactAttributes(span.attributes) },
    events: {
      value: span.events.map((event) => ({
        ...event,
        name: redactText(event.name),
        ...(event.attributes ? { attributes: redactAttributes(event.attributes) } : {}),
      })),
    },
    status: {
      value: span.status.message ? { ...span.status, message: redactText(span.status.message) } : span.status,
    },
  });
  return view;
}

/** Passes every ended span on as redactedSpan: one net for the SDK's spans, ours and the workflow sink's. */
export class RedactingSpanProcessor implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }
  onEnd(span: ReadableSpan): void {
    this.next.onEnd(redactedSpan(span));
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}
