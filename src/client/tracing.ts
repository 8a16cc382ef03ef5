// The client's own spans: startPayment is the root of a payment's trace; the SDK's client
// interceptor (connectClient) adds the start/update spans under it. No-ops while no tracer provider is installed.
import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

export function withClientSpan<T>(name: string, call: () => Promise<T>): Promise<T> {
  return trace.getTracer('xborder-client').startActiveSpan(name, async (span) => {
    try {
      return await call();
    } catch (error) {
      // the error's type only: its message may quote the request
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Ids only (workflow ids carry no personal data: refusePersonalDataInKey). */
export function noteOnClientSpan(attributes: Attributes): void {
  trace.getActiveSpan()?.setAttributes(attributes);
}
