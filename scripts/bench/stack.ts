// The bench's stack: Temporal dev server, sandbox and ingress in this process on free loopback ports
// (src/cli/stack.ts, as `npm start` and the e2e tests), without its worker: each scenario starts its own
// worker process (worker-handle.ts) with a prebuilt bundle on its own task queue. The sandbox's webhooks go to
// the bench's own ingress, whose router follows the task queue of the payment worker running now (an event
// that starts an entity must start it where that worker polls).
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/cli/port-check';
import { startLocalStack, type LocalStack } from '../../src/cli/stack';
import { dataConverterFromEnv } from '../../src/codec/data-converter';
import {
  createTemporalRouter,
  createWebhookHandler,
  startIngressServer,
  type WebhookHandler,
} from '../../src/ingress';
import { startTemporalCluster, type TemporalCluster } from '../../test/cluster/temporal-cluster';
import type { PostgresAccess } from './persistence-profile';

export interface BenchStack extends LocalStack {
  dir: string;
  /** Where webhook events start entity workflows from now on (the payment worker's task queue). */
  setWebhookTaskQueue(taskQueue: string): void;
  /** `--engine postgres`: the server's PostgreSQL, whose statistics give P1's persistence profile (persistence-profile.ts) */
  postgres: PostgresAccess | null;
}

/**
 * `engine` dev: the CLI's dev server on SQLite, started by the stack. postgres: the Temporal server on PostgreSQL
 * as temporal-docker runs it (test/cluster/temporal-cluster.ts), which the stack then reuses.
 */
export async function startBenchStack(
  log: (line: string) => void,
  engine: 'dev' | 'postgres' = 'dev',
): Promise<BenchStack> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-bench-'));
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  let webhookTaskQueue = 'bench-no-payment-worker-yet';
  let handler: WebhookHandler | null = null;
  // Up before the stack (the sandbox needs its URL), answering 503 (retried by the sandbox) until the client exists.
  const counters = { accepted: 0, duplicate: 0, rejected: 0, ignored: 0, failed: 0 };
  const ingress = await startIngressServer({
    host: '127.0.0.1',
    port: 0,
    handler: Object.assign(
      async (headers: Parameters<WebhookHandler>[0], body: Parameters<WebhookHandler>[1]) =>
        handler
          ? handler(headers, body)
          : { status: 503, body: { ok: false, code: 'NOT_READY', message: 'bench stack starting' } },
      {
        counters,
        checkHeaders: (headers: Parameters<WebhookHandler>[0]) => handler?.checkHeaders(headers) ?? null,
        notRead: (status: 408 | 413 | 503, code: string, message: string) => ({
          status,
          body: { ok: false, code, message },
        }),
      },
    ),
  });
  let cluster: TemporalCluster | null = null;
  try {
    if (engine === 'postgres') {
      log('starting PostgreSQL and the Temporal server (temporal-docker, without Docker)');
      cluster = await startTemporalCluster(); // its setup scripts' output would bury the progress line
      log(`Temporal ${cluster.version} on PostgreSQL at ${cluster.address}`);
    }
    const stack = await startLocalStack({
      temporalPort: cluster?.port ?? (await freePort()),
      temporalUiPort: await freePort(),
      temporalDbFile: path.join(dir, 'temporal.db'),
      taskQueue: 'bench-unused', // every scenario has its own task queue and worker
      worker: false,
      schedules: false,
      dataConverter: dataConverterFromEnv(process.env),
      webhookSecret,
      sandboxWebhookUrls: [ingress.webhookUrl],
      log: (line) => {
        if (!line.startsWith('webhook ')) log(line); // one line per webhook would bury the progress line
      },
      sandbox: {
        log: null,
        demoData: true,
        // parked payments must not see their quote expire during the run; the steps after funding are short
        quoteValidityMs: 6 * 60 * 60_000,
        stepDelaysMs: { toProcessing: 100, toSent: 100, toCompleted: 100 },
        customerReviewDelayMs: 100,
        // Short first retries, then minutes apart as a provider does (the sandbox's default goes on for hours):
        // a delivery the dev server refused under a 10,000-payment funding burst is tried again after the burst,
        // rather than given up after 31 s and left to the entity's hourly read (P2 at 10,000).
        webhookRetryScheduleMs: [500, 1000, 2000, 4000, 8000, 16000, 60_000, 300_000, 900_000],
        rateLimit: false,
      },
    });
    handler = createWebhookHandler({
      secrets: [webhookSecret],
      router: { route: (event) => createTemporalRouter(stack.client, webhookTaskQueue).route(event) },
      onOutcome: (outcome, detail) => {
        if (outcome === 'failed' || outcome === 'rejected')
          log(`webhook ${outcome}: ${detail.type ?? ''} ${detail.message}`);
      },
    });
    return {
      ...stack,
      dir,
      setWebhookTaskQueue: (taskQueue) => void (webhookTaskQueue = taskQueue),
      postgres: cluster
        ? {
            host: cluster.postgres.host,
            port: cluster.postgres.port,
            user: cluster.postgres.user,
            password: cluster.postgres.password,
          }
        : null,
      close: async () => {
        await stack.close();
        await ingress.close();
        await cluster?.stop();
      },
    };
  } catch (error) {
    await ingress.close();
    await cluster?.stop();
    throw error;
  }
}
