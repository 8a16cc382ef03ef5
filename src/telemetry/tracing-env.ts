// The variables tracing reads (src/telemetry/tracing.ts tracingModeFromEnv, tracingConfigFromEnv; the OTLP exporter
// reads its own OTEL_EXPORTER_OTLP_* besides), listed by every entry's --help. Kept apart from tracing.ts, which
// loads the OpenTelemetry SDK: --help loads nothing heavy.
export const TRACING_ENV_VARS = [
  'XBORDER_TRACING',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_SERVICE_NAME',
  'OTEL_SDK_DISABLED',
] as const;
