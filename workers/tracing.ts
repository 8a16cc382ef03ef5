// The worker's side of tracing: activity interceptors (a span per activity, child of the workflow's
// "schedule activity" span, active while the activity calls the provider) and the sink through which the
// workflow interceptors, running in the workflow sandbox, hand their spans to the process's exporter.
import {
  makeWorkflowExporter,
  type OpenTelemetrySinks,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { Tracing } from '../src/telemetry/tracing';

export interface TracingWorkerOptions {
  activityInterceptors: ActivityInterceptorsFactory[];
  sinks?: InjectedSinks<OpenTelemetrySinks>;
}

export function tracingWorkerOptions(tracing: Tracing | null): TracingWorkerOptions {
  if (!tracing) return { activityInterceptors: [] };
  return {
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
