// Ingress entrypoint: `xborder ingress` / `node dist/src/ingress/main.js`. Configured from the environment.
import { connectClient } from '../client/connect';
import { describeTemporalConfig } from '../client/connection-config';
import { ingressConfigFromEnv } from './config';
import { createWebhookHandler } from './handler';
import { startIngressServer } from './node-server';
import { createTemporalRouter } from './routing';
import { ingressTelemetryFromEnv } from '../telemetry/ingress-telemetry';
import { installTracingFromEnv } from '../telemetry/tracing';

export async function runIngressFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = ingressConfigFromEnv(env);
  // issue 14: a span per webhook, by OTLP when XBORDER_TRACING=otlp or OTEL_EXPORTER_OTLP_ENDPOINT is set
  const tracing = installTracingFromEnv('xborder-ingress', env);
  const client = await connectClient(config.temporal);
  // telemetry (issue 6): webhook events by result at XBORDER_INGRESS_METRICS_ADDRESS, JSON log lines
  const telemetry = ingressTelemetryFromEnv(env);
  const metricsServer = await telemetry.startServer();
  if (metricsServer) console.log(`ingress: metrics at ${metricsServer.url}`);
  const handler = createWebhookHandler({
    secrets: config.secrets,
    toleranceSec: config.toleranceSec,
    router: createTemporalRouter(client, config.taskQueue),
    onOutcome: telemetry.onOutcome,
  });
  const server = await startIngressServer({
    handler,
    host: config.host,
    port: config.port,
    path: config.path,
    maxInFlight: config.maxInFlight,
    maxBufferedBytes: config.maxBufferedBytes,
    maxConnections: config.maxConnections,
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
  });
  console.log(`ingress: listening on ${server.webhookUrl}, Temporal ${describeTemporalConfig(config.temporal)}`);
  const stop = async () => {
    await server.close();
    await metricsServer?.close();
    await client.connection.close();
    await tracing?.shutdown();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

if (require.main === module) {
  runIngressFromEnv().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
