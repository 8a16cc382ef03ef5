// The whole local stack in one process: Temporal dev server (started or reused), the sandbox with its
// webhooks pointed at the ingress, the ingress, and the worker. Used by `xborder dev` (npm start) and by
// the end-to-end tests, so both exercise the same wiring.
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { dataConverterFromEnv } from '../codec/data-converter';
import { startCodecServer, type CodecServer } from '../codec/server';
import { connectClient } from '../client/connect';
import { quoteRefreshConfigFromEnv } from '../client/quote-refresh-config';
import { ensureSchedules } from '../client/schedules';
import { ensureReconcileSchedule } from '../client/reconcile-schedule';
import { createWebhookHandler, createTemporalRouter, startIngressServer, type IngressServer, type WebhookHandler } from '../ingress';
import { createProviderClient, type ProviderClient } from '../provider';
import { startSandbox, type SandboxOptions } from '../sandbox';
import { startXborderWorker, type RunningWorker } from '../../workers/worker';
import type { EventDeliveryConfig } from '../../activities/event-delivery-activities';
import { ensureDevServer, type DevServer } from './dev-server';

export interface LocalStackOptions {
  temporalPort?: number;
  temporalUiPort?: number;
  temporalDbFile?: string;
  sandboxPort?: number;
  ingressPort?: number;
  taskQueue?: string;
  namespace?: string;
  /** Sandbox options merged over the stack's (webhook URL, secret and API key are set by the stack). */
  sandbox?: Omit<SandboxOptions, 'port' | 'webhookUrls' | 'webhookSecret' | 'apiKeys'>;
  /** Token of the sandbox's control routes; default generated per run (stack.sandbox.controlToken). */
  sandboxControlToken?: string;
  webhookSecret?: string;
  /** Where the sandbox sends webhooks; default the stack's ingress. Tests point it elsewhere to drop them. */
  sandboxWebhookUrls?: string[];
  apiKey?: string;
  /** outbound events' endpoints of the worker (docs/outbound-events.md); default from the environment */
  events?: EventDeliveryConfig;
  /** Start the worker (tests that kill and restart workers start their own). Default true. */
  worker?: boolean;
  /** Create or update the quote-refresh Schedule (ARCHITECTURE: refreshQuotes). Default true. */
  schedules?: boolean;
  log?: (line: string) => void;
  /** Payload encryption of the client and worker (issue 13); default from XBORDER_CODEC_KEYS(_FILE). */
  dataConverter?: DataConverter;
  /** Start the codec server (before the dev server, whose UI is pointed at it). */
  codecServer?: { port?: number; token: string };
}

export interface LocalStack {
  temporal: DevServer;
  client: Client;
  sandbox: Awaited<ReturnType<typeof startSandbox>>;
  provider: ProviderClient;
  ingress: IngressServer;
  webhooks: WebhookHandler;
  worker: RunningWorker | null;
  codecServer: CodecServer | null;
  dataConverter: DataConverter;
  taskQueue: string;
  namespace: string;
  webhookSecret: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const namespace = options.namespace ?? 'default';
  const taskQueue = options.taskQueue ?? 'xborder';
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64')}`;
  // Generated per run unless given: no secret published in the repository runs (src/security/known-secrets.ts).
  const apiKey = options.apiKey ?? `sk_${randomBytes(16).toString('hex')}`;
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch((error: unknown) => log(`shutdown: ${String(error)}`));
  };
  try {
    const dataConverter = options.dataConverter ?? dataConverterFromEnv();
    const temporalPort = options.temporalPort ?? 7233;
    const uiPort = options.temporalUiPort ?? temporalPort + 1000;
    let codecServer: CodecServer | null = null;
    if (options.codecServer) {
      codecServer = await startCodecServer({
        codecs: dataConverter.payloadCodecs ?? [],
        tokens: [options.codecServer.token],
        // the dev server's UI, by both names a browser may use for it
        allowedOrigins: [`http://127.0.0.1:${uiPort}`, `http://localhost:${uiPort}`],
        port: options.codecServer.port ?? 0,
      });
      closers.push(() => codecServer!.close());
    }
    const temporal = await ensureDevServer({
      port: temporalPort,
      uiPort,
      dbFile: options.temporalDbFile,
      namespace,
      log,
      ...(codecServer ? { uiCodecEndpoint: codecServer.uiEndpoint(options.codecServer!.token) } : {}),
    });
    closers.push(() => temporal.stop());
    const client = await connectClient({ address: temporal.address, namespace }, dataConverter);
    closers.push(() => client.connection.close());

    const webhooks = createWebhookHandler({
      secrets: [webhookSecret],
      router: createTemporalRouter(client, taskQueue),
      onOutcome: (outcome, detail) => log(`webhook ${outcome}: ${detail.type ?? ''} ${detail.eventId ?? ''} ${outcome === 'accepted' ? '' : detail.message}`),
    });
    const ingress = await startIngressServer({ handler: webhooks, port: options.ingressPort ?? 0 });
    closers.push(() => ingress.close());

    const sandbox = await startSandbox({
      log: null,
      ...options.sandbox,
      port: options.sandboxPort ?? 0,
      apiKeys: [{ key: apiKey }],
      webhookUrls: options.sandboxWebhookUrls ?? [ingress.webhookUrl],
      webhookSecret,
      ...(options.sandboxControlToken ? { controlToken: options.sandboxControlToken } : {}),
    });
    closers.push(() => sandbox.close());

    const provider = createProviderClient({ baseUrl: sandbox.url, apiKey, asOf: () => sandbox.clock.now() });
    let worker: RunningWorker | null = null;
    if (options.worker !== false) {
      worker = await startXborderWorker({ temporal: { address: temporal.address, namespace }, taskQueue, provider, dataConverter, ...(options.events ? { events: options.events } : {}) });
      // A fatal worker error is reported, not an unhandled rejection that kills the whole stack silently.
      worker.done.catch((error: unknown) => log(`worker stopped with an error: ${String(error)}`));
      closers.push(() => worker!.shutdown().catch(() => undefined));
    }
    if (options.schedules !== false) {
      const schedule = await ensureSchedules(client, { ...quoteRefreshConfigFromEnv(), taskQueue });
      log(`schedule ${schedule.scheduleId} ${schedule.created ? 'created' : 'updated'}`);
      // issue 9, point 9: PAYINs whose webhooks were lost reach their entities (as workers/main.ts does)
      const reconcile = await ensureReconcileSchedule(client, { taskQueue });
      log(`schedule ${reconcile.scheduleId} ${reconcile.created ? 'created' : 'updated'}`);
    }
    log(`stack up: Temporal ${temporal.address} (UI ${temporal.uiUrl}), sandbox ${sandbox.url}, ingress ${ingress.webhookUrl}`);
    return { temporal, client, sandbox, provider, ingress, webhooks, worker, codecServer, dataConverter, taskQueue, namespace, webhookSecret, apiKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}
