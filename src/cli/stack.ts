// The whole local stack in one process: Temporal dev server (started or reused), the sandbox with its
// webhooks pointed at the ingress, the ingress, and the worker. Used by `xborder dev` (npm start) and by
// the end-to-end tests, so both exercise the same wiring.
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { startCodecServer, type CodecServer } from '../codec/server';
import { connectClient } from '../client/connect';
import { QuoteRefreshConfigSchema, type QuoteRefreshConfig } from '../client/quote-refresh-config';
import { ensureSchedules } from '../client/schedules';
import { ensureReconcileSchedule } from '../client/reconcile-schedule';
import { ensureReportSchedule } from '../client/report-schedule';
import {
  describeFirstCurrent,
  makeCurrentIfNone,
  type FirstCurrentOutcome,
} from '../client/worker-deployments';
import {
  createWebhookHandler,
  createTemporalRouter,
  startIngressServer,
  type IngressServer,
  type WebhookHandler,
} from '../ingress';
import { createProviderClient, type ProviderClient } from '../provider';
import { startSandbox, type SandboxOptions } from '../sandbox';
import { startXborderWorker, type RunningXborderWorker } from '../../workers/worker';
import { DEFAULT_DEPLOYMENT_NAME } from '../../workers/config';
import type { EventDeliveryConfig } from '../../activities/event-delivery-activities';
import { ensureDevServer, type DevServer } from './dev-server';
import { ensureNexusEndpoint } from './nexus-endpoint';

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
  /** Where the worker writes the daily reconciliation report; with schedules on, its Schedule is created. Default none. */
  reports?: { dir: string };
  /** Start the worker (tests that kill and restart workers start their own). Default true. */
  worker?: boolean;
  /**
   * The worker's Worker Deployment Version (every worker is versioned; docs/deployment.md, "Safe deploys with
   * Worker Versioning"). Default deployment `xborder`, build id derived from the workflow bundle
   * (workers/build-id.ts), as `xborder worker`.
   */
  deployment?: { deploymentName: string; buildId?: string };
  /** Create or update the quote-refresh Schedule (ARCHITECTURE: refreshQuotes). Default true. */
  schedules?: boolean;
  log?: (line: string) => void;
  /** Payload encryption of the client and worker: the caller's, e.g. from XBORDER_CODEC_KEYS(_FILE). */
  dataConverter: DataConverter;
  /** The quote-refresh Schedule's settings (the caller's XBORDER_QUOTE_*); default the built-in ones. */
  quoteRefresh?: QuoteRefreshConfig;
  /**
   * Start the codec server (CORS for the dev server's UI). The UI is not given its endpoint: a person enters it in
   * the UI's Codec Server settings (docs/codec.md, "The Temporal UI"), so no settings answer holds the token.
   */
  codecServer?: { port?: number; token: string };
}

export interface LocalStack {
  temporal: DevServer;
  client: Client;
  sandbox: Awaited<ReturnType<typeof startSandbox>>;
  provider: ProviderClient;
  ingress: IngressServer;
  webhooks: WebhookHandler;
  worker: RunningXborderWorker | null;
  /** The worker's version and what the stack did about the deployment's Current Version; null without a worker. */
  deployment: FirstCurrentOutcome | null;
  codecServer: CodecServer | null;
  dataConverter: DataConverter;
  taskQueue: string;
  namespace: string;
  webhookSecret: string;
  apiKey: string;
  close(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const log = options.log ?? (() => undefined);
  const namespace = options.namespace ?? 'default';
  const taskQueue = options.taskQueue ?? 'xborder';
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString('base64')}`;
  // Generated per run unless given: no secret published in the repository runs (src/security/known-secrets.ts).
  const apiKey = options.apiKey ?? `sk_${randomBytes(16).toString('hex')}`;
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse())
      await closer().catch((error: unknown) => log(`shutdown: ${String(error)}`));
  };
  try {
    const { dataConverter } = options;
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
    });
    closers.push(() => temporal.stop());
    // the `xborder` Nexus service (src/nexus), served by the worker on this task queue
    await ensureNexusEndpoint(temporal.address, { namespace, taskQueue }, log);
    const client = await connectClient({ address: temporal.address, namespace }, dataConverter);
    closers.push(() => client.connection.close());

    const { webhooks, ingress } = await startStackIngress(client, { taskQueue, webhookSecret, options, log });
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
    const { worker, deployment } =
      options.worker !== false
        ? await startStackWorker(options, {
            address: temporal.address,
            client,
            provider,
            namespace,
            taskQueue,
            closers,
            log,
          })
        : { worker: null, deployment: null };
    if (options.schedules !== false) await ensureStackSchedules(client, options, taskQueue, log);
    log(
      `stack up: Temporal ${temporal.address} (UI ${temporal.uiUrl}), sandbox ${sandbox.url}, ingress ${ingress.webhookUrl}`,
    );
    return {
      temporal,
      client,
      sandbox,
      provider,
      ingress,
      webhooks,
      worker,
      deployment,
      codecServer,
      dataConverter,
      taskQueue,
      namespace,
      webhookSecret,
      apiKey,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The ingress of the stack's webhooks, signalling the workflows on this task queue through `client`. */
async function startStackIngress(
  client: Client,
  stack: {
    taskQueue: string;
    webhookSecret: string;
    options: LocalStackOptions;
    log: (line: string) => void;
  },
): Promise<{ webhooks: WebhookHandler; ingress: IngressServer }> {
  const { log } = stack;
  const webhooks = createWebhookHandler({
    secrets: [stack.webhookSecret],
    router: createTemporalRouter(client, stack.taskQueue),
    onOutcome: (outcome, detail) =>
      log(
        `webhook ${outcome}: ${detail.type ?? ''} ${detail.eventId ?? ''} ${outcome === 'accepted' ? '' : detail.message}`,
      ),
  });
  const ingress = await startIngressServer({ handler: webhooks, port: stack.options.ingressPort ?? 0 });
  return { webhooks, ingress };
}

/**
 * The stack's worker (versioned, as every worker), made current when its deployment has no current build. Its
 * shutdown joins `closers` as soon as it runs.
 */
async function startStackWorker(
  options: LocalStackOptions,
  stack: {
    address: string;
    client: Client;
    provider: ProviderClient;
    namespace: string;
    taskQueue: string;
    closers: Array<() => Promise<void>>;
    log: (line: string) => void;
  },
): Promise<{ worker: RunningXborderWorker; deployment: FirstCurrentOutcome }> {
  const { client, log } = stack;
  const declared = options.deployment ?? { deploymentName: DEFAULT_DEPLOYMENT_NAME };
  const worker = await startXborderWorker({
    temporal: { address: stack.address, namespace: stack.namespace },
    taskQueue: stack.taskQueue,
    provider: stack.provider,
    dataConverter: options.dataConverter,
    deployment: { version: declared, defaultVersioningBehavior: 'AUTO_UPGRADE' },
    ...(options.events ? { events: options.events } : {}),
    ...(options.reports ? { reports: options.reports } : {}),
  });
  // A fatal worker error is reported, not an unhandled rejection that kills the whole stack silently.
  worker.done.catch((error: unknown) => log(`worker stopped with an error: ${String(error)}`));
  stack.closers.push(() => worker.shutdown().catch(() => undefined));
  // A versioned worker gets tasks once its build is current: the first build of the deployment makes itself
  // current; another build already current is left as it is (and said so), as `xborder worker` does.
  const version = worker.version!; // versioned: its build id derived from the bundle unless the caller named one
  const deployment = await makeCurrentIfNone(client, version, {
    identity: `xborder stack (${client.options.identity})`,
  });
  log(describeFirstCurrent(deployment));
  return { worker, deployment };
}

/** The quote-refresh, reconcile and (with reports) report Schedules, created or updated. */
async function ensureStackSchedules(
  client: Client,
  options: LocalStackOptions,
  taskQueue: string,
  log: (line: string) => void,
): Promise<void> {
  const schedule = await ensureSchedules(client, {
    ...(options.quoteRefresh ?? QuoteRefreshConfigSchema.parse({ taskQueue })),
    taskQueue,
  });
  log(`schedule ${schedule.scheduleId} ${schedule.created ? 'created' : 'updated'}`);
  // PAYINs whose webhooks were lost still reach their entities (as workers/main.ts does)
  const reconcile = await ensureReconcileSchedule(client, { taskQueue });
  log(
    `schedule ${reconcile.scheduleId} ${reconcile.created ? 'created' : 'updated'}${reconcile.instead ? ` (${reconcile.instead})` : ''}`,
  );
  if (options.reports) {
    const report = await ensureReportSchedule(client, { taskQueue });
    log(
      `schedule ${report.scheduleId} ${report.created ? 'created' : 'updated'} (reports in ${options.reports.dir})`,
    );
  }
}
