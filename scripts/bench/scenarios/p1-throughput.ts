// P1 (issue 12): N starts at concurrency C (update-with-start returned = `created`), then fund all and wait
// for every outcome; the same for the skeleton on the same server, one after the other in the same run.
import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../context';
import { percentile, median, runPool, sleep } from '../stats';
import type { Started, Subject, SubjectKind } from '../subjects';

interface P1Figures {
  startsPerSec: number;
  createdP50: number;
  createdP99: number;
  sequentialP50: number;
  fundToCompletedMs: number;
}

async function startAll(ctx: BenchContext, subject: Subject, count: number, concurrency: number, label: string): Promise<{ started: Started[]; elapsedMs: number }> {
  const prefix = `bench-${subject.kind}-${randomUUID().slice(0, 6)}`;
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const began = performance.now();
  const results = await runPool(keys, concurrency, (key) => subject.start(key), (done) => ctx.progress.update(`${label}: ${done}/${count} created`));
  const elapsedMs = performance.now() - began;
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0) throw new Error(`${label}: ${failed.length} starts failed, first: ${String((failed[0] as PromiseRejectedResult).reason)}`);
  return { started: results.map((r) => (r as PromiseFulfilledResult<Started>).value), elapsedMs };
}

/** Funds every one and waits for every outcome; throws when one did not end COMPLETED. */
export async function fundAndComplete(ctx: BenchContext, subject: Subject, started: readonly Started[], concurrency: number, label: string): Promise<{ elapsedMs: number; completed: number; lost: string[] }> {
  const began = performance.now();
  const funded = await runPool(started, concurrency, (s) => subject.fund(s), (done) => ctx.progress.update(`${label}: ${done}/${started.length} funded`));
  // A payment that never ends is counted lost rather than hanging the bench. 300 ms per payment: the dev server
  // completes ≈ 5 funded payments/s, so 10,000 parked (P2 at the size) need ≈ 35 minutes after funding.
  const deadline = Date.now() + 180_000 + 300 * started.length;
  const outcomes = await runPool(
    started,
    Math.max(concurrency, 50),
    async (s, i) =>
      funded[i]!.status === 'fulfilled'
        ? Promise.race([subject.outcome(s), sleep(Math.max(0, deadline - Date.now())).then(() => 'NOT ENDED in time')])
        : `NOT FUNDED: ${String((funded[i] as PromiseRejectedResult).reason)}`,
    (done) => ctx.progress.update(`${label}: ${done}/${started.length} ended`),
  );
  const lost = outcomes.flatMap((o, i) => (o.status === 'fulfilled' && o.value === 'COMPLETED' ? [] : [`${started[i]!.workflowId}: ${o.status === 'fulfilled' ? o.value : String(o.reason)}`]));
  return { elapsedMs: performance.now() - began, completed: started.length - lost.length, lost };
}

async function measure(ctx: BenchContext, kind: SubjectKind): Promise<P1Figures> {
  const { n, concurrency, sequential } = ctx.options;
  const { worker, subject } = await ctx.worker(kind);
  try {
    await startAll(ctx, subject, Math.min(3, n), 3, `P1 ${kind} warm-up`);
    const burst = await startAll(ctx, subject, n, concurrency, `P1 ${kind}`);
    const one = await startAll(ctx, subject, sequential, 1, `P1 ${kind} one at a time`);
    const completion = await fundAndComplete(ctx, subject, burst.started, concurrency, `P1 ${kind}`);
    if (completion.lost.length > 0) throw new Error(`P1 ${kind}: ${completion.lost.length} did not complete, first: ${completion.lost[0]}`);
    const latencies = burst.started.map((s) => s.createdMs);
    return {
      startsPerSec: (n / burst.elapsedMs) * 1000,
      createdP50: median(latencies),
      createdP99: percentile(latencies, 99),
      sequentialP50: median(one.started.map((s) => s.createdMs)),
      fundToCompletedMs: completion.elapsedMs,
    };
  } finally {
    await worker.stop();
  }
}

export async function runP1(ctx: BenchContext): Promise<void> {
  const skeleton = await measure(ctx, 'skeleton');
  ctx.progress.log(`P1 skeleton: ${skeleton.startsPerSec.toFixed(1)} starts/s`);
  const payment = await measure(ctx, 'payment');
  ctx.progress.log(`P1 payment: ${payment.startsPerSec.toFixed(1)} starts/s`);
  const { n, concurrency } = ctx.options;
  const row = (figure: string, key: keyof P1Figures, unit: string) =>
    ctx.row({ scenario: 'P1', figure, value: payment[key], baseline: skeleton[key], ratioLabel: 'payment / skeleton', unit });
  row(`starts/s (${n} at concurrency ${concurrency}, update-with-start returned)`, 'startsPerSec', '/s');
  row(`time to created p50, concurrency ${concurrency}`, 'createdP50', 'ms');
  row(`time to created p99, concurrency ${concurrency}`, 'createdP99', 'ms');
  row(`time to created p50, concurrency 1`, 'sequentialP50', 'ms');
  row(`fund → all ${n} COMPLETED (payment: includes the sandbox's 3 × 100 ms steps and webhooks)`, 'fundToCompletedMs', 'ms');
}
