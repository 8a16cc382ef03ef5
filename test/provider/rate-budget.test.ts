// The key's rate budget (src/provider/rate-budget.ts): per HTTP call, shared by every client of the key in the
// process, bounded in every window, paused by a 429 for its Retry-After plus jitter, and a RateBudgetError (nothing
// sent) when the wait is longer than the caller allows. Simulated clock: no real waiting.
import {
  createProviderClient,
  type ProviderError,
  RateBudgetError,
  RateLimitedError,
} from '../../src/provider';
import {
  createRateBudget,
  jitteredRetryAfter,
  resetSharedRateBudgets,
  sharedRateBudget,
} from '../../src/provider/rate-budget';
import { currentPaymentJson, errorJson } from './support/fixtures';
import { type FakeServer, sendJson, startFakeServer } from './support/fake-server';

/** A simulated clock whose sleep moves it forward (callers run concurrently, in clock order). */
function simulatedClock(start = 1_800_000_000_000) {
  let now = start;
  const sleepers: Array<{ at: number; wake: () => void }> = [];
  return {
    now: () => now,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: now + ms, wake })),
    /** runs sleepers in time order until none is left */
    async drain(): Promise<void> {
      for (;;) {
        await new Promise((r) => setImmediate(r));
        if (sleepers.length === 0) return;
        sleepers.sort((a, b) => a.at - b.at);
        const next = sleepers.shift()!;
        now = Math.max(now, next.at);
        next.wake();
      }
    },
  };
}

/** The most calls that started in any window of `windowMs` (sliding, over the start times). */
function maxInWindow(starts: number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('rate budget', () => {
  it('holds burst + rate × window in every window, whatever the number of callers', async () => {
    const clock = simulatedClock();
    const budget = createRateBudget({
      callsPerSecond: 5,
      burst: 5,
      maxWaitMs: 3_600_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    const calls = Array.from({ length: 200 }, () => budget.take().then(() => starts.push(clock.now())));
    await clock.drain();
    await Promise.all(calls);
    expect(starts).toHaveLength(200);
    expect(maxInWindow(starts, 1_000)).toBeLessThanOrEqual(5 + 5);
    expect(maxInWindow(starts, 10_000)).toBeLessThanOrEqual(5 + 50);
    // and it is not idle: 200 calls at 5/s take about 39 s after the first burst of 5
    expect(Math.max(...starts) - Math.min(...starts)).toBeLessThanOrEqual(40_000);
  });

  it('a 429 pauses every call of the process for its Retry-After plus jitter, then spaces them', async () => {
    const clock = simulatedClock();
    const budget = createRateBudget({
      callsPerSecond: 10,
      burst: 10,
      maxWaitMs: 3_600_000,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
    });
    const t0 = clock.now();
    budget.pause(30_000);
    const starts: number[] = [];
    const calls = Array.from({ length: 20 }, () => budget.take().then(() => starts.push(clock.now())));
    await clock.drain();
    await Promise.all(calls);
    // never exactly Retry-After: 30 s + 20 % (random 0.5 → 10 % + 10 %)
    expect(Math.min(...starts) - t0).toBe(36_000);
    // released one interval apart, not as a burst of 10 at the pause's end
    expect(maxInWindow(starts, 1_000)).toBeLessThanOrEqual(10);
    expect(maxInWindow(starts, 100)).toBe(1);
  });

  it('a caller whose slot is further than maxWaitMs sends nothing and gets RateBudgetError with the wait', async () => {
    const clock = simulatedClock();
    const budget = createRateBudget({
      callsPerSecond: 1,
      burst: 1,
      maxWaitMs: 0,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0,
    });
    await budget.take();
    const refused = await budget.take({ method: 'GET', path: '/v1/payments/rate' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateBudgetError);
    expect(refused).toMatchObject({
      type: 'RateBudgetError',
      retryable: true,
      retryAfterMs: 1_000,
      path: '/v1/payments/rate',
    });
    budget.pause(5_000);
    expect(budget.waitMs()).toBe(5_500); // 5 s + at least 10 % (random 0)
  });

  it('jitter: a Retry-After is never honoured exactly', () => {
    for (const random of [0, 0.3, 0.999]) {
      const delay = jitteredRetryAfter(1_000, () => random);
      expect(delay).toBeGreaterThan(1_000);
      expect(delay).toBeGreaterThanOrEqual(1_250);
      expect(delay).toBeLessThanOrEqual(1_300);
    }
    expect(jitteredRetryAfter(60_000, () => 0)).toBe(66_000);
    expect(jitteredRetryAfter(60_000, () => 1)).toBe(78_000);
  });

  it('one budget per key and address in a process: clients with the same key share it, another key has its own', () => {
    resetSharedRateBudgets();
    const a = sharedRateBudget('https://api.example/v1', 'key-one', { callsPerSecond: 5 });
    expect(sharedRateBudget('https://api.example/v1', 'key-one', { callsPerSecond: 50 })).toBe(a);
    expect(sharedRateBudget('https://api.example/v1', 'key-two', { callsPerSecond: 5 })).not.toBe(a);
    resetSharedRateBudgets();
  });
});

describe('rate budget in the transport: one slot per HTTP call, a 429 stops the process', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(async () => {
    await server.close();
    resetSharedRateBudgets();
  });

  it('after a 429 the next call of ANY client of the same key is not sent until Retry-After plus jitter', async () => {
    resetSharedRateBudgets();
    server.requests.length = 0;
    server.handle((req, res) =>
      req.url.startsWith('/v1/payments/pay_1')
        ? sendJson(res, 429, errorJson('RATE_LIMITED', 'slow down'), { 'retry-after': '5' })
        : sendJson(res, 200, currentPaymentJson()),
    );
    // two clients of one key (e.g. the activities' and the reconcile's): one budget; no waiting allowed
    const options = {
      baseUrl: server.url,
      apiKey: 'k_' + 'x'.repeat(20),
      prevalidate: false,
      rateBudget: { callsPerSecond: 100, maxWaitMs: 0 },
    };
    const one = createProviderClient(options);
    const two = createProviderClient(options);
    const first = await one.payments.get('pay_1').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RateLimitedError);
    const second = await two.payments.get('pay_2').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(RateBudgetError);
    expect((second as ProviderError).retryAfterMs).toBeGreaterThan(5_000);
    // the second call never reached the service
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/payments/pay_1']);
  });

  it('every HTTP call takes a slot: a page listing of 3 pages is 3 calls of the budget', async () => {
    resetSharedRateBudgets();
    server.requests.length = 0;
    let page = 0;
    server.handle((_req, res) => {
      page++;
      sendJson(res, 200, {
        data: [currentPaymentJson()],
        pagination: { nextCursor: page < 3 ? `c${page}` : null, limit: 1 },
      });
    });
    const taken: string[] = [];
    const budget = createRateBudget({ callsPerSecond: 1_000 });
    const counting = {
      ...budget,
      take: (where?: { method: string; path: string }) => (
        taken.push(where?.path ?? '?'),
        budget.take(where)
      ),
    };
    const client = createProviderClient({
      baseUrl: server.url,
      apiKey: 'k_' + 'y'.repeat(20),
      prevalidate: false,
      rateBudget: counting,
    });
    let listed = 0;
    for await (const _ of client.payments.listAll({ limit: 1 })) listed++;
    expect(listed).toBe(3);
    expect(taken).toEqual(['/v1/payments', '/v1/payments', '/v1/payments']);
  });
});

describe('rate budget: the log line of a deferred call', () => {
  it('is a warn line with status null and errorType RateBudgetError (nothing was sent)', async () => {
    const lines: Array<{ level: string; meta: Record<string, unknown> }> = [];
    const logger = {
      info: (_m: string, meta: Record<string, unknown>) => lines.push({ level: 'info', meta }),
      warn: (_m: string, meta: Record<string, unknown>) => lines.push({ level: 'warn', meta }),
      error: (_m: string, meta: Record<string, unknown>) => lines.push({ level: 'error', meta }),
    };
    const budget = createRateBudget({ callsPerSecond: 1, burst: 1, maxWaitMs: 0 });
    budget.pause(60_000);
    const client = createProviderClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k_' + 'w'.repeat(20),
      prevalidate: false,
      rateBudget: budget,
      logger,
    });
    await expect(client.payments.get('pay_1')).rejects.toBeInstanceOf(RateBudgetError);
    expect(lines).toEqual([
      {
        level: 'warn',
        meta: expect.objectContaining({
          status: null,
          errorType: 'RateBudgetError',
          path: '/v1/payments/pay_1',
        }),
      },
    ]);
  });
});
