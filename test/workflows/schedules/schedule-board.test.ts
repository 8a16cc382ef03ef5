// refreshQuotes and rateBoard on the time-skipping server with fake activities
// (docs/quote-refresh-and-telemetry.md). The Schedule itself runs on the dev server
// (schedule-dev-server.e2e.test.ts): the time-skipping test server has no Schedule service, which the first
// test here pins down.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { destinationFromSource, sourceFromDestination } from '../../../src/contract';
import {
  getIndicativeQuote,
  IndicativeQuoteError,
  readRateBoard,
} from '../../../src/client/indicative-quote';
import {
  rateBoardQuery,
  rateBoardUpdateSignal,
  ratePairKey,
  type RateBoardEntry,
  RATE_BOARD_WORKFLOW_TYPE,
} from '../../../workflows/rate-board/api';
import {
  REFRESH_QUOTES_WORKFLOW_TYPE,
  type RefreshQuotesResult,
} from '../../../workflows/refresh-quotes/api';
import {
  createTimeSkippingEnv,
  uniqueTaskQueue,
  uniqueWorkflowId,
  workflowBundle,
} from '../../support/temporal';
import { FakeQuoteProvider, USD_BRL, USD_EUR, USD_JPY } from './schedule-fakes';

const WORKFLOWS = require.resolve('./schedule-workflows');
const MIN = 60_000;

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await createTimeSkippingEnv();
  await workflowBundle(WORKFLOWS);
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

async function withQuoteWorker<T>(
  fake: FakeQuoteProvider,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueTaskQueue('quotes');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS),
    activities: fake.activities(),
  });
  return worker.runUntil(fn(taskQueue));
}

function refresh(
  taskQueue: string,
  boardWorkflowId: string,
  pauseBetweenCallsMs = 2000,
): Promise<RefreshQuotesResult> {
  return env.client.workflow.execute(REFRESH_QUOTES_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: uniqueWorkflowId('refresh'),
    args: [
      {
        pairs: [USD_EUR, USD_JPY, USD_BRL, USD_EUR],
        referenceAmount: 500,
        pauseBetweenCallsMs,
        boardWorkflowId,
      },
    ],
  });
}

async function boardEntries(boardWorkflowId: string): Promise<RateBoardEntry[]> {
  return readRateBoard(env.client, boardWorkflowId);
}

describe('the time-skipping test server', () => {
  it('has no Schedule service (so the Schedule is tested on the dev server)', async () => {
    const error = await env.client.schedule
      .create({
        scheduleId: uniqueWorkflowId('probe'),
        spec: { intervals: [{ every: '1m' }] },
        action: {
          type: 'startWorkflow',
          workflowType: REFRESH_QUOTES_WORKFLOW_TYPE,
          taskQueue: 'none',
          args: [{ pairs: [] }],
        },
      })
      .then(
        () => null,
        (err: unknown) => err as Error & { cause?: { code?: number } },
      );
    expect(error?.message).toBe('Failed to create schedule');
    expect(error?.cause?.code).toBe(12); // gRPC UNIMPLEMENTED
  });
});

describe('refreshQuotes', () => {
  it('fetches the offered pairs one at a time with the pause between calls, skips the others, and starts the board', async () => {
    const fake = new FakeQuoteProvider();
    const boardId = uniqueWorkflowId('rate-board');
    await withQuoteWorker(fake, async (taskQueue) => {
      const result = await refresh(taskQueue, boardId, 2000);
      expect(result.fetched).toEqual([ratePairKey(USD_EUR), ratePairKey(USD_BRL)]);
      expect(result.skipped).toEqual([ratePairKey(USD_JPY)]);
      expect(result.failed).toEqual([]);
      expect(result.delivery).toBe('started');

      const calls = fake.rateCalls();
      expect(calls.map((c) => c.pair?.destinationCurrency)).toEqual(['EUR', 'BRL']); // the duplicate EUR pair once
      expect(calls[1]!.scheduledAtMs - calls[0]!.scheduledAtMs).toBeGreaterThanOrEqual(2000);

      const entries = await boardEntries(boardId);
      expect(entries.map((e) => ratePairKey(e.pair))).toEqual([ratePairKey(USD_BRL), ratePairKey(USD_EUR)]);
      expect(entries.find((e) => e.pair.destinationCurrency === 'EUR')!.rate).toMatchObject({
        midMarketRate: 0.9,
        referenceAmount: 500,
      });
    });
  });

  it('reports a failing pair and still delivers the others', async () => {
    const fake = new FakeQuoteProvider();
    fake.failing.add('BRL');
    const boardId = uniqueWorkflowId('rate-board');
    await withQuoteWorker(fake, async (taskQueue) => {
      const result = await refresh(taskQueue, boardId, 0);
      expect(result.fetched).toEqual([ratePairKey(USD_EUR)]);
      expect(result.failed).toEqual([
        { pair: ratePairKey(USD_BRL), error: expect.stringMatching(/Activity task failed|rate limited/) },
      ]);
      expect((await boardEntries(boardId)).map((e) => ratePairKey(e.pair))).toEqual([ratePairKey(USD_EUR)]);
    });
  });
});

describe('getIndicativeQuote', () => {
  it('answers from the board with the contract fee math and the age of the rate, and refuses a stale board', async () => {
    const fake = new FakeQuoteProvider();
    const boardId = uniqueWorkflowId('rate-board');
    await withQuoteWorker(fake, async (taskQueue) => {
      await refresh(taskQueue, boardId, 0);
      const fetchedAt = (await boardEntries(boardId)).find(
        (e) => e.pair.destinationCurrency === 'EUR',
      )!.fetchedAt;
      const now = new Date(Date.parse(fetchedAt) + 30_000);
      const quote = await getIndicativeQuote(env.client, USD_EUR, 1000, {
        maxAgeMs: 2 * MIN,
        now,
        boardWorkflowId: boardId,
      });
      const fees = {
        midMarketRate: 0.9,
        serviceFee: { fixed: 1, variable: 0.005 },
        developerFee: { fixed: 0, variable: 0 },
        sourceCurrency: 'USD',
        destinationCurrency: 'EUR',
      };
      expect(quote).toMatchObject({
        ...destinationFromSource({ ...fees, sourceAmount: 1000 }),
        ageMs: 30_000,
        fetchedAt,
        indicative: true,
      });
      const back = await getIndicativeQuote(
        env.client,
        USD_EUR,
        { destinationAmount: 850 },
        { maxAgeMs: 2 * MIN, now, boardWorkflowId: boardId },
      );
      expect(back).toMatchObject(sourceFromDestination({ ...fees, destinationAmount: 850 }));

      // The Schedule stops (no refresh runs): three minutes later the board is past the limit. (The clock is
      // passed in: on the Java test server, env.sleep does not skip time once a workflow has started an
      // abandoned child, as refreshQuotes does here, so the clock is moved by hand.)
      const later = new Date(Date.parse(fetchedAt) + 3 * MIN);
      const stale = getIndicativeQuote(env.client, USD_EUR, 1000, {
        maxAgeMs: 2 * MIN,
        now: later,
        boardWorkflowId: boardId,
      });
      await expect(stale).rejects.toBeInstanceOf(IndicativeQuoteError);
      await expect(stale).rejects.toMatchObject({
        type: 'RATE_STALE',
        details: { pair: ratePairKey(USD_EUR), maxAgeMs: 2 * MIN },
      });
      await expect(stale).rejects.toThrow(/older than the limit of 120 s/);

      await expect(
        getIndicativeQuote(env.client, USD_JPY, 1000, { maxAgeMs: MIN, boardWorkflowId: boardId }),
      ).rejects.toMatchObject({ type: 'RATE_MISSING' });
    });
  });

  it('says RATE_BOARD_UNAVAILABLE when no board runs', async () => {
    await expect(
      getIndicativeQuote(env.client, USD_EUR, 1000, {
        maxAgeMs: MIN,
        boardWorkflowId: uniqueWorkflowId('no-board'),
      }),
    ).rejects.toMatchObject({ type: 'RATE_BOARD_UNAVAILABLE' });
  });
});

describe('rateBoard', () => {
  const rate = (m: number) => ({
    midMarketRate: m,
    invertedMidMarketRate: 1 / m,
    serviceFee: { fixed: 1, variable: 0 },
    developerFee: { fixed: 0, variable: 0 },
    quoteId: `q${m}`,
    referenceAmount: 1000,
  });
  const base = Date.parse('2026-11-21T10:00:00Z');

  async function waitForGeneration(boardId: string, generation: number) {
    const handle = env.client.workflow.getHandle(boardId);
    for (let i = 0; i < 200; i++) {
      const snapshot = await handle.query(rateBoardQuery);
      if (snapshot.generation >= generation) return snapshot;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`board ${boardId} never reached generation ${generation}`);
  }

  it('continues-as-new after maxUpdatesPerRun updates and keeps every entry; a late older quote never wins', async () => {
    const fake = new FakeQuoteProvider();
    const boardId = uniqueWorkflowId('rate-board');
    await withQuoteWorker(fake, async (taskQueue) => {
      const handle = await env.client.workflow.start(RATE_BOARD_WORKFLOW_TYPE, {
        taskQueue,
        workflowId: boardId,
        args: [{ maxUpdatesPerRun: 3 }],
      });
      const firstRunId = handle.firstExecutionRunId;
      for (let i = 0; i < 3; i++) {
        await handle.signal(rateBoardUpdateSignal, {
          entries: [
            {
              pair: i % 2 === 0 ? USD_EUR : USD_BRL,
              rate: rate(1 + i),
              fetchedAt: new Date(base + i * MIN).toISOString(),
            },
          ],
          refreshedBy: `test-${i}`,
        });
      }
      const carried = await waitForGeneration(boardId, 1);
      expect(carried.updatesThisRun).toBe(0);
      expect(carried.lastRefreshedBy).toBe('test-2');
      expect(carried.entries.map((e) => [ratePairKey(e.pair), e.rate.midMarketRate])).toEqual([
        [ratePairKey(USD_BRL), 2],
        [ratePairKey(USD_EUR), 3],
      ]);
      const latest = env.client.workflow.getHandle(boardId);
      expect((await latest.describe()).runId).not.toBe(firstRunId);
      expect((await env.client.workflow.getHandle(boardId, firstRunId).describe()).status.name).toBe(
        'CONTINUED_AS_NEW',
      );

      // The new run goes on: an older quote arriving late never replaces the newer one it carried.
      await latest.signal(rateBoardUpdateSignal, {
        entries: [{ pair: USD_EUR, rate: rate(99), fetchedAt: new Date(base - MIN).toISOString() }],
        refreshedBy: 'late',
      });
      let snapshot = await latest.query(rateBoardQuery);
      for (let i = 0; i < 100 && snapshot.updatesThisRun < 1; i++)
        snapshot = await latest.query(rateBoardQuery);
      expect(snapshot.updatesThisRun).toBe(1);
      expect(snapshot.entries.find((e) => e.pair.destinationCurrency === 'EUR')!.rate.midMarketRate).toBe(3);
      expect((await latest.describe()).status.name).toBe('RUNNING');
    });
  });
});
