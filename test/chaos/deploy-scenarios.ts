// The deploy scenarios: a new build shipped while payments flow, as docs/deployment.md ("Safe deploys
// with Worker Versioning") tells an operator to, and the same deploy with the old build's workers stopped too early.
// The deploy steps call what `xborder deploy ramp|set-current|status` call (src/client/worker-deployments.ts,
// src/client/deployment-open-runs.ts); the stuck view is the gauge behind the xborder_stuck_payments metric, which
// runs `xborder stuck`'s queries (src/client/stuck.ts).
import { setCurrentVersion, setRampingVersion } from '../../src/client/worker-deployments';
import { countOpenRuns, openRunQueries } from '../../src/client/deployment-open-runs';
import { startStuckPaymentsGauge } from '../../src/client/stuck-gauge';
import { PrometheusRegistry } from '../../src/telemetry/prometheus-registry';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import type { Scenario, ScenarioContext } from './scenarios';
import { startBuild, untilAccepted } from './versioned-workers';
import type { PaymentRun } from './workload';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Timeline {
  /** the ramp to B asked (payments created before it are on A) */
  rampAt?: number;
  /** B current (payments whose start was called after it are on B) */
  currentAt?: number;
  /** open PINNED runs on A when its workers stopped */
  pinnedOnAAtStop?: number;
  /** the most WAITING_FOR_ITS_BUILD payments the stuck gauge counted while A was down */
  stuckSeen?: number;
  /** the most PINNED runs on A whose workflow task waited > 5 s (describe), while A was down */
  waitingSeen?: number;
  aStoppedAt?: number;
  aBackAt?: number;
  /** the traffic may go on past this many payments */
  gate: number;
  opened?: () => void;
}

const timelines = new WeakMap<ScenarioContext, Timeline>();
const timeline = (ctx: ScenarioContext): Timeline => {
  let t = timelines.get(ctx);
  if (!t) timelines.set(ctx, (t = { gate: 0 }));
  return t;
};

/** Holds payment `index` until the scenario let that many through (its deploy step before them is done). */
async function gate(ctx: ScenarioContext, index: number): Promise<void> {
  const t = timeline(ctx);
  while (index >= t.gate && !ctx.done())
    await new Promise<void>((resolve) => ((t.opened = resolve), setTimeout(resolve, 500)));
}

function open(ctx: ScenarioContext, fraction: number): void {
  const t = timeline(ctx);
  t.gate = Math.max(t.gate, Math.ceil(ctx.payments * fraction));
  t.opened?.();
}

async function launched(ctx: ScenarioContext, count: number): Promise<void> {
  while (ctx.launched() < count && !ctx.done()) await sleep(200);
}

/** The operator's wait (docs/deployment.md step 5): `deploy status` shows A with no open PINNED run, twice 3 s apart. */
async function untilNoPinnedRunsOn(ctx: ScenarioContext, buildId: string): Promise<void> {
  let zeros = 0;
  while (zeros < 2 && Date.now() < ctx.deadline) {
    const runs = await countOpenRuns(ctx.stack.client, ctx.deploymentName, buildId).catch(() => undefined);
    zeros = runs?.pinned === 0 ? zeros + 1 : 0;
    if (zeros < 2) await sleep(3_000);
  }
}

/**
 * Until visibility shows at least one open PINNED run on `buildId`. Launched is not running: on a loaded machine a
 * launched payment's first workflow task may still be waiting when the deploy comes, and then it runs on the next
 * build, leaving nothing on A to strand or prove.
 */
async function untilPinnedRunsOn(ctx: ScenarioContext, buildId: string, limitMs = 120_000): Promise<void> {
  const until = Math.min(ctx.deadline, Date.now() + limitMs);
  while (Date.now() < until) {
    const runs = await countOpenRuns(ctx.stack.client, ctx.deploymentName, buildId).catch(() => undefined);
    if ((runs?.pinned ?? 0) > 0) return;
    await sleep(1_000);
  }
  ctx.log(
    `deploy: no open PINNED run seen on ${buildId} within ${Math.round(limitMs / 1000)} s; deploying anyway`,
  );
}

async function startB(ctx: ScenarioContext): Promise<void> {
  ctx.log(`deploy: build B's workers start beside A (${ctx.launched()} payments started)`);
  ctx.addWorkers(
    await startBuild(
      ctx.stack.client,
      ctx.target,
      { deploymentName: ctx.deploymentName, buildId: 'B' },
      ctx.log,
    ),
  );
}

async function deployB(ctx: ScenarioContext, ramp: boolean): Promise<void> {
  const t = timeline(ctx);
  const client = ctx.stack.client;
  if (ramp) {
    t.rampAt = Date.now();
    await untilAccepted(() => setRampingVersion(client, ctx.deploymentName, 'B', 50));
    ctx.log('deploy: ramp B 50 %');
    open(ctx, 0.7);
    await launched(ctx, Math.ceil(ctx.payments * 0.7));
  } else {
    t.rampAt = Date.now();
  }
  await untilAccepted(() => setCurrentVersion(client, ctx.deploymentName, 'B'));
  t.currentAt = Date.now();
  ctx.log(`deploy: set-current B (${ctx.launched()} payments started)`);
  open(ctx, 1);
}

/** Where a payment ran: describe's versioning info (PINNED: the build of all its workflow tasks). */
async function versioningOf(
  ctx: ScenarioContext,
  workflowId: string,
): Promise<{ behavior: string; buildId: string | undefined; startedAt: number }> {
  const described = await ctx.stack.client.workflow.getHandle(workflowId).describe();
  const info = described.raw.workflowExecutionInfo?.versioningInfo;
  const behaviors: Record<number, string> = { 1: 'PINNED', 2: 'AUTO_UPGRADE' };
  return {
    behavior: behaviors[Number(info?.behavior)] ?? String(info?.behavior),
    buildId: info?.deploymentVersion?.buildId ?? undefined,
    startedAt: described.startTime.getTime(),
  };
}

/** Payments created before the ramp ran on A, those started after set-current on B, each on one build; entities moved. */
async function checkBuilds(
  ctx: ScenarioContext,
  runs: PaymentRun[],
): Promise<{ problems: string[]; notes: string }> {
  const t = timeline(ctx);
  const problems: string[] = [];
  const on: Record<string, number> = {};
  let entitiesMoved = 0;
  let entitiesOnA = 0;
  for (const run of runs.filter((r) => r.createdAt !== null)) {
    const v = await versioningOf(ctx, run.workflowId);
    on[v.buildId ?? '-'] = (on[v.buildId ?? '-'] ?? 0) + 1;
    if (v.behavior !== 'PINNED') problems.push(`${run.workflowId}: ${v.behavior}, not PINNED`);
    if (t.rampAt && run.createdAt! < t.rampAt && v.buildId !== 'A')
      problems.push(`${run.workflowId}: created before the ramp, ran on ${v.buildId}`);
    if (t.currentAt && run.startCalledAt! > t.currentAt && v.buildId !== 'B')
      problems.push(`${run.workflowId}: started after set-current B, ran on ${v.buildId}`);
    if (!run.providerPaymentId) continue;
    const entity = await versioningOf(ctx, providerPaymentWorkflowId(run.providerPaymentId)).catch(
      () => undefined,
    );
    if (entity && t.currentAt && entity.startedAt < t.currentAt) {
      if (entity.buildId === 'B') entitiesMoved++;
      else entitiesOnA++;
    }
  }
  if (!on.A) problems.push('no payment ran on A: the deploy came too early to prove anything');
  if (!on.B) problems.push('no payment ran on B: the deploy came too late to prove anything');
  if (entitiesMoved === 0) problems.push('no entity started on A moved to B');
  return {
    problems,
    notes: `payments on A ${on.A ?? 0}, on B ${on.B ?? 0}; entities started before set-current now on B ${entitiesMoved}, still on A ${entitiesOnA}`,
  };
}

export const DEPLOY_SCENARIOS: Scenario[] = [
  {
    name: 'deploy-storm',
    what: "build B deployed mid-traffic: B's workers start, ramp B 50 %, set-current B; A's workers stop once deploy status shows A with no open PINNED run",
    engines: ['cluster'],
    needsCluster: true,
    beforePayment: gate,
    async disrupt(ctx) {
      open(ctx, 0.3);
      await launched(ctx, Math.ceil(ctx.payments * 0.3));
      await startB(ctx);
      await untilPinnedRunsOn(ctx, 'A');
      await deployB(ctx, true);
      await untilNoPinnedRunsOn(ctx, 'A');
      const t = timeline(ctx);
      t.aStoppedAt = Date.now();
      ctx.log('deploy: deploy status shows A with no open PINNED run: A stopped');
      await ctx.workers.stop();
      return 4; // B started, ramp, set-current, A stopped
    },
    check: checkBuilds,
  },
  {
    name: 'deploy-too-early',
    what: "build B (its workers started before the traffic) made current mid-traffic and A's workers stopped at once, while A holds PINNED payments; they wait (listed stuck) until A is back",
    engines: ['cluster'],
    needsCluster: true,
    beforePayment: gate,
    // B's workers up before the traffic: A is stopped while its payments are surely in flight (a worker needs
    // tens of seconds to start on a loaded machine, long enough for A's first payments to end).
    setup: startB,
    async disrupt(ctx) {
      const t = timeline(ctx);
      open(ctx, 0.5);
      await launched(ctx, Math.ceil(ctx.payments * 0.5));
      await untilPinnedRunsOn(ctx, 'A');
      await deployB(ctx, false);
      t.pinnedOnAAtStop = (await countOpenRuns(ctx.stack.client, ctx.deploymentName, 'A')).pinned;
      await ctx.workers.stop();
      t.aStoppedAt = Date.now();
      ctx.log(`deploy: A stopped too early, holding ${t.pinnedOnAAtStop} open PINNED runs`);
      // The metric's view while A is down: the gauge of xborder_stuck_payments, a task waiting > 5 s is stuck.
      const gauge = startStuckPaymentsGauge({
        client: ctx.stack.client,
        meter: new PrometheusRegistry(),
        intervalMs: 3_600_000,
        inProgressLimitMs: 24 * 3_600_000,
        deploymentName: ctx.deploymentName,
        waitingTaskLimitMs: 5_000,
      });
      t.stuckSeen = 0;
      t.waitingSeen = 0;
      // Up to 45 s down: past the 13.5 s a refund payment waits before its funds come (a task then waits on A).
      const downUntil = Date.now() + 45_000;
      while (Date.now() < downUntil && (t.stuckSeen === 0 || t.stuckSeen < t.waitingSeen)) {
        await sleep(3_000);
        const counts = await gauge
          .refresh()
          .catch(
            (error: unknown) => void ctx.log(`deploy: stuck gauge failed: ${String(error).slice(0, 300)}`),
          );
        t.stuckSeen = Math.max(t.stuckSeen, counts?.counts.WAITING_FOR_ITS_BUILD ?? 0);
        // What the server shows, independently of the gauge: PINNED runs on A whose workflow task waits > 5 s.
        let waiting = 0;
        for await (const wf of ctx.stack.client.workflow.list({
          query: openRunQueries(ctx.deploymentName, 'A').pinned,
        })) {
          const scheduled = (await ctx.stack.client.workflow.getHandle(wf.workflowId).describe()).raw
            .pendingWorkflowTask?.scheduledTime?.seconds;
          if (scheduled && Date.now() - Number(scheduled) * 1000 > 5_000) waiting++;
        }
        t.waitingSeen = Math.max(t.waitingSeen, waiting);
        ctx.log(
          `deploy: A down ${Math.round((Date.now() - t.aStoppedAt) / 1000)} s: ${waiting} PINNED runs on A with a task waiting > 5 s, ${counts?.counts.WAITING_FOR_ITS_BUILD ?? '?'} listed WAITING_FOR_ITS_BUILD`,
        );
      }
      await gauge.stop();
      ctx.log(
        `deploy: the stuck gauge counted ${t.stuckSeen} payments WAITING_FOR_ITS_BUILD; A's workers back`,
      );
      const back = await restartBuildA(ctx);
      t.aBackAt = Date.now();
      await untilNoPinnedRunsOn(ctx, 'A');
      await back.stop();
      ctx.log('deploy: deploy status shows A with no open PINNED run: A stopped again');
      return 2; // A stopped too early, A back
    },
    async check(ctx, runs) {
      const t = timeline(ctx);
      const builds = await checkBuilds(ctx, runs);
      const problems = builds.problems.filter((p) => !p.startsWith('no entity')); // few events after the switch
      if (!t.pinnedOnAAtStop) problems.push('A held no PINNED run when stopped: nothing was stranded');
      else if (!t.waitingSeen)
        problems.push(
          `${t.pinnedOnAAtStop} PINNED runs on a stopped A, none with a waiting task: nothing to see`,
        );
      else if (!t.stuckSeen)
        problems.push(`${t.waitingSeen} PINNED runs waiting on a stopped A, none listed stuck`);
      return {
        problems,
        notes: `${builds.notes}; A stopped holding ${t.pinnedOnAAtStop ?? 0} PINNED runs, up to ${t.waitingSeen ?? 0} with a task waiting, ${t.stuckSeen ?? 0} listed WAITING_FOR_ITS_BUILD while down, A back after ${Math.round(((t.aBackAt ?? 0) - (t.aStoppedAt ?? 0)) / 1000)} s`,
      };
    },
  },
];

/** A's workers again, without touching the routing (B stays current). */
async function restartBuildA(ctx: ScenarioContext) {
  const workers = await startBuild(
    ctx.stack.client,
    ctx.target,
    { deploymentName: ctx.deploymentName, buildId: 'A' },
    ctx.log,
  );
  ctx.addWorkers(workers);
  return workers;
}
