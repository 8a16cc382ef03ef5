import { randomBytes } from 'node:crypto';
import { type ApiKeyConfig } from './http/auth';
import { type RateLimitConfig } from './http/rate-limit';

/** Step delays of the payment state machine (spec: States and transitions; the durations are ours). */
export interface StepDelays {
  /** PENDING → PROCESSING */
  toProcessing: number;
  /** PROCESSING → SENT */
  toSent: number;
  /** SENT → COMPLETED */
  toCompleted: number;
}

/** Customers and accounts loaded at start (`--seed`): request bodies, optionally with fixed ids. */
export interface SeedData {
  customers?: Array<Record<string, unknown>>;
  accounts?: Array<Record<string, unknown>>;
  /** Virtual account balances by account id. */
  balances?: Record<string, number>;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  /**
   * Host names it answers besides IP literals, localhost and *.localhost (DNS rebinding, src/support/host-check.ts):
   * a single-label name such as compose's `sandbox` only when listed here.
   */
  allowedHosts?: string[];
  /** API keys; default one key `sk_sandbox_test` with no allowlist. */
  apiKeys?: ApiKeyConfig[];
  webhookUrls?: string[];
  /**
   * How events are spread over `webhookUrls` (docs/sandbox.md, "Webhooks"): `broadcast` (default) sends every event
   * to every URL (separate receivers); `spread` sends each event to one of them, as a sender does in front of
   * replicas of one receiver, and its next attempt after a failure to the next URL (a replica that is down is
   * skipped at the retry).
   */
  webhookDelivery?: WebhookDeliveryMode;
  /** `whsec_<base64>`; generated when absent (RunningSandbox.webhookSecret; never printed). */
  webhookSecret?: string;
  /**
   * Token of the control routes (/sandbox/*: webhook secret, faults, fund, clock…), sent as X-Sandbox-Control-Token;
   * generated per run when absent (RunningSandbox.controlToken). docs/sandbox.md, "Control API".
   */
  controlToken?: string;
  /** Start of the sandbox clock; default now. */
  asOf?: Date | string;
  /** Persistence: state and pending webhook deliveries survive a restart. */
  dataFile?: string;
  seed?: SeedData;
  /** Ready-made approved customers and accounts (GET /sandbox/fixtures). */
  demoData?: boolean;
  stepDelaysMs?: Partial<StepDelays>;
  /** Delay of the automatic review outcome of a new customer. */
  customerReviewDelayMs?: number;
  /** Quote validity (spec: Limits; 15 min is the example given). */
  quoteValidityMs?: number;
  /** Delays between webhook attempts. */
  webhookRetryScheduleMs?: number[];
  webhookTimeoutMs?: number;
  idempotencyWindowMs?: number;
  /** Per API key; `false` disables it (benchmarks). Enforced from 2026-03-15 by the clock. */
  rateLimit?: RateLimitConfig | false;
  maxBodyBytes?: number;
  /** Mid-market rates as units of currency per 1 USD; merged over the defaults. */
  usdRates?: Record<string, number>;
  /** Amplitude of a deterministic drift of mid-market rates over clock time, in basis points (0 = fixed). */
  rateDriftBps?: number;
  /** Holidays (YYYY-MM-DD) skipped by business-day arithmetic. */
  holidays?: string[];
  /** One line per request; default console.log, `null` = silent. */
  log?: ((line: string) => void) | null;
  /** Period of the scheduler tick. */
  tickMs?: number;
  /** The team's own address: customer emails built from it are refused (spec: Customer, email). */
  teamEmail?: string;
}

export type WebhookDeliveryMode = 'broadcast' | 'spread';

export interface ResolvedOptions {
  port: number;
  host: string;
  allowedHosts: string[];
  apiKeys: ApiKeyConfig[];
  webhookUrls: string[];
  webhookDelivery: WebhookDeliveryMode;
  webhookSecret: string | undefined;
  controlToken: string;
  controlTokenGenerated: boolean;
  asOf: Date | undefined;
  dataFile: string | undefined;
  seed: SeedData | undefined;
  demoData: boolean;
  stepDelaysMs: StepDelays;
  customerReviewDelayMs: number;
  quoteValidityMs: number;
  webhookRetryScheduleMs: number[];
  webhookTimeoutMs: number;
  idempotencyWindowMs: number;
  rateLimit: RateLimitConfig | false;
  maxBodyBytes: number;
  usdRates: Record<string, number>;
  rateDriftBps: number;
  holidays: ReadonlySet<string>;
  log: ((line: string) => void) | null;
  tickMs: number;
  teamEmail: string;
}

export const DEFAULT_API_KEY = 'sk_sandbox_test';
export const DEFAULT_PORT = 4010;
export const DEFAULT_TEAM_EMAIL = 'team@xborder.test';
/** Svix-like schedule after the immediate attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

export const DEFAULT_USD_RATES: Record<string, number> = {
  USD: 1,
  USDC: 1,
  USDT: 1,
  EUR: 0.92,
  EURC: 0.92,
  GBP: 0.79,
  JPY: 150,
  CAD: 1.36,
  BRL: 5.0,
  INR: 83,
  PHP: 56,
  MXN: 17,
  HKD: 7.8,
  AUD: 1.5,
  CHF: 0.88,
  SGD: 1.34,
  CNY: 7.2,
  COP: 3900,
  ARS: 900,
  CLP: 930,
  NGN: 1500,
  KES: 130,
  ZAR: 18,
};

export function resolveOptions(o: SandboxOptions): ResolvedOptions {
  return {
    port: o.port ?? DEFAULT_PORT,
    host: o.host ?? '127.0.0.1',
    allowedHosts: o.allowedHosts ?? [],
    apiKeys: o.apiKeys && o.apiKeys.length > 0 ? o.apiKeys : [{ key: DEFAULT_API_KEY }],
    webhookUrls: o.webhookUrls ?? [],
    webhookDelivery: o.webhookDelivery ?? 'broadcast',
    webhookSecret: o.webhookSecret,
    controlToken: o.controlToken ?? randomBytes(24).toString('base64url'),
    controlTokenGenerated: o.controlToken === undefined,
    asOf: o.asOf === undefined ? undefined : new Date(o.asOf),
    dataFile: o.dataFile,
    seed: o.seed,
    demoData: o.demoData ?? false,
    stepDelaysMs: { toProcessing: 2000, toSent: 2000, toCompleted: 2000, ...o.stepDelaysMs },
    customerReviewDelayMs: o.customerReviewDelayMs ?? 1000,
    quoteValidityMs: o.quoteValidityMs ?? 15 * 60_000,
    webhookRetryScheduleMs: o.webhookRetryScheduleMs ?? DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS,
    webhookTimeoutMs: o.webhookTimeoutMs ?? 10_000,
    idempotencyWindowMs: o.idempotencyWindowMs ?? 24 * 3_600_000,
    rateLimit: o.rateLimit === undefined ? { requests: 100, windowMs: 10_000 } : o.rateLimit,
    maxBodyBytes: o.maxBodyBytes ?? 1024 * 1024,
    usdRates: { ...DEFAULT_USD_RATES, ...o.usdRates },
    rateDriftBps: o.rateDriftBps ?? 0,
    holidays: new Set(o.holidays ?? []),
    log: o.log === undefined ? (line: string) => console.log(line) : o.log,
    tickMs: o.tickMs ?? 50,
    teamEmail: o.teamEmail ?? DEFAULT_TEAM_EMAIL,
  };
}
