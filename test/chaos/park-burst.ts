// park-10k: scale on the production engine (the Temporal server on PostgreSQL). N payments (10,000 by default,
// `--payments N` for fewer) are parked awaiting funds, then all funded in one burst: every webhook that burst makes
// goes through the ingress and its waiting line (src/ingress/node-server.ts). Checks: 0 lost, 0 duplicated, every
// payment COMPLETED; figures: worker peak RSS, time to park and to drain, and how many webhooks the ingress shed
// (answered 503 OVERLOADED after waiting in line: the sandbox retries them as a provider does, so shed is not lost).
// The sender gives up after its last retry: when the COMPLETED count stalls while payments are still open, the
// scenario runs the payment-reconcile Schedule, as production's 15-minute interval would, and reports how many
// entities it told a final status they had missed (activities/reconcile-activities.ts).
// Not in the short profile: at 10,000 it runs for hours on a shared machine.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import got from 'got';
import { WorkflowFailedError } from '@temporalio/client';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { PAYMENT_WORKFLOW_TYPE } from '../../workflows/payment/api';
import { startTestStack } from '../e2e/stack-support';
import { triggerReconcileSchedule } from './reconcile-schedule';
import type { ReconcileRecentPaymentsResult } from '../../activities/reconcile-activities';
import type { Engine } from './engines';
import type { ScenarioResult } from './run-scenario';
import { verifyScenario } from './verify';
import { startCurrentBuild } from './versioned-workers';
import type { WorkerSupervisor, WorkerTarget } from './worker-supervisor';
import { newPaymentRun, paymentRequest, type PaymentRun } from './workload';
import { probeLine, runReportProbe, type ReportProbeTarget } from './report-probe';

export const PARK_SCENARIO = 'park-10k';
export const PARK_DEFAULT_PAYMENTS = 10_000;
/** Starts and fund calls in flight at once: a backend's worth of callers, not one per payment. */
const START_CONCURRENCY = 20;
const FUND_CONCURRENCY = 50;
/** Waits on outcomes at once (each a long poll on the server). */
const RESULT_CONCURRENCY = 100;
/** The worker's cache budget, as production sets it (temporal-docker/.env.example): 10,000 parked do not fit in memory otherwise. */
const MAX_CACHED_WORKFLOWS = '1000';
const PROGRESS_EVERY_MS = 15_000;
/**
 * While draining: no payment closed for this long (and some still open) runs the reconcile Schedule once more. The
 * sandbox's retries come 1, 5 and 15 minutes apart, so a stall this short may end by itself; the Schedule only
 * comes sooner than production's every 15 minutes, and tells nothing an entity already has.
 */
const STALL_MS = 3 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface IngressHealth {
  counters: { accepted: number; duplicate: number; rejected: number; ignored: number; failed: number };
  inFlight: number;
  waiting: number;
  /** answered 503 OVERLOADED after waiting in line (shed) */
  overloaded: number;
  overBudget: number;
}

async function ingressHealth(stack: LocalStack): Promise<IngressHealth | undefined> {
  return got(`${stack.ingress.url}/health`, { timeout: { request: 5_000 }, retry: { limit: 0 } })
    .json<IngressHealth>()
    .catch(() => undefined);
}

/** VmRSS and VmHWM (peak) of a process in MB, from /proc (Linux). */
function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

async function stackOn(engine: Engine): Promise<LocalStack> {
  return startTestStack({
    temporalPort: engine.port,
    namespace: engine.namespace,
    worker: false,
    schedules: false,
    sandbox: {
      demoData: true,
      // parked payments must not see their quote expire while the others are parked
      quoteValidityMs: 6 * 60 * 60_000,
      // A provider's schedule: short first retries, then minutes apart (the sandbox's default goes on for hours).
      // A delivery the ingress shed during the burst comes back after it, as a real sender's would.
      webhookRetryScheduleMs: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 60_000, 300_000, 900_000],
    },
  });
}

/** Asked again while Temporal gives no answer (a backend's retry with the same key attaches to the same workflow). */
async function park(stack: LocalStack, run: PaymentRun, deadline: number): Promise<void> {
  run.startCalledAt = Date.now();
  for (;;) {
    try {
      const started = await startPayment(
        stack.client,
        { paymentKey: run.key, request: paymentRequest('PUSHED', run.key, 25) },
        { taskQueue: stack.taskQueue },
      );
      run.createdAt = Date.now();
      run.workflowId = started.workflowId;
      if (started.created.outcome !== 'CREATED')
        throw new Error(`not created: ${JSON.stringify(started.created).slice(0, 300)}`);
      run.providerPaymentId = started.created.providerPaymentId;
      run.stage = 'fund';
      return;
    } catch (error) {
      if (Date.now() > deadline || (error instanceof Error && error.message.startsWith('not created')))
        throw error;
      run.startRetries++;
      await sleep(1_000);
    }
  }
}

/** The sandbox's control call that sends the funds (our test's, not the system's): retried through connection errors. */
async function fund(stack: LocalStack, run: PaymentRun, deadline: number): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await got.post(`${stack.sandbox.url}/sandbox/payments/${run.providerPaymentId}/fund`, {
        headers: stack.sandbox.controlHeaders,
        json: {},
        timeout: { request: 30_000 },
        retry: { limit: 0 },
        throwHttpErrors: false,
      });
      if (response.statusCode < 300) return;
      // Asked again after a call that timed out or dropped: a 409 (INVALID_STATE, the payment no longer awaits
      // funds) means that call took. At 10,000 (seed 27710) 100 retried calls were refused so and their payments,
      // COMPLETED, were counted lost. The checks still compare each outcome with the sandbox's final state.
      if (response.statusCode === 409 && attempt > 0) return;
      if (response.statusCode < 500)
        throw new Error(`fund refused: ${response.statusCode} ${response.body.slice(0, 200)}`);
    } catch (error) {
      if (Date.now() > deadline || (error instanceof Error && error.message.startsWith('fund refused')))
        throw error;
    }
    await sleep(1_000);
  }
}

async function outcome(stack: LocalStack, run: PaymentRun, deadline: number): Promise<void> {
  run.stage = 'result';
  for (;;) {
    try {
      run.outcome = (
        (await stack.client.workflow.getHandle(run.workflowId).result()) as { outcome: string }
      ).outcome;
      run.stage = 'done';
      return;
    } catch (error) {
      if (error instanceof WorkflowFailedError || Date.now() > deadline) throw error;
      await sleep(1_000);
    }
  }
}

/**
 * Waits for every outcome; each time the closed count has not moved for STALL_MS, runs the reconcile Schedule (a
 * copy on this task queue, reconcile-schedule.ts) and logs what it told.
 */
async function drainWithSweeps(
  stack: LocalStack,
  outcomes: Promise<void>,
  closedCount: () => Promise<number>,
  runId: string,
  log: (line: string) => void,
): Promise<{ runs: number; healed: number; firstAt: number }> {
  let done = false;
  void outcomes.finally(() => (done = true));
  const sweeps = { runs: 0, healed: 0, firstAt: 0 };
  let last = -1;
  let movedAt = Date.now();
  while (!done) {
    await Promise.race([outcomes, sleep(PROGRESS_EVERY_MS)]);
    if (done) break;
    const now = await closedCount();
    if (Number.isNaN(now) || now !== last) {
      last = now;
      movedAt = Date.now();
      continue;
    }
    if (Date.now() - movedAt < STALL_MS) continue;
    sweeps.firstAt ||= Date.now();
    log(
      `${PARK_SCENARIO} [draining] no payment closed for ${Math.round((Date.now() - movedAt) / 1000)} s at ${now} closed`,
    );
    const result = await sweep(stack, `payment-reconcile-${PARK_SCENARIO}-${runId}-${++sweeps.runs}`, log);
    sweeps.healed += result?.followedSignalled ?? 0;
    movedAt = Date.now();
  }
  await outcomes;
  return sweeps;
}

/** One run of the reconcile Schedule, logged; a failure is logged and returned as undefined. */
async function sweep(
  stack: LocalStack,
  scheduleId: string,
  log: (line: string) => void,
): Promise<ReconcileRecentPaymentsResult | undefined> {
  try {
    const result = await triggerReconcileSchedule(stack, scheduleId, 600_000);
    log(
      `${PARK_SCENARIO} reconcile Schedule ran (${result.workflowId}): ${result.listed} payments listed, ` +
        `${result.entitiesNotFinal ?? '-'} running entities not final, ${result.followedSignalled ?? 0} told a final status`,
    );
    return result;
  } catch (error) {
    log(`${PARK_SCENARIO} reconcile Schedule failed: ${String(error).slice(0, 300)}`);
    return undefined;
  }
}

/** Runs `task` on every run, `concurrency` at once; a failure is recorded on the run, never thrown. */
async function eachRun(
  runs: PaymentRun[],
  concurrency: number,
  task: (run: PaymentRun) => Promise<void>,
  settled: (run: PaymentRun) => void,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < runs.length; i = next++) {
      const run = runs[i]!;
      if (!run.error)
        await task(run).catch((error: unknown) => void (run.error = String(error).slice(0, 300)));
      settled(run);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, lane));
}

/**
 * `--report-at 2500,5000,10000`: parking pauses at each count (no start in flight), `xborder report` runs over the
 * run's window (report-probe.ts), then parking goes on; with `reportAfterDrain`, once more after the drain.
 */
export interface ReportProbes {
  at: number[];
  afterDrain: boolean;
  outDir: string;
}

export async function runParkScenario(
  engine: Engine,
  payments: number,
  seed: number,
  log: (line: string) => void,
  reportProbes?: ReportProbes,
): Promise<ScenarioResult> {
  const began = Date.now();
  // 30 min for the checks and a slow start, then 0.6 s per payment (parked ≈ 4/s and drained ≈ 5/s on a dev server).
  const deadline = began + 30 * 60_000 + 600 * payments;
  const stack = await stackOn(engine);
  let workers: WorkerSupervisor | undefined;
  let progress: NodeJS.Timeout | undefined;
  try {
    const runId = randomUUID().slice(0, 6);
    const cacheBudget = process.env.XBORDER_MAX_CACHED_WORKFLOWS ?? MAX_CACHED_WORKFLOWS;
    const target: WorkerTarget = {
      temporalAddress: engine.address,
      namespace: engine.namespace,
      taskQueue: stack.taskQueue,
      providerUrl: stack.sandbox.url,
      apiKey: stack.apiKey,
      env: () => ({ XBORDER_MAX_CACHED_WORKFLOWS: cacheBudget }),
    };
    workers = await startCurrentBuild(
      stack.client,
      target,
      { deploymentName: `chaos-${PARK_SCENARIO}-${runId}`, buildId: 'A' },
      log,
    );
    const w = workers;
    const runs = Array.from({ length: payments }, (_, i) =>
      newPaymentRun(`chaos-park-k${runId}-${i}`, 'PUSHED'),
    );
    const count = { parked: 0, funded: 0, ended: 0, completed: 0 };
    let peakMb = 0;
    let peakWaiting = 0;
    const sample = async () => {
      const memory = memoryOf(w.pid);
      peakMb = Math.max(peakMb, memory?.peakMb ?? 0);
      const health = await ingressHealth(stack);
      peakWaiting = Math.max(peakWaiting, health?.waiting ?? 0);
      return { memory, health };
    };
    // Closed payments as the server's visibility counts them, in any order (the outcome waits settle in start order:
    // one payment waiting for a redelivered webhook holds its lane's count back).
    const closedQuery = `TaskQueue = '${stack.taskQueue}' AND WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Completed'`;
    const closed = () =>
      stack.client.workflow
        .count(closedQuery)
        .then((c) => String(c.count))
        .catch(() => '?');
    const report = async (phase: string) => {
      const [{ memory, health }, closedNow] = await Promise.all([
        sample(),
        phase === 'parking' ? Promise.resolve('0') : closed(),
      ]);
      const ingress = health
        ? `ingress: ${health.counters.accepted} accepted, ${health.inFlight} in flight, ${health.waiting} waiting, ${health.overloaded} shed`
        : 'ingress: no answer';
      log(
        `${PARK_SCENARIO} [${phase}] parked ${count.parked}/${payments}, funded ${count.funded}/${payments}, completed ${closedNow}/${payments} (outcomes read ${count.completed} COMPLETED, ${count.ended - count.completed} other); ` +
          `worker RSS ${memory ? `${memory.rssMb.toFixed(0)} MB (peak ${memory.peakMb.toFixed(0)})` : '-'}; ${ingress}`,
      );
    };
    let phase = 'parking';
    progress = setInterval(() => void report(phase), PROGRESS_EVERY_MS);

    const probeTarget: ReportProbeTarget | undefined = reportProbes && {
      temporalAddress: engine.address,
      namespace: engine.namespace,
      providerUrl: stack.sandbox.url,
      apiKey: stack.apiKey,
      outDir: path.join(reportProbes.outDir, `${PARK_SCENARIO}-${runId}`),
    };
    const probe = async (label: string) => {
      if (!probeTarget) return;
      const at = Date.now();
      log(`${PARK_SCENARIO} report probe [${label}] starting`);
      const result = await runReportProbe(probeTarget, label, {
        from: new Date(began - 60_000),
        to: new Date(Date.now() + 3_600_000),
      });
      log(`${PARK_SCENARIO} ${probeLine(result)}`);
      probeSeconds += (Date.now() - at) / 1000;
    };
    let probeSeconds = 0;
    // Each count's probe, started when the count-th payment is parked; the runs past it wait for it.
    const probeAt = [...new Set(reportProbes?.at ?? [])]
      .filter((n) => n > 0 && n <= payments)
      .sort((a, b) => a - b);
    const probesDone = new Map<number, { promise: Promise<void>; resolve: () => void }>();
    for (const n of probeAt) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      probesDone.set(n, { promise, resolve });
    }
    const holdFor = async (index: number) => {
      for (;;) {
        const n = probeAt.find((at) => index >= at && probesDone.has(at));
        if (n === undefined) return;
        await probesDone.get(n)!.promise;
      }
    };
    const indexOf = new Map(runs.map((run, i) => [run, i]));
    const probesRun: Promise<void>[] = [];
    const parkStarted = Date.now();
    await eachRun(
      runs,
      START_CONCURRENCY,
      async (run) => {
        await holdFor(indexOf.get(run)!);
        await park(stack, run, deadline);
      },
      () => {
        const n = ++count.parked;
        const done = probesDone.get(n);
        if (done)
          probesRun.push(
            probe(`parked-${n}`).finally(() => {
              probesDone.delete(n);
              done.resolve();
            }),
          );
      },
    );
    await Promise.all(probesRun);
    const parkedAt = Date.now();
    const notParked = runs.filter((r) => r.error).length;
    await report('parked');
    const atParked = memoryOf(w.pid);
    // Before the burst: every parked payment's entity is running and not final (the sweep's visibility list, on
    // this engine's visibility store), and none is told anything (no payment is final yet).
    const sweepStarted = Date.now();
    const beforeBurst = await sweep(stack, `payment-reconcile-${PARK_SCENARIO}-${runId}-parked`, log);
    const sweepSeconds = Math.round((Date.now() - sweepStarted) / 1000);

    phase = 'funding';
    const fundStarted = Date.now();
    const outcomes = eachRun(
      runs,
      RESULT_CONCURRENCY,
      (run) => outcome(stack, run, deadline),
      (run) => {
        count.ended++;
        if (run.outcome === 'COMPLETED') count.completed++;
      },
    );
    await eachRun(
      runs,
      FUND_CONCURRENCY,
      (run) => fund(stack, run, deadline),
      () => count.funded++,
    );
    const fundedAt = Date.now();
    phase = 'draining';
    const sweeps = await drainWithSweeps(stack, outcomes, () => closed().then(Number), runId, log);
    const lastEnded = Date.now();
    // Once more at the end of the drain window, as production's next run would: every entity should be final by now.
    const atEnd = await sweep(stack, `payment-reconcile-${PARK_SCENARIO}-${runId}-end`, log);
    if (reportProbes?.afterDrain) await probe('drained');
    clearInterval(progress);
    progress = undefined;
    await report('drained');
    const end = await sample();

    phase = 'checking';
    const counts = await verifyScenario(stack, runs, [], {
      settleTimeoutMs: Math.min(300_000, Math.max(30_000, deadline - Date.now())),
    });
    for (const run of runs) {
      if (run.outcome && run.outcome !== 'COMPLETED')
        counts.problems.push(`${run.workflowId}: ${run.outcome}, not COMPLETED`);
    }
    const notCompleted = runs.filter((r) => r.outcome && r.outcome !== 'COMPLETED').length;
    counts.wrongOutcomes = Math.max(counts.wrongOutcomes, notCompleted);
    const shed = end.health?.overloaded ?? NaN;
    const retries = runs.reduce((n, r) => n + r.startRetries, 0);
    const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
    const notes = [
      `${count.completed}/${payments} COMPLETED; ${notParked} not parked`,
      `parked in ${seconds(parkedAt - parkStarted)}${probeSeconds > 0 ? ` (of which ${seconds(probeSeconds * 1000)} paused for report probes)` : ''} (${((payments - notParked) / ((parkedAt - parkStarted) / 1000)).toFixed(1)}/s at concurrency ${START_CONCURRENCY}, ${retries} starts asked again)`,
      `funding burst ${seconds(fundedAt - fundStarted)} (concurrency ${FUND_CONCURRENCY}); fund → last outcome (drain) ${seconds(lastEnded - fundStarted)}`,
      `reconcile Schedule after a stall of ${seconds(STALL_MS)}: ${sweeps.runs} runs, ${sweeps.healed} entities told a final status they had missed` +
        (sweeps.runs > 0
          ? ` (first at ${seconds(sweeps.firstAt - fundStarted)} after the first fund call)`
          : '') +
        `; before the burst: ${beforeBurst ? `${beforeBurst.entitiesNotFinal ?? '-'} running entities not final, ${beforeBurst.followedSignalled ?? 0} told, in ${sweepSeconds} s` : 'no answer'}` +
        `; after the drain: ${atEnd ? `${atEnd.entitiesNotFinal ?? '-'} running entities not final, ${atEnd.followedSignalled ?? 0} told` : 'no answer'}`,
      `worker RSS at parked ${atParked ? atParked.rssMb.toFixed(0) : '-'} MB, peak (VmHWM) ${peakMb.toFixed(0)} MB (cache ${cacheBudget} workflows)`,
      `ingress: ${shed} shed (503 OVERLOADED after waiting in line), ${end.health?.overBudget ?? '-'} over the memory budget, peak waiting ${peakWaiting}, ` +
        `${end.health?.counters.accepted ?? '-'} accepted, ${end.health?.counters.duplicate ?? '-'} duplicate, ${end.health?.counters.failed ?? '-'} failed (5xx from Temporal)`,
    ];
    for (const note of notes) log(`   ${note}`);
    return {
      scenario: PARK_SCENARIO,
      engine: engine.name,
      seed,
      disruptions: 1, // the funding burst
      workerProcesses: workers.started,
      seconds: Math.round((Date.now() - began) / 1000),
      notes: notes.join('; '),
      ...counts,
    };
  } finally {
    if (progress) clearInterval(progress);
    await workers?.stop();
    await stack.close();
  }
}
