// reconcileRecentPayments reads GET /payments page by page (each page a call of the key's rate budget) and records
// its place after every page: a 429 in the middle is waited out (Retry-After plus jitter) and the same page asked
// again, and a retry of the activity goes on from the last recorded page, never from page 1.
import { createReconcileActivities, type ReconcileProgress } from '../../../activities/reconcile-activities';
import { normalizePayment, type Payment } from '../../../src/contract';
import { errorFromResponse } from '../../../src/provider/error-mapping';
import { currentPayment } from '../contract/fixtures';
import { recordingClient } from '../../support/recording-client';

const SINCE = '2026-11-21T00:00:00Z';

function payin(i: number): Payment {
  return normalizePayment({
    ...currentPayment(),
    id: `pay_in_${i}`,
    type: 'PAYIN',
    lifecycle: { ...currentPayment().lifecycle, createdAt: '2026-11-21T10:00:00Z' },
  });
}

/** Five pages of two PAYINs; cursors c1..c4. `failOnce` pages answer one 429 first. */
function pagedPort(failOnce: string[] = []) {
  const asked: Array<string | undefined> = [];
  const failing = new Set(failOnce);
  const pages = Array.from({ length: 5 }, (_, n) => [payin(2 * n), payin(2 * n + 1)]);
  const port = {
    payments: {
      async list(query: { limit?: number; cursor?: string } = {}) {
        asked.push(query.cursor);
        const n = query.cursor === undefined ? 0 : Number(query.cursor.slice(1));
        const key = query.cursor ?? 'first';
        if (failing.delete(key)) {
          throw errorFromResponse(
            { method: 'GET', path: '/v1/payments', status: 429, isCreatingCall: false, retryAfterMs: 2_000 },
            { code: 'RATE_LIMITED' },
          );
        }
        return { data: pages[n]!, nextCursor: n < 4 ? `c${n + 1}` : null };
      },
    },
  };
  return { port, asked };
}

function activitiesOver(port: ReturnType<typeof pagedPort>['port'], lastProgress?: ReconcileProgress) {
  const { client, calls } = recordingClient();
  const beats: ReconcileProgress[] = [];
  const slept: number[] = [];
  const activities = createReconcileActivities({
    provider: port as never,
    client: () => client,
    taskQueue: () => 'q',
    heartbeat: (d) => beats.push(structuredClone(d)),
    lastProgress: () => lastProgress,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });
  return { activities, calls, beats, slept };
}

describe('reconcileRecentPayments: page by page, resumable', () => {
  it('one 429 on page 3 is waited out (Retry-After plus jitter) and page 3 asked again: page 1 is read once', async () => {
    const { port, asked } = pagedPort(['c2']);
    const { activities, beats, slept } = activitiesOver(port);
    const result = await activities.reconcileRecentPayments({ since: SINCE });
    expect(asked).toEqual([undefined, 'c1', 'c2', 'c2', 'c3', 'c4']);
    expect(result.listed).toBe(10);
    expect(result.signalled).toHaveLength(10);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThan(2_000);
    // its place after every page, the last one finished
    expect(beats.filter((b) => b.cursor !== null || b.finished).map((b) => b.cursor)).toEqual(
      expect.arrayContaining(['c1', 'c2', 'c3', 'c4']),
    );
    expect(beats.at(-1)).toMatchObject({ since: SINCE, cursor: null, finished: true, listed: 10 });
  });

  it('a retry of the activity goes on from the last recorded page, with what it had counted, and never reads page 1', async () => {
    const { port, asked } = pagedPort();
    const earlier: ReconcileProgress = {
      since: SINCE,
      cursor: 'c3',
      finished: false,
      listed: 6,
      signalled: ['pay_in_0', 'pay_in_1', 'pay_in_2', 'pay_in_3', 'pay_in_4', 'pay_in_5'],
      followedSignalled: 0,
    };
    const { activities, calls } = activitiesOver(port, earlier);
    const result = await activities.reconcileRecentPayments({ since: SINCE });
    expect(asked).toEqual(['c3', 'c4']);
    expect(calls).toHaveLength(4); // only pages 4 and 5 signalled now
    expect(result).toMatchObject({ listed: 10, followedSignalled: 0 });
    expect(result.signalled).toEqual(Array.from({ length: 10 }, (_, i) => `pay_in_${i}`));
  });

  it('the place of another run (another window) is not resumed', async () => {
    const { port, asked } = pagedPort();
    const other: ReconcileProgress = {
      since: '2026-11-20T00:00:00Z',
      cursor: 'c3',
      finished: false,
      listed: 6,
      signalled: [],
      followedSignalled: 0,
    };
    const { activities } = activitiesOver(port, other);
    await activities.reconcileRecentPayments({ since: SINCE });
    expect(asked[0]).toBeUndefined();
  });

  it('a 429 that does not stop is waited out a bounded number of times, then the activity fails (and resumes from its place)', async () => {
    const asked: Array<string | undefined> = [];
    const port = {
      payments: {
        async list(query: { cursor?: string } = {}) {
          asked.push(query.cursor);
          if (query.cursor === 'c1')
            throw errorFromResponse(
              {
                method: 'GET',
                path: '/v1/payments',
                status: 429,
                isCreatingCall: false,
                retryAfterMs: 1_000,
              },
              {},
            );
          return { data: [payin(0)], nextCursor: 'c1' };
        },
      },
    };
    const { activities, beats } = activitiesOver(port as never);
    await expect(activities.reconcileRecentPayments({ since: SINCE })).rejects.toMatchObject({
      type: 'RateLimitedError',
      nonRetryable: false,
    });
    expect(asked.filter((c) => c === undefined)).toHaveLength(1);
    expect(beats.at(-1)).toMatchObject({ cursor: 'c1', finished: false, listed: 1 });
  });
});
