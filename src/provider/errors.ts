// The client's error hierarchy. Every error the client throws is a ProviderError with a stable `type`
// (activities map it to an ApplicationFailure type) and a deliberate `retryable` flag.
// Nothing here ever holds the API key, request headers or the got error object: only copied scalars,
// so JSON.stringify / util.inspect of any error cannot leak a secret.

/** One refused field, as the service (or a local validator) names it. */
export interface FieldIssue {
  path: string;
  rule: string;
  message: string;
}

export interface ProviderErrorDetails {
  status?: number;
  code?: string;
  fields?: FieldIssue[];
  requestId?: string;
  method?: string;
  path?: string;
  outcomeUnknown?: boolean;
  retryAfterMs?: number;
  retryCount?: number;
}

export abstract class ProviderError extends Error {
  abstract readonly type: string;
  abstract readonly retryable: boolean;
  /** HTTP status, when the service answered. */
  readonly status: number | undefined;
  /** The service's error code (ERROR_CODES of src/contract), when its body carried one. */
  readonly code: string | undefined;
  readonly fields: FieldIssue[];
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  /** Request path relative to the base address, e.g. /v1/payments (never the query string). */
  readonly path: string | undefined;
  /**
   * True when a creating call may have taken effect although we saw no success (network error, timeout,
   * 5xx after the service may have committed). Repeat it with the SAME idempotency key to learn the outcome.
   */
  readonly outcomeUnknown: boolean;
  /** How long the service asked us to wait (Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;
  /**
   * How many times the transport repeated this call before this error (retry.limit > 0). On a creating call,
   * > 0 means an earlier repeat may have taken effect whatever this last answer says.
   */
  readonly retryCount: number;

  constructor(message: string, details: ProviderErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code;
    this.fields = details.fields ?? [];
    this.requestId = details.requestId;
    this.method = details.method;
    this.path = details.path;
    this.outcomeUnknown = details.outcomeUnknown ?? false;
    this.retryAfterMs = details.retryAfterMs;
    this.retryCount = details.retryCount ?? 0;
  }

  /** Plain data for logs and Temporal failure details (no stack, no secrets). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      type: this.type,
      message: this.message,
      retryable: this.retryable,
      status: this.status,
      code: this.code,
      fields: this.fields,
      requestId: this.requestId,
      method: this.method,
      path: this.path,
      outcomeUnknown: this.outcomeUnknown,
      retryAfterMs: this.retryAfterMs,
      retryCount: this.retryCount,
    };
  }
}

/** 400 / 422 / 413: the service refused the request as invalid. Not retryable: fix the request. */
export class ValidationError extends ProviderError {
  readonly type = 'ValidationError';
  readonly retryable = false;
}

/**
 * 401 / 403: key missing, unknown or not allowed from this address (spec: Authentication 1 and 5). A configuration
 * fault of ours (a rotated key, a node outside the key's IP allowlist), never the caller's: retryable, but only
 * after minutes, once an operator has fixed the key or the allowlist (activities/errors.ts backs off and caps).
 */
export class AuthError extends ProviderError {
  readonly type = 'AuthError';
  readonly retryable = true;
}

/** 404 (and 410 for removed endpoints). Not retryable. */
export class NotFoundError extends ProviderError {
  readonly type = 'NotFoundError';
  readonly retryable = false;
}

/** 409: the idempotency key was already used with another body. Not retryable: a new key or the old body. */
export class IdempotencyConflictError extends ProviderError {
  readonly type = 'IdempotencyConflictError';
  readonly retryable = false;
}

/** 429: retry after `retryAfterMs` (spec: Limits, rate limit enforced from 2026-03-15). */
export class RateLimitedError extends ProviderError {
  readonly type = 'RateLimitedError';
  readonly retryable = true;
}

/**
 * Our own rate budget (src/provider/rate-budget.ts) has no call to spare within the wait the caller allows: nothing
 * was sent. Retryable after `retryAfterMs`, the wait the budget foresaw.
 */
export class RateBudgetError extends ProviderError {
  readonly type = 'RateBudgetError';
  readonly retryable = true;
}

/** 5xx: the service failed. Retryable (with the same idempotency key for creating calls). */
export class ServerError extends ProviderError {
  readonly type = 'ServerError';
  readonly retryable = true;
}

/** Any other 4xx the client has no better class for (e.g. 402 INSUFFICIENT_FUNDS, 405). Not retryable. */
export class RequestRefusedError extends ProviderError {
  readonly type = 'RequestRefusedError';
  readonly retryable = false;
}

/** The connection failed or broke before a full answer arrived. Retryable. */
export class NetworkError extends ProviderError {
  readonly type = 'NetworkError';
  readonly retryable = true;
  /** Node's error code, e.g. ECONNREFUSED, ECONNRESET. */
  readonly networkCode: string | undefined;
  constructor(message: string, details: ProviderErrorDetails & { networkCode?: string } = {}) {
    super(message, details);
    this.networkCode = details.networkCode;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), networkCode: this.networkCode };
  }
}

/** No answer within timeoutMs. Retryable. */
export class TimeoutError extends ProviderError {
  readonly type = 'TimeoutError';
  readonly retryable = true;
  readonly timeoutMs: number | undefined;
  constructor(message: string, details: ProviderErrorDetails & { timeoutMs?: number } = {}) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), timeoutMs: this.timeoutMs };
  }
}

/**
 * The service answered something the contract does not allow (wrong JSON, missing field, unknown enum).
 * Not retryable: the same answer will come again; the contract or the service must change.
 * `fields` names every offending path of the response.
 */
export class ResponseShapeError extends ProviderError {
  readonly type = 'ResponseShapeError';
  readonly retryable = false;
}

/** Pre-validation refused the request before it was sent; `fields` lists every violation. Not retryable. */
export class LocalValidationError extends ProviderError {
  readonly type = 'LocalValidationError';
  readonly retryable = false;
}

/** A webhook whose signature, timestamp or headers do not verify. Not retryable. */
export class WebhookVerificationError extends ProviderError {
  readonly type = 'WebhookVerificationError';
  readonly retryable = false;
}

/** Every `type` value, for activities that map errors to ApplicationFailure types. */
export const PROVIDER_ERROR_TYPES = [
  'ValidationError',
  'AuthError',
  'NotFoundError',
  'IdempotencyConflictError',
  'RateLimitedError',
  'RateBudgetError',
  'ServerError',
  'RequestRefusedError',
  'NetworkError',
  'TimeoutError',
  'ResponseShapeError',
  'LocalValidationError',
  'WebhookVerificationError',
] as const;
export type ProviderErrorType = (typeof PROVIDER_ERROR_TYPES)[number];

export function isProviderError(value: unknown): value is ProviderError {
  return value instanceof ProviderError;
}
