// createProviderClient: one typed method per current endpoint of the spec (spec: Endpoints).
import { resolveApiBase } from './environments';
import { readErrorBody } from './error-body';
import { silentLogger } from './logger';
import {
  DEFAULT_REQUEST_ID_HEADER,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type ProviderClientOptions,
  resolveAsOf,
} from './options';
import { DEFAULT_PAGING } from './pagination';
import { type AccountsApi, createAccountsApi } from './resources/accounts';
import { type ClientContext } from './resources/context';
import { type CorridorsApi, createCorridorsApi } from './resources/corridors';
import { type CustomersApi, createCustomersApi } from './resources/customers';
import { type PaymentsApi, createPaymentsApi } from './resources/payments';
import { type RatesApi, createRatesApi } from './resources/rates';
import { type RateBudget, type RateBudgetOptions, sharedRateBudget } from './rate-budget';
import { createTransport } from './transport';

export interface ProviderClient {
  /** `{base_url}/v1` the client sends to. */
  readonly apiBase: string;
  readonly customers: CustomersApi;
  readonly accounts: AccountsApi;
  readonly payments: PaymentsApi;
  readonly corridors: CorridorsApi;
  readonly rates: RatesApi;
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('createProviderClient: apiKey is required');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('createProviderClient: timeoutMs must be > 0');
  const retryLimit = options.retry?.limit ?? 0;
  if (!Number.isInteger(retryLimit) || retryLimit < 0)
    throw new TypeError('createProviderClient: retry.limit must be a whole number >= 0');

  const apiBase = resolveApiBase(options);
  const asOf = resolveAsOf(options.asOf);
  const transport = createTransport({
    apiBase,
    apiKey: options.apiKey,
    timeoutMs,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    logger: options.logger ?? silentLogger,
    retry: { limit: retryLimit, maxRetryAfterMs: options.retry?.maxRetryAfterMs },
    readErrorBody,
    requestIdHeader: options.requestIdHeader ?? DEFAULT_REQUEST_ID_HEADER,
    now: () => new Date(),
    ...(options.rateBudget ? { budget: budgetOf(options.rateBudget, apiBase, options.apiKey) } : {}),
  });
  const ctx: ClientContext = {
    transport,
    paging: { ...DEFAULT_PAGING, ...options.paging },
    prevalidate: options.prevalidate ?? true,
    asOf,
  };
  return {
    apiBase,
    customers: createCustomersApi(ctx),
    accounts: createAccountsApi(ctx),
    payments: createPaymentsApi(ctx),
    corridors: createCorridorsApi(ctx),
    rates: createRatesApi(ctx),
  };
}

function budgetOf(given: RateBudget | RateBudgetOptions, apiBase: string, apiKey: string): RateBudget {
  return 'take' in given ? given : sharedRateBudget(apiBase, apiKey, given);
}
