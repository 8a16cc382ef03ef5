// Ingress entrypoint: `xborder ingress` / `node dist/src/ingress/main.js`. Configured from the environment.
import { connectClient } from '../client/connect';
import { describeTemporalConfig } from '../client/connection-config';
import { ingressConfigFromEnv } from './config';
import { createWebhookHandler } from './handler';
import { startIngressServer } from './node-server';
import { createTemporalRouter } from './routing';

export async function runIngressFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = ingressConfigFromEnv(env);
  const client = await connectClient(config.temporal);
  const handler = createWebhookHandler({
    secrets: config.secrets,
    toleranceSec: config.toleranceSec,
    router: createTemporalRouter(client, config.taskQueue),
    onOutcome: (outcome, detail) =>
      console.log(JSON.stringify({ msg: 'webhook', outcome, eventId: detail.eventId, type: detail.type, detail: detail.message })),
  });
  const server = await startIngressServer({ handler, host: config.host, port: config.port, path: config.path });
  console.log(`ingress: listening on ${server.webhookUrl}, Temporal ${describeTemporalConfig(config.temporal)}`);
  const stop = async () => {
    await server.close();
    await client.connection.close();
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
