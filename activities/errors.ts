// Provider error → ApplicationFailure (ARCHITECTURE: "Activities do not retry by themselves; Temporal does").
// 4xx: non-retryable; 429: retryable after Retry-After plus jitter (nextRetryDelay); 5xx, network and unknown
// outcome: retryable with backoff (a create whose outcome is unknown is retried with the same key).
// 401/403 (AuthError): a configuration fault of ours (a rotated key, a node outside the IP allowlist: spec:
// Authentication 5), never the caller's: retried, minutes apart, until an operator fixes it. The failures are
// counted by type (src/telemetry/activity-interceptor.ts) and alerted on (temporal-docker/prometheus/alerts.yaml).
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
// a Retry-After (429, or our own budget's foreseen wait) is waited 10–30 % longer: never exactly
import { jitteredRetryAfter } from '../src/provider/rate-budget';
import type { ProviderErrorLike } from './provider-port';
import { ACTIVITY_FAILURE_TYPES } from './types';

/** First wait after a refused key, and the cap of the doubling waits after it. */
export const AUTH_RETRY_INITIAL_MS = 60_000;
export const AUTH_RETRY_MAX_MS = 10 * 60_000;

export function isProviderError(err: unknown): err is ProviderErrorLike {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as Record<string, unknown>;
  return typeof e.type === 'string' && typeof e.retryable === 'boolean';
}

/** The wait before attempt `attempt + 1` after a refused key: 1, 2, 4, 8, 10, 10 … minutes, 0–20 % more. */
export function authRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(
    AUTH_RETRY_MAX_MS,
    AUTH_RETRY_INITIAL_MS * 2 ** Math.max(0, Math.min(attempt - 1, 16)),
  );
  return Math.round(base * (1 + 0.2 * random()));
}

/** The running activity's attempt (1 outside an activity, e.g. in unit tests). */
function activityAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

function nextRetryDelayOf(err: ProviderErrorLike, retryable: boolean, attempt: number): number | undefined {
  if (!retryable) return undefined;
  if (err.type === 'AuthError') return authRetryDelayMs(attempt);
  if (err.retryAfterMs !== undefined) return jitteredRetryAfter(err.retryAfterMs);
  return undefined;
}

export function toApplicationFailure(err: unknown, attempt: number = activityAttempt()): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (isProviderError(err)) {
    // An unknown outcome is always worth another try with the same idempotency key.
    const retryable = err.retryable || err.outcomeUnknown === true;
    return ApplicationFailure.create({
      type: err.type,
      message: err.message,
      nonRetryable: !retryable,
      nextRetryDelay: nextRetryDelayOf(err, retryable, attempt),
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
