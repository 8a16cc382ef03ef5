// `xborder dev` (npm start): the whole local stack on embedded defaults, then one demo transfer end to
// end (onboard → register → pay → fund through the sandbox → COMPLETED), then serve until Ctrl-C.
// Everything persists under .data/ (Temporal's SQLite, the sandbox's state, the secrets: webhook secret, payload
// keys, codec-server token, sandbox API key and control token, the outbound events' signing secret, each generated
// once, mode 0600), so a second `npm start` reuses what is there. No secret is printed: the log names the files.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  checkPrivateFile,
  ensurePrivateDir,
  PrivatePathError,
  writePrivateFile,
} from '../support/private-files';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Runtime } from '@temporalio/worker';
import { redactingConsoleLogger } from '../telemetry/console-logger';
import { temporalUiLink } from '../client/stuck';
import {
  codecDataConverter,
  codecKeysFromEnv,
  dataConverterFromEnv,
  generateCodecKeys,
  staticKeyProvider,
  parseCodecKeys,
} from '../codec';
import { DEFAULT_CODEC_SERVER_PORT } from '../codec/server';
import { runDemoTransfer } from './demo';
import { type LocalStack, startLocalStack } from './stack';
import { installTracingFor, tracingConfigFromEnv } from '../telemetry/tracing';
import { quoteRefreshConfigFromEnv } from '../client/quote-refresh-config';
import { eventsConfigFromEnv } from '../../workers/events-config';
import type { EventDeliveryConfig } from '../../activities/event-delivery-activities';
import type { Environment } from '../support/environment';
import { XBORDER_NEXUS_ENDPOINT, XBORDER_NEXUS_SERVICE } from '../nexus/service';
import { EXIT, UsageError } from './exit-codes';
import { portTaken, portTakenMessage } from './port-check';
import { DEFAULT_EVENTS_PORT, startDevEventReceiver, type DevEventReceiver } from './dev-events';
import { DEV_USAGE } from './dev-usage';
import { devLogLine } from './dev-log-line';

const USAGE = DEV_USAGE;

/** A secret of the local stack's data directory: read when it exists (ours, narrowed to 0600), else generated 0600. */
export function loadOrCreateSecret(
  file: string,
  make = () => `whsec_${randomBytes(24).toString('base64')}`,
): string {
  if (existsSync(file)) {
    checkPrivateFile(file); // ours, 0600 (an older xborder or a copied .data/ may have left it wider)
    return readFileSync(file, 'utf8').trim();
  }
  const secret = make();
  writePrivateFile(file, `${secret}\n`);
  return secret;
}

/**
 * The payload keys of the local stack. XBORDER_CODEC_KEYS(_FILE) when set (or XBORDER_CODEC=disabled);
 * else a key generated once into <data-dir>/codec-keys.json, like the webhook secret: a fresh clone encrypts from
 * its first payload, and the keys stay with the .data/ whose history they decrypt.
 */
function devDataConverter(dataDir: string, env: Environment) {
  const fromEnv = codecKeysFromEnv(env).kind;
  if (fromEnv !== 'missing')
    return {
      dataConverter: dataConverterFromEnv(env),
      source: fromEnv === 'disabled' ? 'disabled' : 'the environment',
    };
  const file = path.join(dataDir, 'codec-keys.json');
  const text = loadOrCreateSecret(file, () => JSON.stringify(generateCodecKeys(), null, 2));
  return { dataConverter: codecDataConverter(staticKeyProvider(parseCodecKeys(text, file))), source: file };
}

/** The environment lines another shell copies to reach this stack (names of files, never a key). */
export function copyLines(address: string, uiUrl: string, keysSource: string): string[] {
  const keys =
    keysSource === 'the environment'
      ? '# XBORDER_CODEC_KEYS / XBORDER_CODEC_KEYS_FILE: the same as in this shell'
      : keysSource === 'disabled'
        ? 'export XBORDER_CODEC=disabled'
        : `export XBORDER_CODEC_KEYS_FILE=${keysSource}`;
  return [`export TEMPORAL_ADDRESS=${address}`, keys, `export TEMPORAL_UI_URL=${uiUrl}`];
}

function parseDevArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        'data-dir': { type: 'string' },
        'temporal-port': { type: 'string' },
        'ui-port': { type: 'string' },
        'sandbox-port': { type: 'string' },
        'ingress-port': { type: 'string' },
        'codec-port': { type: 'string' },
        'events-port': { type: 'string' },
        'no-demo': { type: 'boolean' },
        once: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message, USAGE);
  }
}

type DevValues = ReturnType<typeof parseDevArgs>['values'];

interface DevPorts {
  temporal: number;
  ui: number;
  sandbox: number;
  ingress: number;
  codec: number;
  events: number;
}

function devPorts(values: DevValues): DevPorts {
  const port = (name: string, fallback: number) => {
    const raw = values[name as 'temporal-port'];
    const n = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(n) || n <= 0 || n > 65535)
      throw new UsageError(`--${name} must be a port number, got ${raw}`, USAGE);
    return n;
  };
  const temporal = port('temporal-port', 7233);
  return {
    temporal,
    ui: port('ui-port', temporal + 1000),
    sandbox: port('sandbox-port', 4010),
    ingress: port('ingress-port', 4020),
    codec: port('codec-port', DEFAULT_CODEC_SERVER_PORT),
    events: port('events-port', DEFAULT_EVENTS_PORT),
  };
}

/**
 * A taken port is named with the flag that changes it, before anything starts (not an EADDRINUSE stack trace).
 * A Temporal server already on --temporal-port is reused (then its UI port is its own business).
 */
async function checkPortsFree(
  ports: DevPorts,
  env: Environment,
  eventsFromEnv: EventDeliveryConfig,
): Promise<void> {
  const wanted: Array<[number, string, string]> = [
    [ports.sandbox, 'sandbox', '--sandbox-port'],
    [ports.ingress, 'webhook ingress', '--ingress-port'],
  ];
  if (!(await portTaken('127.0.0.1', ports.temporal))) wanted.push([ports.ui, 'Temporal UI', '--ui-port']);
  // the codec server runs whenever payloads are encrypted (always, unless XBORDER_CODEC=disabled)
  if (codecKeysFromEnv(env).kind !== 'disabled') wanted.push([ports.codec, 'codec server', '--codec-port']);
  if (!eventsFromEnv.defaultEndpoint) wanted.push([ports.events, 'event receiver', '--events-port']);
  for (const [p, what, flag] of wanted) {
    if (await portTaken('127.0.0.1', p)) throw new UsageError(portTakenMessage(p, what, flag));
  }
}

/** Keys, tokens, the sandbox's state (personal data) and Temporal's database: a directory only this user reads. */
function openDataDir(dataDir: string): void {
  try {
    ensurePrivateDir(dataDir);
  } catch (error) {
    if (error instanceof PrivatePathError) throw new UsageError(error.message);
    throw error;
  }
}

/** The files of the data directory whose names the log shows (never their content). */
function devFiles(dataDir: string) {
  return {
    sandboxApiKey: path.join(dataDir, 'sandbox-api-key'),
    sandboxControlToken: path.join(dataDir, 'sandbox-control-token'),
    eventsSecret: path.join(dataDir, 'events-secret'),
    codecServerToken: path.join(dataDir, 'codec-server-token'),
  };
}

interface DevStack {
  stack: LocalStack;
  eventReceiver: DevEventReceiver | null;
  /** where the payload keys come from: a file, 'the environment' or 'disabled' */
  codecSource: string;
}

/** The local stack on the data directory's secrets, with the stack's own event receiver when no endpoint is set. */
async function startDevStack(dev: {
  dataDir: string;
  ports: DevPorts;
  env: Environment;
  eventsFromEnv: EventDeliveryConfig;
  log: (line: string) => void;
}): Promise<DevStack> {
  const { dataDir, ports, eventsFromEnv, log } = dev;
  const files = devFiles(dataDir);
  const codec = devDataConverter(dataDir, dev.env);
  const codecToken = loadOrCreateSecret(files.codecServerToken, () => randomBytes(24).toString('base64url'));
  log(
    codec.dataConverter.payloadCodecs
      ? `payloads encrypted (keys from ${codec.source})`
      : 'payloads NOT encrypted (XBORDER_CODEC=disabled)',
  );
  let eventReceiver: DevEventReceiver | null = null;
  if (!eventsFromEnv.defaultEndpoint) {
    eventReceiver = await startDevEventReceiver({
      port: ports.events,
      secret: loadOrCreateSecret(files.eventsSecret),
      log,
    });
  }
  const stack = await startLocalStack({
    temporalPort: ports.temporal,
    temporalUiPort: ports.ui,
    temporalDbFile: path.join(dataDir, 'temporal.db'),
    sandboxPort: ports.sandbox,
    ingressPort: ports.ingress,
    webhookSecret: loadOrCreateSecret(path.join(dataDir, 'webhook-secret')),
    apiKey: loadOrCreateSecret(files.sandboxApiKey, () => `sk_${randomBytes(16).toString('hex')}`),
    sandboxControlToken: loadOrCreateSecret(files.sandboxControlToken, () =>
      randomBytes(24).toString('base64url'),
    ),
    dataConverter: codec.dataConverter,
    quoteRefresh: quoteRefreshConfigFromEnv(dev.env),
    events: eventReceiver
      ? { ...eventsFromEnv, defaultEndpoint: eventReceiver.config.defaultEndpoint }
      : eventsFromEnv,
    reports: { dir: path.join(dataDir, 'reports') },
    ...(codec.dataConverter.payloadCodecs ? { codecServer: { port: ports.codec, token: codecToken } } : {}),
    sandbox: { dataFile: path.join(dataDir, 'sandbox.json'), demoData: true },
    log: (line) => {
      // Accepted and ignored (account.created) webhooks are routine; refusals and failures are shown.
      if (!line.startsWith('webhook accepted') && !line.startsWith('webhook ignored')) log(line);
    },
  }).catch(async (error: unknown) => {
    await eventReceiver?.close();
    throw error;
  });
  return { stack, eventReceiver, codecSource: codec.source };
}

/** Where each part of the running stack is, and what another shell copies to reach it. */
function logStack(
  log: (line: string) => void,
  dev: DevStack,
  dataDir: string,
  eventsFromEnv: EventDeliveryConfig,
): void {
  const { stack, eventReceiver } = dev;
  const files = devFiles(dataDir);
  log(`Temporal UI       ${stack.temporal.uiUrl}`);
  // absolute: the `$(cat …)` lines work pasted into any shell, in any directory
  log(
    `sandbox API       ${stack.sandbox.url}/v1  (X-Api-Key: $(cat ${files.sandboxApiKey}); OpenAPI at /openapi.json)`,
  );
  log(
    `sandbox controls  ${stack.sandbox.url}/sandbox/...  (X-Sandbox-Control-Token: $(cat ${files.sandboxControlToken}))`,
  );
  log(`webhook ingress   ${stack.ingress.webhookUrl}`);
  log(
    eventReceiver
      ? `outbound events   ${eventReceiver.url}  (payments started with events: {} deliver here; each event is logged below; signing secret in ${path.resolve(files.eventsSecret)}; your own endpoint: XBORDER_EVENTS_URL, XBORDER_EVENTS_SECRETS)`
      : `outbound events   ${eventsFromEnv.defaultEndpoint!.url}  (XBORDER_EVENTS_URL: payments started with events: {} deliver there)`,
  );
  const d = stack.deployment;
  // every worker is versioned: which build this is, and whether it is the one new workflows go to
  log(
    `worker            task queue ${stack.taskQueue}` +
      (d
        ? `, Worker Deployment ${d.deploymentName}, build ${d.buildId} (${d.action === 'other-current' ? `NOT current: ${d.currentBuildId} is` : 'current'})`
        : ''),
  );
  if (d?.action === 'other-current') {
    log(
      `the demo's workflows go to build ${d.currentBuildId}; to run them here: xborder deploy set-current ${d.buildId}`,
    );
  }
  log(
    `Nexus endpoint    ${XBORDER_NEXUS_ENDPOINT} → service ${XBORDER_NEXUS_SERVICE} on ${stack.namespace}/${stack.taskQueue} (docs/backend.md, "Nexus")`,
  );
  // What another shell needs for the CLI and connectClient(): copied as is, the CLI finds this stack.
  log('for the CLI / connectClient() in another shell:');
  for (const line of copyLines(stack.temporal.address, stack.temporal.uiUrl, dev.codecSource))
    console.log(`  ${line}`);
  if (stack.codecServer) {
    const tokenFile = files.codecServerToken;
    log(
      `codec server      ${stack.codecServer.url}  (CLI: --codec-endpoint ${stack.codecServer.url} --codec-auth "Bearer $(cat ${tokenFile})")`,
    );
    // The token is never printed nor handed to the UI server (whose settings answer anyone): the person pastes it.
    log(
      `  decoded payloads in the UI: Settings > Codec Server, "Use my browser setting", endpoint ${stack.codecServer.url}/<token of ${tokenFile}> (docs/codec.md)`,
    );
  }
}

export async function runDev(args: string[], env: Environment): Promise<number> {
  const { values } = parseDevArgs(args);
  if (values.help) {
    console.log(USAGE);
    return EXIT.OK;
  }
  const ports = devPorts(values);
  // outbound events: the developer's endpoint (XBORDER_EVENTS_*), else the stack's own receiver (src/cli/dev-events.ts)
  const eventsFromEnv = eventsConfigFromEnv(env);
  const dataDir = path.resolve(values['data-dir'] ?? '.data');
  await checkPortsFree(ports, env, eventsFromEnv);
  openDataDir(dataDir);
  const started = Date.now();
  const log = (line: string) =>
    console.log(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)}s] ${line}`);

  // The worker's own state changes are noise here; warnings and errors still show.
  // redacted: the SDK's activity warnings carry the task token (src/telemetry/console-logger.ts)
  // one line per expected warning (dev-log-line.ts)
  Runtime.install({ logger: redactingConsoleLogger('WARN', undefined, devLogLine) });
  log(`starting the local stack (state in ${dataDir})`);
  // XBORDER_TRACING=otlp (or OTEL_EXPORTER_OTLP_ENDPOINT) traces the whole stack, one service name
  const tracing = installTracingFor(tracingConfigFromEnv(env), 'xborder-dev');
  if (tracing)
    log(
      'tracing on: spans go to the OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318)',
    );
  const dev = await startDevStack({ dataDir, ports, env, eventsFromEnv, log });
  const { stack, eventReceiver } = dev;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log('stopping: worker, sandbox, ingress, Temporal dev server');
    await stack.close();
    await eventReceiver?.close();
    await tracing?.shutdown();
    log('stopped');
  };
  // Ctrl-C at any moment (also during the demo) shuts everything down cleanly.
  let interrupted: () => void = () => undefined;
  const interruptedPromise = new Promise<void>((resolve) => (interrupted = resolve));
  const onSignal = () => {
    interrupted();
    void stop().then(() => process.exit(0));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    logStack(log, dev, dataDir, eventsFromEnv);
    let demoOk = true;
    if (!values['no-demo']) {
      const { outcome } = await runDemoTransfer(stack, {
        log,
        uiLink: (workflowId) => temporalUiLink(stack.temporal.uiUrl, stack.namespace, workflowId),
        events: true, // to the stack's receiver (logged) or XBORDER_EVENTS_URL
      });
      demoOk = outcome === 'COMPLETED';
      log(`demo transfer ${outcome} after ${((Date.now() - started) / 1000).toFixed(1)} s since start`);
    }
    if (values.once) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await stop();
      return demoOk ? 0 : 1;
    }
    log('serving; Ctrl-C stops everything cleanly');
    await interruptedPromise;
    await stop();
    return 0;
  } catch (error) {
    await stop();
    throw error;
  }
}
