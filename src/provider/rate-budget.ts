// One rate budget per provider key, per HTTP call (spec: Limits: a rate limit is enforced, its numbers are not
// shown, so the budget is configuration: docs/provider-client.md "Rate budget").
// Every call of the transport takes one slot before it is sent, whoever calls (an activity, a local activity, the
// reconcile's listing, a repeat by got), so the budget counts HTTP calls, not activity tasks.
// Across processes nothing is shared but the service's own answer: each process holds budget/replicas
// (docs/deployment.md "Provider rate budget"), and a 429 pauses every call of the process that heard it until its
// Retry-After plus jitter has passed.
//
// The algorithm is GCRA (a token bucket kept as one "theoretical arrival time"): in any window of W ms a process
// starts at most `burst + callsPerSecond * W / 1000` calls. A caller whose slot is further away than maxWaitMs takes
// none and gets a RateBudgetError instead (its activity is retried later), so waiting never outlives an activity.
import { createHash } from 'node:crypto';
import { RateBudgetError } from './errors';

export interface RateBudgetOptions {
  /** Calls per second this process may start (the key's budget divided by the processes sharing it). */
  callsPerSecond: number;
  /** Calls that may start at once after a quiet spell. Default: one second's worth, at least 1. */
  burst?: number;
  /** Longest wait for a slot before a call gives up with RateBudgetError. Default 10 s. */
  maxWaitMs?: number;
  /** Tests: a clock, a sleep and a random source (default Date.now, setTimeout, Math.random). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RateBudget {
  readonly callsPerSecond: number;
  readonly burst: number;
  /** Waits for this call's slot; throws RateBudgetError (nothing sent) when it is more than maxWaitMs away. */
  take(where?: { method: string; path: string }): Promise<void>;
  /** The service answered 429: no call of this process starts before `retryAfterMs` plus jitter from now. */
  pause(retryAfterMs: number): void;
  /** Milliseconds until the earliest call may start (0 when one may start now). */
  waitMs(): number;
}

export const DEFAULT_MAX_BUDGET_WAIT_MS = 10_000;

/**
 * A wait the service asked for, made a little longer and never exact: every process that heard the same 429 would
 * otherwise come back in the same millisecond. 10–30 % more, at least 250 ms more.
 */
export function jitteredRetryAfter(retryAfterMs: number, random: () => number = Math.random): number {
  const extra = Math.max(250, retryAfterMs * (0.1 + 0.2 * random()));
  return Math.round(retryAfterMs + extra);
}

export function createRateBudget(options: RateBudgetOptions): RateBudget {
  const { callsPerSecond } = options;
  if (!Number.isFinite(callsPerSecond) || callsPerSecond <= 0)
    throw new TypeError('rate budget: callsPerSecond must be > 0');
  const burst = Math.max(1, Math.floor(options.burst ?? callsPerSecond));
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_BUDGET_WAIT_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const interval = 1000 / callsPerSecond;
  const tolerance = (burst - 1) * interval;
  // theoretical arrival time of the next call (GCRA) and the end of a 429 pause
  let tat = 0;
  let pausedUntil = 0;

  /** When a call asked for at `t` may start, and the tat it would leave. */
  const slot = (t: number) => {
    const base = Math.max(tat, t, pausedUntil);
    const startAt = Math.max(t, base - tolerance, pausedUntil);
    return { startAt, nextTat: base + interval };
  };

  return {
    callsPerSecond,
    burst,
    waitMs: () => Math.max(0, slot(now()).startAt - now()),
    pause(retryAfterMs) {
      const until = now() + jitteredRetryAfter(retryAfterMs, random);
      if (until <= pausedUntil) return;
      pausedUntil = until;
      // calls after the pause are spaced from its end one interval apart, not released together as a burst
      tat = Math.max(tat, until + tolerance);
    },
    async take(where) {
      for (;;) {
        const t = now();
        const { startAt, nextTat } = slot(t);
        const wait = startAt - t;
        if (wait > maxWaitMs) {
          const what = where ? `${where.method} ${where.path}` : 'the call';
          throw new RateBudgetError(
            `${what} was not sent: the provider rate budget has no call to spare for ${Math.ceil(wait)} ms`,
            {
              ...(where ? { method: where.method, path: where.path } : {}),
              retryAfterMs: Math.ceil(wait),
            },
          );
        }
        tat = nextTat;
        if (wait <= 0) return;
        const pauseAtReservation = pausedUntil;
        await sleep(wait);
        // a 429 heard while we slept: our slot is void, queue again behind the pause
        if (pausedUntil === pauseAtReservation) return;
      }
    },
  };
}

const shared = new Map<string, RateBudget>();

/**
 * The process's one budget for this key at this address: every client made with the same key shares it (the key is
 * kept only as a hash). The first caller's options size it; later callers get the same budget.
 */
export function sharedRateBudget(apiBase: string, apiKey: string, options: RateBudgetOptions): RateBudget {
  const id = `${apiBase} ${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
  let budget = shared.get(id);
  if (!budget) {
    budget = createRateBudget(options);
    shared.set(id, budget);
  }
  return budget;
}

/** Tests only: forget the shared budgets. */
export function resetSharedRateBudgets(): void {
  shared.clear();
}
