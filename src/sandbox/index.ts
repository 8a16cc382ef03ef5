import { createServer, type Server } from 'node:http';
import { isOwnHost, MISDIRECTED } from '../support/host-check';
import { type AddressInfo } from 'node:net';
import { isInForce } from '../contract';
import { type SandboxClock } from './clock';
import { SandboxCore } from './core';
import { loadDemoData, loadSeed } from './demo-data';
import { AccountService } from './domain/accounts';
import { CustomerService } from './domain/customers';
import { DepositService } from './domain/deposits';
import { PaymentEngine } from './domain/payments';
import { RateBook } from './domain/rates';
import { CONTROL_TOKEN_HEADER } from './http/auth';
import { createRequestListener } from './http/server';
import { buildOpenApi } from './openapi';
import { resolveOptions, type SandboxOptions } from './options';
import { loadData } from './persistence';
import { apiRouter, type Services } from './routes/api';
import { controlRouter } from './routes/control';

export { parseApiKeySpec, CONTROL_TOKEN_HEADER, type ApiKeyConfig } from './http/auth';
export { parseIsoDuration, SandboxClock } from './clock';
export { signWebhook, webhookHeaders, generateWebhookSecret } from './webhooks/signing';
export {
  DEFAULT_API_KEY,
  DEFAULT_PORT,
  type SandboxOptions,
  type SeedData,
  type StepDelays,
} from './options';
export { type Delivery, type DeliveryAttempt } from './webhooks/delivery';
export { type SandboxEvent } from './core';

export interface RunningSandbox {
  /** Base address without /v1, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  clock: SandboxClock;
  /** The live state and machinery (tests read it; do not mutate it from outside). */
  state: SandboxCore;
  services: Services;
  webhookSecret: string;
  /** Token of the control routes (/sandbox/*), given or generated per run. */
  controlToken: string;
  /** `{ 'x-sandbox-control-token': controlToken }`, for callers of the control routes. */
  controlHeaders: Record<string, string>;
  /** The first API key. */
  apiKey: string;
  /** Fires every due job now (the clock tick does it every ~50 ms). */
  runDue(): number;
  /** Resolves when no webhook attempt is in flight. */
  webhooksIdle(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the sandbox on options.host:options.port (port 0 = a free port). */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options);
  const restored = resolved.dataFile ? loadData(resolved.dataFile) : null;
  const core = new SandboxCore(resolved, restored);
  const rates = new RateBook(resolved.usdRates, resolved.rateDriftBps);
  const customers = new CustomerService(core);
  const accounts = new AccountService(core);
  const payments = new PaymentEngine(core, rates);
  const deposits = new DepositService(core, payments, rates);
  // spec: Payment rule 2 — a payment completing into a virtual account with automatic conversion is converted.
  payments.onArrived = (p, atMs) => void deposits.convertArrival(p, atMs);
  const services: Services = { core, customers, accounts, payments, deposits, rates };
  if (resolved.demoData) loadDemoData(customers, accounts, core.data);
  if (resolved.seed) loadSeed(resolved.seed, customers, accounts, core.data);
  core.webhooks.resumePending();

  const api = apiRouter(services);
  let url = '';
  let openapiCache: unknown = null;
  const control = controlRouter(services, () => (openapiCache ??= buildOpenApi(api, url)));
  const listener = createRequestListener(core, api, control, {
    enforceAllowlist: (asOf) => isInForce('IP_WHITELIST_ENFORCED', asOf),
    enforceRateLimit: (asOf) => isInForce('RATE_LIMIT_ENFORCED', asOf),
  });
  // DNS rebinding: a request for a name that is not this server's is refused before any route (src/support/host-check.ts).
  const server: Server = createServer((req, res) => {
    if (isOwnHost(req.headers.host, { allowedHosts: resolved.allowedHosts })) return listener(req, res);
    res.writeHead(MISDIRECTED.status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ code: 'MISDIRECTED_REQUEST', message: MISDIRECTED.message }));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  url = `http://${resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host}:${port}`;
  core.scheduler.start(resolved.tickMs);
  core.scheduler.runDue();
  core.saver.saveSoon();

  let closed: Promise<void> | null = null;
  return {
    url,
    port,
    clock: core.clock,
    state: core,
    services,
    get webhookSecret() {
      return core.webhookSecret;
    },
    controlToken: resolved.controlToken,
    controlHeaders: { [CONTROL_TOKEN_HEADER]: resolved.controlToken },
    apiKey: resolved.apiKeys[0]!.key,
    runDue: () => core.scheduler.runDue(),
    webhooksIdle: () => core.webhooks.idle(),
    close: () =>
      (closed ??= (async () => {
        core.scheduler.stop();
        await core.webhooks.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        core.saver.flush();
      })()),
  };
}
export { parseSandboxArgs, SandboxArgsError, SANDBOX_USAGE } from './args';
