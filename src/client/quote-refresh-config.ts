// Configuration of the quote-refresh Schedule (ARCHITECTURE: refreshQuotes), from code or the environment.
import { z } from 'zod';
import type { RatePair } from '../../workflows/rate-board/api';
import { parseEnvironment, type Environment } from '../support/environment';

export const QUOTE_REFRESH_SCHEDULE_ID = 'quote-refresh';

/** `USD:ACH>EUR:LOCAL` — source currency:rail > destination currency:rail. */
export const RatePairSchema = z.object({
  sourceCurrency: z.string().regex(/^[A-Z]{3,5}$/, 'a currency code such as USD'),
  sourceRail: z.string().min(1),
  destinationCurrency: z.string().regex(/^[A-Z]{3,5}$/, 'a currency code such as EUR'),
  destinationRail: z.string().min(1),
});

export function parseRatePair(text: string): RatePair {
  const m = /^\s*([A-Z]{3,5}):([A-Z_]+)\s*>\s*([A-Z]{3,5}):([A-Z_]+)\s*$/.exec(text);
  if (!m) throw new Error(`not a rate pair: "${text}" (expected e.g. USD:ACH>EUR:LOCAL)`);
  return RatePairSchema.parse({
    sourceCurrency: m[1],
    sourceRail: m[2],
    destinationCurrency: m[3],
    destinationRail: m[4],
  });
}

export function formatRatePair(pair: RatePair): string {
  return `${pair.sourceCurrency}:${pair.sourceRail}>${pair.destinationCurrency}:${pair.destinationRail}`;
}

/** Pairs of the sandbox's corridors a first sender asks for most; override with XBORDER_QUOTE_PAIRS. */
export const DEFAULT_QUOTE_PAIRS: readonly string[] = [
  'USD:ACH>EUR:LOCAL',
  'USD:ACH>GBP:LOCAL',
  'USD:ACH>BRL:PIX',
  'USD:ACH>INR:IMPS',
  'USD:ACH>MXN:LOCAL',
];

export const QuoteRefreshConfigSchema = z.object({
  taskQueue: z.string().min(1),
  scheduleId: z.string().min(1).default(QUOTE_REFRESH_SCHEDULE_ID),
  /** default 1 minute */
  intervalMs: z.number().int().min(1000).default(60_000),
  /** a small catch-up window — after an outage, one late run at most, not a burst */
  catchupWindowMs: z.number().int().min(1000).default(60_000),
  pairs: z
    .array(RatePairSchema)
    .min(1)
    .default(() => DEFAULT_QUOTE_PAIRS.map(parseRatePair)),
  referenceAmount: z.number().positive().default(1000),
  /** pause between two rate calls of one refresh (spec: Limits, "Rate limit": numbers not shown) */
  pauseBetweenCallsMs: z.number().int().nonnegative().default(1000),
  /** the board the refresh feeds; default `rate-board` (tests give their own) */
  boardWorkflowId: z.string().min(1).optional(),
});
/** ensureSchedules' configuration: the task queue (required), the pairs to keep fresh, the interval …
 * (defaults for the rest). */
export type QuoteRefreshConfigInput = z.input<typeof QuoteRefreshConfigSchema>;
export type QuoteRefreshConfig = z.output<typeof QuoteRefreshConfigSchema>;

const EnvSchema = z.object({
  XBORDER_TASK_QUEUE: z.string().min(1).default('xborder'),
  XBORDER_QUOTE_REFRESH_INTERVAL_MS: z.coerce.number().int().min(1000).optional(),
  XBORDER_QUOTE_PAIRS: z.string().min(1).optional(),
  XBORDER_QUOTE_REFERENCE_AMOUNT: z.coerce.number().positive().optional(),
  XBORDER_QUOTE_PAUSE_MS: z.coerce.number().int().nonnegative().optional(),
});

/** Every variable quoteRefreshConfigFromEnv reads. */
export const QUOTE_REFRESH_ENV_VARS = Object.keys(EnvSchema.shape) as ReadonlyArray<
  keyof typeof EnvSchema.shape
>;

export function quoteRefreshConfigFromEnv(env: Environment): QuoteRefreshConfig {
  const e = parseEnvironment(EnvSchema, env, 'quote-refresh Schedule');
  return QuoteRefreshConfigSchema.parse({
    taskQueue: e.XBORDER_TASK_QUEUE,
    ...(e.XBORDER_QUOTE_REFRESH_INTERVAL_MS ? { intervalMs: e.XBORDER_QUOTE_REFRESH_INTERVAL_MS } : {}),
    ...(e.XBORDER_QUOTE_PAIRS ? { pairs: e.XBORDER_QUOTE_PAIRS.split(',').map(parseRatePair) } : {}),
    ...(e.XBORDER_QUOTE_REFERENCE_AMOUNT ? { referenceAmount: e.XBORDER_QUOTE_REFERENCE_AMOUNT } : {}),
    ...(e.XBORDER_QUOTE_PAUSE_MS !== undefined ? { pauseBetweenCallsMs: e.XBORDER_QUOTE_PAUSE_MS } : {}),
  });
}
