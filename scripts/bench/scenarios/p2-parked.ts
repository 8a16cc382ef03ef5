// P2: what a parked payment costs the worker, and N parked payments with the worker held to a
// memory budget (maxCachedWorkflows): all funded, all COMPLETED, none lost; peak RSS; and how long a signal
// takes to be handled by a payment still in the cache against one evicted from it (replayed).
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { BenchContext } from '../context';
import { percentile, runPool, sleep } from '../stats';
import type { Started, Subject, SubjectKind } from '../subjects';
import { fundAndComplete } from './p1-throughput';

/**
 * Starts `count` and returns once all are `created`. A start refused on an overloaded worker ("Workflow Task in
 * failed state": a task that timed out) is asked again with the same key, as a caller would: it attaches to the
 * same workflow. `retried` counts those; a start still refused after that throws.
 */
async function park(
  ctx: BenchContext,
  subject: Subject,
  count: number,
  label: string,
): Promise<Started[] & { retried?: number }> {
  const prefix = `bench-park-${subject.kind}-${randomUUID().slice(0, 6)}`;
  const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const results = await runPool(
    keys,
    ctx.options.concurrency,
    (key) => subject.start(key),
    (done) => ctx.progress.update(`${label}: ${done}/${count} parked`),
  );
  let retried = 0;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const failedAt = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
    if (failedAt.length === 0) break;
    if (attempt === 1) {
      retried = failedAt.length;
      ctx.notes.push(
        `${label}: ${failedAt.length} starts refused at first (${String((results[failedAt[0]!] as PromiseRejectedResult).reason)}); asked again with the same key`,
      );
    }
    await sleep(2_000 * attempt);
    const again = await runPool(failedAt, ctx.options.concurrency, (i) => subject.start(keys[i]!));
    failedAt.forEach((i, j) => (results[i] = again[j]!));
  }
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length > 0)
    throw new Error(
      `${label}: ${failed.length} starts failed, first: ${String((failed[0] as PromiseRejectedResult).reason)}`,
    );
  return Object.assign(
    results.map((r) => (r as PromiseFulfilledResult<Started>).value),
    { retried },
  );
}

/** Worker RSS growth per parked workflow (payment: the payment and its provider-payment entity), all cached. */
async function rssPerParked(ctx: BenchContext, kind: SubjectKind): Promise<number> {
  const count = ctx.options.rssWorkflows;
  const { worker, subject } = await ctx.worker(kind, { maxCachedWorkflows: count * 2 + 100 });
  try {
    await park(ctx, subject, 3, `P2 ${kind} warm-up`);
    await sleep(1_000);
    const before = await worker.memory();
    await park(ctx, subject, count, `P2 ${kind} RSS`);
    await sleep(2_000); // let the last workflow tasks (entity start, subscribe signal) finish
    const after = await worker.memory();
    return (after.rssKb - before.rssKb) / count;
  } finally {
    await worker.stop();
  }
}

function tsMs(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return Number(String(ts?.seconds ?? 0)) * 1000 + (ts?.nanos ?? 0) / 1e6;
}

/**
 * Sends the no-op signal and reads, from the history's server timestamps, how long from the signal to the end
 * of the workflow task that handled it (a cached workflow runs it at once; an evicted one is replayed first).
 */
async function signalToHandledMs(client: Client, subject: Subject, started: Started): Promise<number> {
  const handle = client.workflow.getHandle(started.workflowId);
  const seenBefore = (await handle.fetchHistory()).events?.length ?? 0;
  await subject.noopSignal(started);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const events = (await handle.fetchHistory()).events ?? [];
    const signalled = events.findIndex(
      (e, i) => i >= seenBefore && e.workflowExecutionSignaledEventAttributes,
    );
    const taskStarted =
      signalled < 0 ? -1 : events.findIndex((e, i) => i > signalled && e.workflowTaskStartedEventAttributes);
    const taskDone =
      taskStarted < 0
        ? -1
        : events.findIndex((e, i) => i > taskStarted && e.workflowTaskCompletedEventAttributes);
    if (taskDone >= 0) return tsMs(events[taskDone]!.eventTime) - tsMs(events[signalled]!.eventTime);
    if (Date.now() > deadline)
      throw new Error(`${started.workflowId}: the probe signal was not handled in time`);
    await sleep(100);
  }
}

async function probeAll(
  ctx: BenchContext,
  subject: Subject,
  sample: readonly Started[],
  label: string,
): Promise<number[]> {
  const latencies: number[] = [];
  for (const started of sample) {
    latencies.push(await signalToHandledMs(ctx.stack.client, subject, started)); // one at a time: no queueing
    ctx.progress.update(`${label}: ${latencies.length}/${sample.length} probed`);
  }
  return latencies;
}

async function parkedAtBudget(ctx: BenchContext): Promise<void> {
  const { parked, cache, probes } = ctx.options;
  const { worker, subject } = await ctx.worker('payment', { maxCachedWorkflows: cache });
  try {
    const started = await park(ctx, subject, parked, `P2 ${parked} payments, cache ${cache}`);
    const atParked = await worker.memory();
    ctx.progress.log(
      `P2 ${parked} parked: worker RSS ${Math.round(atParked.rssKb / 1024)} MB (peak ${Math.round(atParked.peakRssKb / 1024)} MB)`,
    );
    // The most recent payments are still cached (each is two workflows); the first ones were evicted long ago.
    const cachedSample = started.slice(-Math.max(1, Math.min(probes, Math.floor(cache / 4))));
    const evictedSample = parked > cache ? started.slice(0, probes) : [];
    const cachedMs = await probeAll(ctx, subject, cachedSample, 'P2 probe cached');
    const evictedMs =
      evictedSample.length > 0 ? await probeAll(ctx, subject, evictedSample, 'P2 probe evicted') : [];
    const completion = await fundAndComplete(
      ctx,
      subject,
      started,
      ctx.options.concurrency,
      `P2 ${parked} payments`,
    );
    const end = await worker.memory();
    ctx.row({
      scenario: 'P2',
      figure: `${parked} parked payments, cache ${cache} workflows: completed`,
      value: completion.completed,
      baseline: parked,
      ratioLabel: 'completed / parked',
      unit: '',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… not ended when the window closed (180 s + 300 ms per payment after funding)`,
      value: completion.notEndedInWindow,
      baseline: null,
      ratioLabel: '',
      unit: '',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… of which COMPLETED late (within --lateWait ${ctx.options.lateWait} min more)`,
      value: completion.late.length,
      baseline: null,
      ratioLabel: '',
      unit: '',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… lost (not COMPLETED at all)`,
      value: completion.lost.length,
      baseline: null,
      ratioLabel: '',
      unit: '',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… starts refused at first and asked again (same key)`,
      value: started.retried ?? 0,
      baseline: null,
      ratioLabel: '',
      unit: '',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… worker peak RSS (VmHWM)`,
      value: Math.max(atParked.peakRssKb, end.peakRssKb) / 1024,
      baseline: null,
      ratioLabel: '',
      unit: 'MB',
    });
    ctx.row({
      scenario: 'P2',
      figure: `… fund → the last COMPLETED within the window`,
      value: completion.elapsedMs,
      baseline: null,
      ratioLabel: '',
      unit: 'ms',
    });
    ctx.row({
      scenario: 'P2',
      figure: `signal → workflow task completed p99, evicted payment vs cached (${evictedSample.length} / ${cachedSample.length} probes)`,
      value: evictedMs.length > 0 ? percentile(evictedMs, 99) : null,
      baseline: percentile(cachedMs, 99),
      ratioLabel: 'evicted / cached',
      unit: 'ms',
    });
    if (completion.late.length > 0)
      ctx.notes.push(
        `P2: ${completion.late.length} payments COMPLETED after the window: ${completion.late.slice(0, 5).join('; ')}`,
      );
    if (completion.lost.length > 0)
      ctx.notes.push(
        `P2: ${completion.lost.length} payments lost (not COMPLETED), e.g. ${completion.lost.slice(0, 3).join('; ')}`,
      );
    for (const line of completion.stragglers) ctx.notes.push(`P2 straggler, ${line}`);
  } finally {
    await worker.stop();
  }
}

export async function runP2(ctx: BenchContext): Promise<void> {
  const skeleton = await rssPerParked(ctx, 'skeleton');
  const payment = await rssPerParked(ctx, 'payment');
  ctx.progress.log(`P2 RSS per parked: payment ${payment.toFixed(0)} KB, skeleton ${skeleton.toFixed(0)} KB`);
  ctx.row({
    scenario: 'P2',
    figure: `worker RSS per parked payment (payment + entity, ${ctx.options.rssWorkflows} cached) vs per skeleton workflow`,
    value: payment,
    baseline: skeleton,
    ratioLabel: 'payment / skeleton',
    unit: 'KB',
  });
  await parkedAtBudget(ctx);
}
