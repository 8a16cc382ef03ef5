// Ingress entrypoint: `xborder ingress` / `node dist/src/ingress/main.js`. The entry reads the environment once
// (ingressConfigFromEnv); runIngress and everything below it take the typed config.
import { connectClient } from '../client/connect';
import { describeTemporalConfig } from '../client/connection-config';
import { dataConverterOf } from '../codec/data-converter';
import { ingressConfigFromEnv, type IngressConfig } from './config';
import { createWebhookHandler } from './handler';
import { startIngressServer } from './node-server';
import { createTemporalRouter } from './routing';
import { ingressTelemetryOf } from '../telemetry/ingress-telemetry';
import { installTracingFor } from '../telemetry/tracing';

export async function runIngress(config: IngressConfig): Promise<void> {
  // a span per webhook, by OTLP when XBORDER_TRACING=otlp or OTEL_EXPORTER_OTLP_ENDPOINT is set
  const tracing = installTracingFor(config.tracing, 'xborder-ingress');
  const client = await connectClient(config.temporal, dataConverterOf(config.codec));
  // telemetry: webhook events by result at XBORDER_INGRESS_METRICS_ADDRESS, JSON log lines
  const telemetry = ingressTelemetryOf(config.telemetry);
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
  console.log(
    `ingress: listening on ${server.webhookUrl}, Temporal ${describeTemporalConfig(config.temporal)}`,
  );
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
  Promise.resolve()
    .then(() => runIngress(ingressConfigFromEnv(process.env)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
