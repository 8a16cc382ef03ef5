// The payments service answers 429 for ten (simulated) minutes: no payment being quoted ends REJECTED, and the key's
// rate budget holds (after a 429, nothing is sent before its Retry-After plus jitter). The real getRate activity, the
// real provider client with its budget, a fake HTTP service on 127.0.0.1 that reads the test server's clock, on the
// time-skipping server (seconds, not ten minutes). Its own file: its own server, its own clock.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPaymentActivities } from '../../../activities/payment-activities';
import { createProviderClient } from '../../../src/provider';
import { createRateBudget } from '../../../src/provider/rate-budget';
import { awaitCreatedUpdate } from '../../../workflows/payment/api';
import { wrapActivities } from '../support/fake-provider';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();

const RETRY_AFTER_S = 30;
const PAYMENTS = 4;

/** The most calls that started in any window of `windowMs`. */
function maxInWindow(starts: number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('payment: the service answers 429 for ten minutes', () => {
  let server: http.Server;
  let url: string;
  /** every GET /payments/rate the service received, on the test server's clock */
  const received: Array<{ at: number; status: number }> = [];
  let limitedUntil = Number.POSITIVE_INFINITY;
  /** 429 (rate limited) or 401 (our key refused) while limited */
  let limitedStatus = 429;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      void (async () => {
        const at = await bed.env.currentTimeMs();
        const q = new URL(req.url ?? '/', 'http://x').searchParams;
        const status = at < limitedUntil ? limitedStatus : 200;
        received.push({ at, status });
        if (status === 429) {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(RETRY_AFTER_S) });
          res.end(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'slow down' } }));
          return;
        }
        if (status === 401) {
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'unknown API key' } }));
          return;
        }
        const amount = Number(q.get('sourceAmount') ?? 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            midMarketRate: bed.fake.midMarketRate,
            invertedMidMarketRate: 1 / bed.fake.midMarketRate,
            serviceFee: { fixed: 1, variable: 0.001 },
            developerFee: { fixed: 0, variable: 0 },
            calculatedAmount: {
              description: 'fake',
              sourceAmount: amount,
              destinationAmount: amount * bed.fake.midMarketRate,
              totalFeeInSourceCurrency: bed.fake.totalFee,
            },
            quoteId: `quote_${received.length}`,
          }),
        );
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The real getRate over the real client with its budget, on the test server's clock. */
  async function realGetRate() {
    const fake = bed.newFake();
    // The budget on the test server's clock, refreshed before each call; no waiting in the process (maxWaitMs 0):
    // a call that has no slot fails with RateBudgetError and the local activity waits on a workflow timer instead.
    let clock = await bed.env.currentTimeMs();
    const budget = createRateBudget({ callsPerSecond: 1, burst: 1, maxWaitMs: 0, now: () => clock });
    const client = createProviderClient({
      baseUrl: url,
      apiKey: 'test-key-' + 'z'.repeat(16),
      prevalidate: false,
      rateBudget: budget,
    });
    const port = {
      rates: {
        get: async (q: Parameters<typeof client.rates.get>[0]) => {
          clock = await bed.env.currentTimeMs();
          return client.rates.get(q);
        },
      },
    };
    const { getRate } = createPaymentActivities({ provider: port as never });
    wrapActivities(fake, () => ({ getRate }));
  }

  it('no payment ends REJECTED, and after every 429 nothing is sent before its Retry-After', async () => {
    await realGetRate();
    received.length = 0;
    limitedStatus = 429;
    const t0 = await bed.env.currentTimeMs();
    limitedUntil = t0 + 10 * MIN;
    const handles = await Promise.all(Array.from({ length: PAYMENTS }, () => bed.startPayment()));
    await bed.env.sleep(11 * MIN);
    const outcomes = await Promise.all(
      handles.map(async (h) => (await h.executeUpdate(awaitCreatedUpdate)).outcome),
    );
    expect(outcomes).toEqual(Array(PAYMENTS).fill('CREATED'));

    const limited = received.filter((r) => r.status === 429);
    const answered = received.filter((r) => r.status === 200);
    // the service said 429 for the whole ten minutes, then answered every payment
    expect(limited.length).toBeGreaterThan(0);
    expect(Math.max(...limited.map((r) => r.at)) - t0).toBeGreaterThanOrEqual(9 * MIN);
    expect(answered.length).toBe(PAYMENTS);
    // the budget held: after each 429, nothing for at least its Retry-After (the jitter adds 10–30 %)
    const sorted = [...received].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i - 1]!.status === 429)
        expect(sorted[i]!.at - sorted[i - 1]!.at).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    }
    // calls per window: at most one in any Retry-After window while limited; about 10 min / 33–39 s in all
    expect(
      maxInWindow(
        limited.map((r) => r.at),
        RETRY_AFTER_S * 1000,
      ),
    ).toBe(1);
    expect(limited.length).toBeLessThanOrEqual(Math.ceil((10 * MIN) / (RETRY_AFTER_S * 1000 * 1.1)) + 1);
    console.log(
      `429 for ten minutes: ${received.length} calls (${limited.length} answered 429, ${answered.length} 200) for ${PAYMENTS} payments; ` +
        `max in any ${RETRY_AFTER_S} s while limited: ${maxInWindow(
          limited.map((r) => r.at),
          RETRY_AFTER_S * 1000,
        )}`,
    );
  }, 240_000);

  it('our key refused (401) for half an hour: the payment waits, minutes between tries, and is CREATED once it is fixed', async () => {
    await realGetRate();
    received.length = 0;
    limitedStatus = 401;
    const t0 = await bed.env.currentTimeMs();
    limitedUntil = t0 + 30 * MIN;
    const handle = await bed.startPayment();
    await bed.env.sleep(45 * MIN);
    expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('CREATED');
    const refusedAt = received.filter((r) => r.status === 401).map((r) => r.at);
    // 1, 2, 4, 8, 10 … minutes apart (plus up to 20 %): a handful of calls, not one every second
    expect(refusedAt.length).toBeGreaterThanOrEqual(4);
    expect(refusedAt.length).toBeLessThanOrEqual(7);
    for (let i = 1; i < refusedAt.length; i++)
      expect(refusedAt[i]! - refusedAt[i - 1]!).toBeGreaterThanOrEqual(MIN);
    console.log(
      `401 for thirty minutes: ${refusedAt.length} refused calls, ${refusedAt
        .slice(1)
        .map((t, i) => Math.round((t - refusedAt[i]!) / 1000))
        .join(' s, ')} s apart, then CREATED`,
    );
  }, 240_000);
});
