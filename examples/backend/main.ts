// Runs the example backend against a running stack (npm start):
//   XBORDER_EVENTS_SECRETS=whsec_... PORT=4100 npx tsx examples/backend/main.ts
// with the worker started with XBORDER_EVENTS_URL=http://127.0.0.1:4100/xborder-events and the same secrets.
import { connectClientFromEnv } from '../../src/client';
import { startBackend } from './backend';

async function main(): Promise<void> {
  const secrets = (process.env.XBORDER_EVENTS_SECRETS ?? '').split(',').filter(Boolean);
  if (secrets.length === 0)
    throw new Error("set XBORDER_EVENTS_SECRETS (the worker's, for its default endpoint)");
  const client = await connectClientFromEnv();
  const backend = await startBackend({
    client,
    taskQueue: process.env.XBORDER_TASK_QUEUE ?? 'xborder',
    secrets,
    port: Number(process.env.PORT ?? 4100),
  });
  console.log(`backend on ${backend.url}; events endpoint ${backend.eventsUrl}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err); // never a secret: only our own messages
  process.exit(1);
});
