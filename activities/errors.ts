// Provider error → ApplicationFailure (ARCHITECTURE: "Activities do not retry by themselves; Temporal does").
// 4xx: non-retryable; 429: retryable after Retry-After (nextRetryDelay); 5xx, network and unknown
// outcome: retryable with backoff (a create whose outcome is unknown is retried with the same key).
import { ApplicationFailure } from '@temporalio/common';
import type { ProviderErrorLike } from './provider-port';
import { ACTIVITY_FAILURE_TYPES } from './types';

export function isProviderError(err: unknown): err is ProviderErrorLike {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<string, unknown>;
  return typeof e.type === 'string' && typeof e.retryable === 'boolean';
}

export function toApplicationFailure(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (isProviderError(err)) {
    // An unknown outcome is always worth another try with the same idempotency key.
    const retryable = err.retryable || err.outcomeUnknown === true;
    return ApplicationFailure.create({
      type: err.type,
      message: err.message,
      nonRetryable: !retryable,
      nextRetryDelay: retryable && err.retryAfterMs !== undefined ? err.retryAfterMs : undefined,
      details: [
        { status: err.status ?? null, outcomeUnknown: err.outcomeUnknown ?? false, fields: err.fields ?? [] },
      ],
      cause: err instanceof Error ? err : undefined,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.create({
    type: ACTIVITY_FAILURE_TYPES.UNKNOWN,
    message,
    nonRetryable: false,
    cause: err instanceof Error ? err : undefined,
  });
}

/** Runs one provider call and rethrows its failure as an ApplicationFailure. */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toApplicationFailure(err);
  }
}
