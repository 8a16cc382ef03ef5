// The quote-refresh Schedule on a real Temporal dev server (the time-skipping test server has no Schedule
// service, see schedule-board.test.ts): it fires, the refresh runs with fake activities, rates land on the
// board; ensureSchedules is idempotent and updates the interval; a paused Schedule stays paused on update.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ScheduleNotFoundError } from '@temporalio/client';
import { ensureSchedules } from '../../../src/client/schedules';
import { runScheduleSubcommand } from '../../../src/cli/schedule';
import { ensureReconcileSchedule, RECONCILE_SCHEDULE_ID } from '../../../src/client/reconcile-schedule';
import { ScheduleOfAnotherTaskQueueError } from '../../../src/client/ensure-schedule';
import { lastCompletedRunOfSchedule } from '../../../activities/last-completed-sweep';
import { getIndicativeQuote, readRateBoard } from '../../../src/client/indicative-quote';
import { rateBoardQuery, ratePairKey } from '../../../workflows/rate-board/api';
import {
  REFRESH_QUOTES_WORKFLOW_TYPE,
  type RefreshQuotesResult,
} from '../../../workflows/refresh-quotes/api';
import {
  createDevServerEnv,
  uniqueTaskQueue,
  uniqueWorkflowId,
  workflowBundle,
} from '../../support/temporal';
import { FakeQuoteProvider, USD_BRL, USD_EUR } from './schedule-fakes';

const WORKFLOWS = require.resolve('./schedule-workflows');

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await createDevServerEnv();
  await workflowBundle(WORKFLOWS);
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

async function eventually<T>(
  read: () => Promise<T>,
  accept: (v: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const started = Date.now();
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() - started < timeoutMs) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not reached in ${timeoutMs} ms; last ${JSON.stringify(last)} ${String(lastError ?? '')}`);
}

it('fires on its interval, lands rates on the board, and a second ensureSchedules updates instead of failing', async () => {
  const fake = new FakeQuoteProvider();
  const taskQueue = uniqueTaskQueue('quote-refresh');
  const scheduleId = uniqueWorkflowId('quote-refresh');
  const boardWorkflowId = uniqueWorkflowId('rate-board');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS),
    activities: fake.activities(),
  });
  const config = {
    taskQueue,
    scheduleId,
    boardWorkflowId,
    intervalMs: 2000,
    pauseBetweenCallsMs: 100,
    pairs: [USD_EUR, USD_BRL],
  };
  await worker.runUntil(async () => {
    const first = await ensureSchedules(env.client, config);
    try {
      expect(first.created).toBe(true);
      const described = await first.handle.describe();
      expect(described.policies.overlap).toBe('SKIP');
      expect(described.policies.catchupWindow).toBe(60_000);
      expect(described.spec.intervals?.[0]?.every).toBe(2000);
      expect(described.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: REFRESH_QUOTES_WORKFLOW_TYPE,
        taskQueue,
      });

      // The Schedule fires (no trigger): rates land on the board.
      const entries = await eventually(
        () => readRateBoard(env.client, boardWorkflowId),
        (e) => e.length === 2,
        20_000,
      );
      expect(entries.map((e) => ratePairKey(e.pair))).toEqual([ratePairKey(USD_BRL), ratePairKey(USD_EUR)]);
      const quote = await getIndicativeQuote(env.client, USD_EUR, 1000, {
        maxAgeMs: 60_000,
        boardWorkflowId,
      });
      expect(quote.ageMs).toBeLessThan(60_000);
      expect(quote.destinationAmount).toBeGreaterThan(0);

      // It keeps firing: a later refresh signals the running board.
      const callsBefore = fake.rateCalls().length;
      await eventually(
        async () => fake.rateCalls().length,
        (n) => n >= callsBefore + 2,
        20_000,
      );
      const recent = (await first.handle.describe()).info.recentActions;
      expect(recent.length).toBeGreaterThanOrEqual(2);
      // ensureSchedules started the board; every refresh signalled it (no second board run).
      const board = await eventually(
        () => env.client.workflow.getHandle(boardWorkflowId).query(rateBoardQuery),
        (b) => b.updatesThisRun >= 2,
        10_000,
      );
      expect(board.generation).toBe(0);
      expect(board.lastRefreshedBy).toMatch(new RegExp(`^schedule:${scheduleId}-\\d{4}-`));

      // the sweep's look-back reads a Schedule's newest completed run from the Schedule itself (last-completed-sweep.ts)
      const completed = await eventually(
        () => lastCompletedRunOfSchedule(env.client, taskQueue, scheduleId),
        (at) => at !== null,
        20_000,
      );
      const completedRuns: number[] = [];
      for (const { action } of (await first.handle.describe()).info.recentActions) {
        if (action.type !== 'startWorkflow') continue;
        const d = await env.client.workflow
          .getHandle(action.workflow.workflowId, action.workflow.firstExecutionRunId)
          .describe();
        if (d.status.name === 'COMPLETED') completedRuns.push(d.startTime.getTime());
      }
      expect(completedRuns).toContain(completed);
      expect(completed).toBe(Math.max(...completedRuns.filter((t) => t <= completed!)));
      // a Schedule of another task queue says nothing of this one's
      expect(await lastCompletedRunOfSchedule(env.client, 'another-task-queue', scheduleId)).toBeNull();

      // Second call: no "already exists", the interval is updated; a paused Schedule stays paused.
      await first.handle.pause('test: operator pause');
      const second = await ensureSchedules(env.client, { ...config, intervalMs: 5000 });
      expect(second.created).toBe(false);
      const updated = await second.handle.describe();
      expect(updated.spec.intervals?.[0]?.every).toBe(5000);
      expect(updated.state.paused).toBe(true);
      expect(updated.policies.overlap).toBe('SKIP');
    } finally {
      await first.handle.delete();
    }
  });
}, 90_000);

it('xborder schedule: create, create again (update), pause, describe, unpause, trigger, delete', async () => {
  const scheduleId = uniqueWorkflowId('cli-schedule');
  const taskQueue = uniqueTaskQueue('cli-schedule');
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  const run = (
    sub: Parameters<typeof runScheduleSubcommand>[1],
    extra: { json?: boolean; note?: string } = {},
  ) => runScheduleSubcommand(env.client, sub, { scheduleId, taskQueue, json: false, ...extra });
  try {
    expect(await run('create')).toBe(0);
    expect(lines.pop()).toMatch(
      new RegExp(`^created Schedule ${scheduleId}: every 60000 ms, 5 pairs \\(USD:ACH>EUR:LOCAL`),
    );
    expect(await run('create')).toBe(0);
    expect(lines.pop()).toMatch(/^updated Schedule/);
    expect(await run('pause', { note: 'maintenance' })).toBe(0);
    expect(await run('describe', { json: true })).toBe(0);
    expect(JSON.parse(lines.pop()!)).toMatchObject({
      scheduleId,
      paused: true,
      note: 'maintenance',
      overlap: 'SKIP',
      catchupWindowMs: 60_000,
    });
    expect(await run('unpause')).toBe(0);
    expect(await run('trigger')).toBe(0);
    await eventually(
      () => client().describe(),
      (d) => d.info.recentActions.length >= 1,
      10_000,
    );
    expect(await run('describe')).toBe(0);
    expect(lines.pop()).toMatch(
      new RegExp(`Schedule ${scheduleId}\\n[\\s\\S]*recent runs: +\\S+ schedule:${scheduleId}-\\d{4}-`),
    );
    expect(await run('delete')).toBe(0);
    await expect(client().describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  } finally {
    log.mockRestore();
    await client()
      .delete()
      .catch(() => undefined);
  }
  function client() {
    return env.client.schedule.getHandle(scheduleId);
  }
}, 60_000);

it('refreshQuotes starts a missing board as an abandoned child, then signals it (real server)', async () => {
  const fake = new FakeQuoteProvider();
  const taskQueue = uniqueTaskQueue('refresh-direct');
  const boardWorkflowId = uniqueWorkflowId('rate-board');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS),
    activities: fake.activities(),
  });
  await worker.runUntil(async () => {
    const run = (): Promise<RefreshQuotesResult> =>
      env.client.workflow.execute(REFRESH_QUOTES_WORKFLOW_TYPE, {
        taskQueue,
        workflowId: uniqueWorkflowId('refresh'),
        args: [{ pairs: [USD_EUR], pauseBetweenCallsMs: 0, boardWorkflowId }],
      });
    expect((await run()).delivery).toBe('started');
    fake.tick();
    expect((await run()).delivery).toBe('signal');
    const board = await env.client.workflow.getHandle(boardWorkflowId).query(rateBoardQuery);
    expect(board.updatesThisRun).toBe(1);
    expect(board.entries).toHaveLength(1);
    expect(board.entries[0]!.rate.midMarketRate).toBeCloseTo(0.909, 6);
    await env.client.workflow.getHandle(boardWorkflowId).terminate('test done');
  });
}, 60_000);

it('xborder schedule create --id payment-reconcile creates the reconcile Schedule (a deployment whose workers make none: Lambda)', async () => {
  const taskQueue = uniqueTaskQueue('cli-reconcile');
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
  const handle = env.client.schedule.getHandle(RECONCILE_SCHEDULE_ID);
  try {
    expect(
      await runScheduleSubcommand(env.client, 'create', {
        scheduleId: RECONCILE_SCHEDULE_ID,
        taskQueue,
        json: false,
      }),
    ).toBe(0);
    expect(lines.pop()).toMatch(
      new RegExp(
        `^(created|updated) Schedule ${RECONCILE_SCHEDULE_ID}: reconcilePayments every 900000 ms, task queue ${taskQueue}`,
      ),
    );
    const described = await handle.describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'reconcilePayments' });
  } finally {
    log.mockRestore();
    await handle.delete().catch(() => undefined);
  }
}, 60_000);

it('two deployments in one namespace each keep a reconcile Schedule of their own; one given by ID is never taken over', async () => {
  const first = uniqueTaskQueue('deployment-a');
  const second = uniqueTaskQueue('deployment-b');
  const made: string[] = [RECONCILE_SCHEDULE_ID];
  const queueOf = async (scheduleId: string) => {
    const { action } = await env.client.schedule.getHandle(scheduleId).describe();
    return action.type === 'startWorkflow' ? action.taskQueue : undefined;
  };
  try {
    expect(await ensureReconcileSchedule(env.client, { taskQueue: first })).toEqual({
      scheduleId: RECONCILE_SCHEDULE_ID,
      created: true,
    });
    // the second deployment's worker starts: the first keeps its sweep, the second gets one named after its queue
    const theirs = await ensureReconcileSchedule(env.client, { taskQueue: second });
    made.push(theirs.scheduleId);
    expect(theirs).toMatchObject({ scheduleId: `${RECONCILE_SCHEDULE_ID}-${second}`, created: true });
    expect(theirs.instead).toContain(first);
    expect(await queueOf(RECONCILE_SCHEDULE_ID)).toBe(first);
    expect(await queueOf(theirs.scheduleId)).toBe(second);
    // each restart finds its own again (updated, not another)
    expect(await ensureReconcileSchedule(env.client, { taskQueue: first })).toEqual({
      scheduleId: RECONCILE_SCHEDULE_ID,
      created: false,
    });
    expect(await ensureReconcileSchedule(env.client, { taskQueue: second })).toMatchObject({
      scheduleId: theirs.scheduleId,
      created: false,
    });
    // an ID the operator chose, held by another task queue: refused, named, left as it is
    const refused = ensureReconcileSchedule(env.client, {
      taskQueue: second,
      scheduleId: RECONCILE_SCHEDULE_ID,
    });
    await expect(refused).rejects.toBeInstanceOf(ScheduleOfAnotherTaskQueueError);
    await expect(refused).rejects.toThrow(
      new RegExp(`task queue "${first}", not on this deployment's "${second}"`),
    );
    expect(await queueOf(RECONCILE_SCHEDULE_ID)).toBe(first);
    // the first deployment goes (its Schedule deleted, as docs/operations.md says): the second keeps its own and does
    // not take the freed default too (two sweeps on one task queue)
    await env.client.schedule.getHandle(RECONCILE_SCHEDULE_ID).delete();
    expect(await ensureReconcileSchedule(env.client, { taskQueue: second })).toMatchObject({
      scheduleId: theirs.scheduleId,
      created: false,
    });
    await expect(env.client.schedule.getHandle(RECONCILE_SCHEDULE_ID).describe()).rejects.toBeInstanceOf(
      ScheduleNotFoundError,
    );
    // the quote refresh likewise (its ID is always the configured one): never moved to another queue
    const quoteId = uniqueWorkflowId('quote-refresh');
    made.push(quoteId);
    const quote = { scheduleId: quoteId, boardWorkflowId: uniqueWorkflowId('rate-board') };
    await ensureSchedules(env.client, { ...quote, taskQueue: first });
    await expect(ensureSchedules(env.client, { ...quote, taskQueue: second })).rejects.toBeInstanceOf(
      ScheduleOfAnotherTaskQueueError,
    );
    expect(await queueOf(quoteId)).toBe(first);
  } finally {
    for (const id of made)
      await env.client.schedule
        .getHandle(id)
        .delete()
        .catch(() => undefined);
  }
}, 60_000);
