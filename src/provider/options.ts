// Options of createProviderClient and their defaults.
import { type EnvironmentName } from './environments';
import { type ProviderLogger } from './logger';
import { type PagingParams } from './pagination';
import { type RateBudget, type RateBudgetOptions } from './rate-budget';
import { type RetryOptions } from './transport';

export interface ProviderClientOptions {
  /** `{base_url}` of the service (the client appends /v1 unless it is already there). Or use `environment`. */
  baseUrl?: string;
  /**
   * Plain `http://` is refused unless the host is loopback (the API key would travel in cleartext). True admits it
   * for a private network the operator vouches for (the compose stack's sandbox). Default false.
   */
  allowPlainHttp?: boolean;
  /** `sandbox` | `production`: placeholder addresses until the real ones are known (see environments.ts). */
  environment?: EnvironmentName;
  /** Sent as X-Api-Key on every request; never logged, never in an error. */
  apiKey: string;
  /** Per request (per attempt when retry is on). Default 10 000 ms. */
  timeoutMs?: number;
  /** Default `xborder-provider-client/0.1`. */
  userAgent?: string;
  /** Structured request log (Temporal's activity `log` fits). Default: silent. */
  logger?: ProviderLogger;
  /** Run the contract's validators before creating calls. Default true. */
  prevalidate?: boolean;
  /** Date the dated rules are applied by: a fixed date or a clock (e.g. the sandbox's). Default: the real clock. */
  asOf?: Date | (() => Date);
  /** Off by default (Temporal retries activities). `{ limit: n }` enables got's retry, honouring Retry-After. */
  retry?: { limit: number; maxRetryAfterMs?: number };
  /** Paging query parameter names; default `limit` / `cursor` (our assumption, docs/spec-gaps.md). */
  paging?: Partial<PagingParams>;
  /** Response header that carries the service's request id. Default `x-request-id`. */
  requestIdHeader?: string;
  /**
   * The key's rate budget (docs/provider-client.md "Rate budget"): a budget, or its options (then the process's one
   * budget for this key and address is used, shared by every client made with the same key). Default: none.
   */
  rateBudget?: RateBudget | RateBudgetOptions;
}

/** Per-call options of every creating call: the idempotency key is required (spec: Authentication 3). */
export interface CreateOptions {
  /** Sent as X-Idempotency-Key. Derive it from the workflow ID and step, never from a clock or random value. */
  idempotencyKey: string;
  /** Overrides the client's `prevalidate` for this call. */
  prevalidate?: boolean;
  /** Overrides the client's `asOf` for this call. */
  asOf?: Date;
}

export interface ResolvedClientOptions {
  prevalidate: boolean;
  asOf: () => Date;
  retry: RetryOptions;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_USER_AGENT = 'xborder-provider-client/0.1';
export const DEFAULT_REQUEST_ID_HEADER = 'x-request-id';

export function resolveAsOf(asOf: ProviderClientOptions['asOf']): () => Date {
  if (asOf === undefined) return () => new Date();
  if (typeof asOf === 'function') return asOf;
  const fixed = new Date(asOf.getTime());
  return () => fixed;
}
