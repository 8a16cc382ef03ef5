// P1: N starts at concurrency C (update-with-start returned = `created`), then fund all and wait
// for every outcome; the same for the skeleton, and for the two-workflow skeleton (its create also starts a second
// workflow, as the payment's starts its entity), on the same server, one after the other in the same run.
import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../context';
import { percentile, median, runPool, sleep } from '../stats';
import type { Started, Subject, SubjectKind } from '../subjects';
import { describeStraggler, undeliveredWebhooks } from '../straggler';
import {
  persistenceSnapshot,
  persistenceTable,
  perUnit,
  type PersistenceSnapshot,
} from '../persistence-profile';

interface P1Figures {
  startsPerSec: number;
  createdP50: number;
  createdP99: number;
  sequentialP50: number;
  fundToCompletedMs: number;
  /** `--engine postgres`: what the server wrote per workflow started (the burst) and per one funded to its end */
  persistence?: { perStart: PersistenceSnapshot; perFunded: PersistenceSnapshot };
}

async function startAll(
  ctx: BenchContext,
  subject: Subject,
  count: number,
  concurrency: number,
  label: string,
): Promise<{ started: Started[]; elapsedMs: number }> {
  const prefix = `bench-${subject.kind}-${randomUUID().slice(0, 6)}`;
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const began = performance.now();
  const results = await runPool(
    keys,
    concurrency,
    (key) => subject.start(key),
    (done) => ctx.progress.update(`${label}: ${done}/${count} created`),
  );
  const elapsedMs = performance.now() - began;
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0)
    throw new Error(
      `${label}: ${failed.length} starts failed, first: ${String((failed[0] as PromiseRejectedResult).reason)}`,
    );
  return { started: results.map((r) => (r as PromiseFulfilledResult<Started>).value), elapsedMs };
}

export interface Completion {
  /** fund → the last payment that ended within the window */
  elapsedMs: number;
  completed: number;
  /** not ended when the window closed (late or lost) */
  notEndedInWindow: number;
  /** ended COMPLETED after the window, within `--lateWait` minutes more: "id: minutes late" */
  late: string[];
  lost: string[];
  /** what the stack said about each payment not ended when the window closed (straggler.ts) */
  stragglers: string[];
}

const NOT_ENDED = 'NOT ENDED in time';

/**
 * Funds every one and waits for every outcome. A payment that has not ended when the window closes (180 s +
 * 300 ms per payment: the dev server completes ≈ 5 funded payments/s, so 10,000 parked need ≈ 35 minutes) is
 * described (straggler.ts) and waited for up to `--lateWait` minutes more: late if it completes then, lost if not.
 */
export async function fundAndComplete(
  ctx: BenchContext,
  subject: Subject,
  started: readonly Started[],
  concurrency: number,
  label: string,
): Promise<Completion> {
  const began = performance.now();
  const funded = await runPool(
    started,
    concurrency,
    (s) => subject.fund(s),
    (done) => ctx.progress.update(`${label}: ${done}/${started.length} funded`),
  );
  const deadline = Date.now() + 180_000 + 300 * started.length;
  let lastEndedMs = 0;
  const outcomeOf = new Map<number, Promise<string>>();
  const outcome = (i: number) => {
    if (!outcomeOf.has(i)) outcomeOf.set(i, subject.outcome(started[i]!));
    return outcomeOf.get(i)!;
  };
  const outcomes = await runPool(
    started,
    Math.max(concurrency, 50),
    async (_s, i) => {
      if (funded[i]!.status !== 'fulfilled')
        return `NOT FUNDED: ${String((funded[i] as PromiseRejectedResult).reason)}`;
      const ended = await Promise.race([
        outcome(i),
        sleep(Math.max(0, deadline - Date.now())).then(() => NOT_ENDED),
      ]);
      if (ended !== NOT_ENDED) lastEndedMs = performance.now() - began;
      return ended;
    },
    (done) => ctx.progress.update(`${label}: ${done}/${started.length} ended`),
  );
  const notEnded = outcomes.flatMap((o, i) => (o.status === 'fulfilled' && o.value === NOT_ENDED ? [i] : []));
  const result: Completion = {
    elapsedMs: lastEndedMs,
    completed: 0,
    notEndedInWindow: notEnded.length,
    late: [],
    lost: [],
    stragglers: [],
  };
  if (notEnded.length > 0)
    result.stragglers = await describeAll(ctx, subject, started, notEnded, 'when the window closed');
  if (notEnded.length > 0 && ctx.options.lateWait > 0) {
    ctx.progress.log(
      `${label}: ${notEnded.length} not ended when the window closed; waiting up to ${ctx.options.lateWait} min more`,
    );
    const windowClosed = Date.now();
    const lateDeadline = windowClosed + ctx.options.lateWait * 60_000;
    const endedAfter = new Map<number, number>();
    const again = await runPool(notEnded, 50, async (i) => {
      const ended = await Promise.race([
        outcome(i),
        sleep(Math.max(0, lateDeadline - Date.now())).then(() => NOT_ENDED),
      ]);
      endedAfter.set(i, Date.now() - windowClosed);
      return ended;
    });
    notEnded.forEach((i, j) => {
      const o = again[j]!;
      outcomes[i] = o;
      if (o.status === 'fulfilled' && o.value === 'COMPLETED')
        result.late.push(
          `${started[i]!.workflowId}: ${(endedAfter.get(i)! / 60_000).toFixed(1)} min after the window`,
        );
    });
    const stillNot = notEnded.filter(
      (i) =>
        outcomes[i]!.status === 'fulfilled' &&
        (outcomes[i] as PromiseFulfilledResult<string>).value === NOT_ENDED,
    );
    if (stillNot.length > 0)
      result.stragglers.push(
        ...(await describeAll(ctx, subject, started, stillNot, `${ctx.options.lateWait} min later`)),
      );
  }
  result.lost = outcomes.flatMap((o, i) => {
    if (o.status === 'fulfilled' && o.value === 'COMPLETED') return [];
    return [`${started[i]!.workflowId}: ${o.status === 'fulfilled' ? o.value : String(o.reason)}`];
  });
  result.completed = started.length - result.lost.length;
  return result;
}

async function describeAll(
  ctx: BenchContext,
  subject: Subject,
  started: readonly Started[],
  indices: readonly number[],
  when: string,
): Promise<string[]> {
  if (subject.kind !== 'payment') return indices.map((i) => `${when}: ${started[i]!.workflowId}`);
  const undelivered = await undeliveredWebhooks(ctx.stack.sandbox).catch(() => new Map<string, string[]>());
  const deps = { client: ctx.stack.client, provider: ctx.stack.provider, undelivered };
  const lines: string[] = [];
  for (const i of indices.slice(0, 20))
    lines.push(`${when}: ${await describeStraggler(deps, started[i]!.workflowId, started[i]!.createdId)}`);
  if (indices.length > 20) lines.push(`${when}: … and ${indices.length - 20} more`);
  for (const line of lines) ctx.progress.log(line);
  return lines;
}

async function measure(ctx: BenchContext, kind: SubjectKind): Promise<P1Figures> {
  const { n, concurrency, sequential } = ctx.options;
  const { worker, subject } = await ctx.worker(kind);
  try {
    await startAll(ctx, subject, Math.min(3, n), 3, `P1 ${kind} warm-up`);
    // On PostgreSQL, its statistics around the burst and around the funding (each snapshot waits 11 s for them).
    const pg = ctx.stack.postgres;
    const beforeBurst = pg ? await persistenceSnapshot(pg) : null;
    const burst = await startAll(ctx, subject, n, concurrency, `P1 ${kind}`);
    const afterBurst = pg ? await persistenceSnapshot(pg) : null;
    const one = await startAll(ctx, subject, sequential, 1, `P1 ${kind} one at a time`);
    const beforeFund = pg ? await persistenceSnapshot(pg) : null;
    const completion = await fundAndComplete(ctx, subject, burst.started, concurrency, `P1 ${kind}`);
    const afterFund = pg ? await persistenceSnapshot(pg) : null;
    if (completion.lost.length > 0)
      throw new Error(`P1 ${kind}: ${completion.lost.length} did not complete, first: ${completion.lost[0]}`);
    if (completion.late.length > 0)
      ctx.notes.push(
        `P1 ${kind}: ${completion.late.length} COMPLETED after the window (fund → COMPLETED counts the window only): ${completion.late.slice(0, 3).join('; ')}`,
      );
    const latencies = burst.started.map((s) => s.createdMs);
    return {
      startsPerSec: (n / burst.elapsedMs) * 1000,
      createdP50: median(latencies),
      createdP99: percentile(latencies, 99),
      sequentialP50: median(one.started.map((s) => s.createdMs)),
      fundToCompletedMs: completion.elapsedMs,
      ...(beforeBurst && afterBurst && beforeFund && afterFund
        ? {
            persistence: {
              perStart: perUnit(beforeBurst, afterBurst, n),
              perFunded: perUnit(beforeFund, afterFund, n),
            },
          }
        : {}),
    };
  } finally {
    await worker.stop();
  }
}

export async function runP1(ctx: BenchContext): Promise<void> {
  const skeleton = await measure(ctx, 'skeleton');
  ctx.progress.log(`P1 skeleton: ${skeleton.startsPerSec.toFixed(1)} starts/s`);
  const pair = await measure(ctx, 'skeleton-pair');
  ctx.progress.log(`P1 two-workflow skeleton: ${pair.startsPerSec.toFixed(1)} starts/s`);
  const payment = await measure(ctx, 'payment');
  ctx.progress.log(`P1 payment: ${payment.startsPerSec.toFixed(1)} starts/s`);
  const { n, concurrency } = ctx.options;
  const row = (figure: string, key: Exclude<keyof P1Figures, 'persistence'>, unit: string) =>
    ctx.row({
      scenario: 'P1',
      figure,
      value: payment[key],
      baseline: skeleton[key],
      ratioLabel: 'payment / skeleton',
      unit,
    });
  row(`starts/s (${n} at concurrency ${concurrency}, update-with-start returned)`, 'startsPerSec', '/s');
  row(`time to created p50, concurrency ${concurrency}`, 'createdP50', 'ms');
  row(`time to created p99, concurrency ${concurrency}`, 'createdP99', 'ms');
  row(`time to created p50, concurrency 1`, 'sequentialP50', 'ms');
  row(
    `fund → all ${n} COMPLETED (payment: includes the sandbox's 3 × 100 ms steps and webhooks)`,
    'fundToCompletedMs',
    'ms',
  );
  // The floor of a design with a second workflow per payment (the payment's provider-payment entity): what
  // starting it costs Temporal alone, and the payment against that floor.
  const pairRow = (figure: string, key: Exclude<keyof P1Figures, 'persistence'>, unit: string) => {
    ctx.row({
      scenario: 'P1',
      figure: `${figure}: two-workflow skeleton vs skeleton`,
      value: pair[key],
      baseline: skeleton[key],
      ratioLabel: 'pair / skeleton',
      unit,
    });
    ctx.row({
      scenario: 'P1',
      figure: `${figure}: payment vs two-workflow skeleton`,
      value: payment[key],
      baseline: pair[key],
      ratioLabel: 'payment / pair',
      unit,
    });
  };
  pairRow('starts/s', 'startsPerSec', '/s');
  pairRow(`created p50, concurrency ${concurrency}`, 'createdP50', 'ms');
  pairRow('created p50, concurrency 1', 'sequentialP50', 'ms');
  if (skeleton.persistence && pair.persistence && payment.persistence) {
    const columns = (which: 'perStart' | 'perFunded') => [
      { label: 'skeleton', profile: skeleton.persistence![which] },
      { label: 'two-workflow skeleton', profile: pair.persistence![which] },
      { label: 'payment', profile: payment.persistence![which] },
    ];
    const table = (which: 'perStart' | 'perFunded', what: string) =>
      `P1 on PostgreSQL, ${what} (pg_stat_database commits, pg_stat_user_tables rows inserted + updated + deleted; commits include the server's background work during the window):\n\n${persistenceTable(which === 'perStart' ? 'per start' : 'per funded', columns(which))}\n`;
    ctx.notes.push(
      table(
        'perStart',
        `what the server wrote per workflow started (the ${n}-start burst and 11 s after it)`,
      ),
    );
    ctx.notes.push(
      table(
        'perFunded',
        `what the server wrote per payment funded, from the fund call to its end (+ 11 s; ${ctx.options.sequential} parked ones idle meanwhile)`,
      ),
    );
  }
}
