// Traces of provider calls: a client span per HTTP call, and the W3C `traceparent` header on the
// request so the service could join the trace. Uses only @opentelemetry/api: without an installed tracer provider
// (tracing off, the default) the span is a no-op and no header is added.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { BeforeRequestHook } from 'got';

const tracer = () => trace.getTracer('xborder-provider');

/** got hook: the active context (the provider call's span) as `traceparent` (and `tracestate`) headers. */
export const injectTraceContext: BeforeRequestHook = (options) => {
  propagation.inject(context.active(), options.headers);
};

/**
 * Runs one provider call inside a CLIENT span named `provider <METHOD>`. The path is the service's (ids of
 * payments, customers, accounts: opaque provider ids, no query string); personal data never reaches a path.
 */
export function withProviderSpan<T>(method: string, path: string, call: () => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(
    `provider ${method}`,
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'url.path': path } },
    async (span) => {
      try {
        return await call();
      } catch (error) {
        const type = (error as { type?: unknown } | null)?.type;
        span.setStatus({ code: SpanStatusCode.ERROR, message: typeof type === 'string' ? type : 'error' });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** Adds what the call learned (status, request id, retries, error type) to the current provider span. */
export function noteOnProviderSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
