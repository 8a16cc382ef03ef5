// Worker entrypoint: `xborder worker` / `node dist/workers/main.js`. Configured from the environment
// (workers/config.ts); stops gracefully on SIGTERM/SIGINT (in-flight activities get the grace time).
import { describeTemporalConfig } from '../src/client/connection-config';
import { createProviderClient } from '../src/provider';
import { workerConfigFromEnv } from './config';
import { startXborderWorker } from './worker';

export async function runWorkerFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const config = workerConfigFromEnv(env);
  const provider = createProviderClient({
    baseUrl: config.provider.baseUrl,
    apiKey: config.provider.apiKey,
    timeoutMs: config.provider.timeoutMs,
  });
  console.log(`worker: Temporal ${describeTemporalConfig(config.temporal)}, task queue ${config.taskQueue}, provider ${config.provider.baseUrl}`);
  const running = await startXborderWorker({ ...config, provider });
  const stop = (signal: string) => {
    console.log(`worker: ${signal} received, draining`);
    void running.shutdown();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  await running.done;
  console.log('worker: stopped');
}

if (require.main === module) {
  runWorkerFromEnv().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
