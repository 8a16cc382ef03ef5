// Public API of src/provider: the typed HTTP client of the payments service (docs/provider-client.md).
export { createProviderClient, type ProviderClient } from './client';
export { type ProviderClientOptions, type CreateOptions } from './options';
export { ENVIRONMENTS, type EnvironmentName, resolveApiBase } from './environments';
export { type ProviderLogger, type RequestLogFields } from './logger';
export { type Page, type ListQuery, type PagingParams, iteratePages, iterateItems } from './pagination';
export { type CustomersApi } from './resources/customers';
export { type AccountsApi, type RequirementsQuery } from './resources/accounts';
export { type PaymentsApi } from './resources/payments';
export { type CorridorsApi } from './resources/corridors';
export { type RatesApi, type RateQuery } from './resources/rates';
export {
  ProviderError,
  ValidationError,
  AuthError,
  NotFoundError,
  IdempotencyConflictError,
  RateLimitedError,
  RateBudgetError,
  ServerError,
  RequestRefusedError,
  NetworkError,
  TimeoutError,
  ResponseShapeError,
  LocalValidationError,
  WebhookVerificationError,
  PROVIDER_ERROR_TYPES,
  type ProviderErrorType,
  type FieldIssue,
  isProviderError,
} from './errors';
export { parseRetryAfter } from './retry-after';
export { type RateBudget, type RateBudgetOptions, createRateBudget, sharedRateBudget } from './rate-budget';
export {
  verifyWebhook,
  signWebhook,
  type WebhookHeaders,
  type VerifyWebhookOptions,
  type VerifiedWebhook,
} from './webhook-signature';
export { parseWebhookEvent, type ParsedWebhookEvent } from './webhook-event';
export {
  checkAccountAgainstRequirements,
  type RequirementMismatch,
  type RequirementCheckOptions,
} from './requirements-check';
export {
  expectedQuoteAmounts,
  compareQuoteAmounts,
  type QuoteAmountInput,
  type QuoteCurrencies,
  type QuoteDifference,
} from './quote';
