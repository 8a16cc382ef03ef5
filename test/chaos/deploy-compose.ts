// The documented compose upgrade (docs/deployment.md, "Upgrades"; temporal-docker/scripts/upgrade.sh), as the
// cluster harness can run it: no Docker here, so each of the script's steps is the call it makes in the container.
// Slot a runs build A (current, from the start); `upgrade.sh start b`: slot b's workers start with new workflow code
// (another bundle: its build id is derived, never named), its id read as `xborder deploy build-id` reads it, made
// current with the same refusal-tolerant loop; then `upgrade.sh finish a` waits for `xborder deploy drained A` before
// slot a's workers stop. Throughout, the view the alerts have: the stuck gauge's counts of the current build (its
// pollers, the age of its oldest waiting workflow task) and of PINNED payments waiting for a build. 0 stalled: the
// current build's backlog never ages past the alert's minute, no payment waits for its build, every payment ends.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setCurrentVersion } from '../../src/client/worker-deployments';
import { countOpenRuns } from '../../src/client/deployment-open-runs';
import { countStuckPayments } from '../../src/client/stuck-counts';
import { derivedBuildId, workflowBundleDigest } from '../../workers/build-id';
import type { Scenario, ScenarioContext } from './scenarios';
import { buildRegistered, startBuild, untilAccepted } from './versioned-workers';
import { prebuiltBundle, superviseWorker } from './worker-supervisor';
import { anotherBuildOf } from '../support/another-build';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Watch {
  /** the new build's derived id */
  buildB?: string;
  currentAt?: number;
  /** most seconds the current build's oldest workflow task waited, from set-current on */
  maxBacklogAgeS: number;
  /** fewest workflow pollers of the current build seen, from set-current on */
  minPollers: number;
  /** most PINNED payments counted waiting for their build */
  maxWaiting: number;
  samples: number;
  pinnedOnAAtFinish?: number;
  stop?: () => void;
}

const watches = new WeakMap<ScenarioContext, Watch>();
const watchOf = (ctx: ScenarioContext): Watch => {
  let w = watches.get(ctx);
  if (!w)
    watches.set(
      ctx,
      (w = { maxBacklogAgeS: 0, minPollers: Number.POSITIVE_INFINITY, maxWaiting: 0, samples: 0 }),
    );
  return w;
};

/** What the stuck-gauge service counts, every 3 s, for the whole deploy. */
function watchGauge(ctx: ScenarioContext): void {
  const w = watchOf(ctx);
  let stopped = false;
  w.stop = () => void (stopped = true);
  void (async () => {
    while (!stopped && !ctx.done()) {
      const counted = await countStuckPayments(ctx.stack.client, {
        now: new Date(),
        deploymentName: ctx.deploymentName,
        taskQueue: ctx.target.taskQueue,
        waitingTaskLimitMs: 5_000,
      }).catch(() => null);
      if (counted) {
        w.samples++;
        w.maxWaiting = Math.max(w.maxWaiting, counted.counts.WAITING_FOR_ITS_BUILD);
        const current = counted.current;
        if (w.currentAt && current && current.buildId === w.buildB) {
          w.maxBacklogAgeS = Math.max(w.maxBacklogAgeS, current.backlog.ageSeconds);
          if (current.pollers) w.minPollers = Math.min(w.minPollers, current.pollers.workflow);
        }
      }
      await sleep(3_000);
    }
  })();
}

/** Slot b's image: the same workflows plus one comment, as a rebuild of changed code without a version bump makes. */
async function newBuildBundle(): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-slot-b-')), 'workflow-bundle.js');
  writeFileSync(file, anotherBuildOf(readFileSync(await prebuiltBundle(), 'utf8'), 'slot b: the next build'));
  return file;
}

export const DEPLOY_COMPOSE_SCENARIO: Scenario = {
  name: 'deploy-compose',
  what: 'the documented compose upgrade (scripts/upgrade.sh start b / finish a) mid-traffic: slot b with new code and a derived build id, set-current, slot a stopped once drained; the stuck gauge shows the current build served throughout',
  engines: ['cluster'],
  needsCluster: true,
  async disrupt(ctx) {
    const w = watchOf(ctx);
    watchGauge(ctx);
    while (ctx.launched() < Math.ceil(ctx.payments * 0.4) && !ctx.done()) await sleep(200);
    // upgrade.sh start b: build and start slot b; its id is what `xborder deploy build-id` prints in its container
    const bundlePath = await newBuildBundle();
    w.buildB = derivedBuildId(await workflowBundleDigest({ codePath: bundlePath }));
    ctx.log(
      `deploy: slot b starts with build ${w.buildB} beside slot a (build A, current); ${ctx.launched()} payments started`,
    );
    const slotB = await superviseWorker(
      { ...ctx.target, bundlePath, version: { deploymentName: ctx.deploymentName } },
      ctx.log,
    );
    ctx.addWorkers(slotB);
    await buildRegistered(ctx.stack.client, ctx.deploymentName, w.buildB);
    // the script's `until xborder deploy set-current <new>`: refused until slot b polled every task queue
    await untilAccepted(() => setCurrentVersion(ctx.stack.client, ctx.deploymentName, w.buildB!));
    w.currentAt = Date.now();
    ctx.log(`deploy: set-current ${w.buildB} (${ctx.launched()} payments started)`);
    // upgrade.sh finish a: `xborder deploy drained A` until it says 0 open PINNED runs, then slot a stops
    let drainedTwice = 0;
    while (drainedTwice < 2 && Date.now() < ctx.deadline) {
      const runs = await countOpenRuns(ctx.stack.client, ctx.deploymentName, 'A').catch(() => undefined);
      drainedTwice = runs?.pinned === 0 ? drainedTwice + 1 : 0;
      if (drainedTwice < 2) await sleep(3_000);
    }
    w.pinnedOnAAtFinish = (await countOpenRuns(ctx.stack.client, ctx.deploymentName, 'A')).pinned;
    await ctx.workers.stop();
    ctx.log(
      `deploy: deploy drained A: ${w.pinnedOnAAtFinish} open PINNED runs; slot a stopped (compose: re-imaged to ${w.buildB})`,
    );
    return 3; // slot b started, set-current, slot a stopped
  },
  async check(ctx) {
    const w = watchOf(ctx);
    // a few more samples with slot a gone: the current build still served
    await sleep(7_000);
    w.stop?.();
    const problems: string[] = [];
    if (!w.currentAt) problems.push('set-current never happened');
    if (w.maxBacklogAgeS >= 60)
      problems.push(
        `the current build's oldest workflow task waited ${Math.round(w.maxBacklogAgeS)} s: XborderCurrentBuildBacklogAging would page`,
      );
    if (w.minPollers === 0)
      problems.push('the current build had no workflow poller: XborderCurrentBuildNoPollers would page');
    if (w.maxWaiting > 0) problems.push(`${w.maxWaiting} PINNED payments counted waiting for their build`);
    if (w.pinnedOnAAtFinish !== 0) problems.push(`slot a stopped holding ${w.pinnedOnAAtFinish} PINNED runs`);
    const stalled = (w.maxBacklogAgeS >= 60 ? 1 : 0) + w.maxWaiting;
    return {
      problems,
      notes: `new build ${w.buildB}; ${w.samples} gauge samples; current build's oldest waiting task at most ${w.maxBacklogAgeS.toFixed(1)} s, fewest workflow pollers ${Number.isFinite(w.minPollers) ? w.minPollers : '-'}, PINNED waiting for their build at most ${w.maxWaiting}; stalled ${stalled}`,
    };
  },
};

interface Stall {
  buildB?: string;
  /** most seconds the current build's (A's) oldest workflow task waited while only B ran */
  maxBacklogAgeS: number;
  /** fewest workflow pollers of the current build while only B ran */
  minPollers: number;
  stalledFor?: number;
}
const stalls = new WeakMap<ScenarioContext, Stall>();

/**
 * The upgrade docs/deployment.md described before: the only worker service replaced by build B. B is not current, A
 * has no worker: every payment waits, and the alerts must say so. The scenario holds the stall until the stuck gauge
 * shows the current build with no poller and a workflow task waiting over 60 s (XborderCurrentBuildNoPollers and
 * XborderCurrentBuildBacklogAging: the thresholds of the rules; their `for:` is Prometheus's), then does what the
 * runbook says (start the current build's workers), and every payment still ends.
 */
export const DEPLOY_REPLACE_ONLY_WORKER_SCENARIO: Scenario = {
  name: 'deploy-replace-only-worker',
  what: "the old documented upgrade: the only worker replaced by build B, nobody makes B current; the stall is seen by the stuck gauge (no poller, backlog over 60 s), then the runbook step (the current build's workers back) lets every payment end",
  engines: ['cluster'],
  // the stall must outlast the server's memory of the stopped poller (2 min): too long for CI's short profile
  shortProfile: false,
  needsCluster: true,
  async disrupt(ctx) {
    const st: Stall = { maxBacklogAgeS: 0, minPollers: Number.POSITIVE_INFINITY };
    stalls.set(ctx, st);
    while (ctx.launched() < Math.ceil(ctx.payments * 0.3) && !ctx.done()) await sleep(200);
    const bundlePath = await newBuildBundle();
    st.buildB = derivedBuildId(await workflowBundleDigest({ codePath: bundlePath }));
    await ctx.workers.stop();
    const stoppedAt = Date.now();
    ctx.log(
      `deploy: the only worker (build A, current) replaced by build ${st.buildB}; nothing made it current`,
    );
    const b = await superviseWorker(
      { ...ctx.target, bundlePath, version: { deploymentName: ctx.deploymentName } },
      ctx.log,
    );
    ctx.addWorkers(b);
    const until = Math.min(ctx.deadline - 60_000, Date.now() + 240_000);
    while (Date.now() < until && !(st.maxBacklogAgeS > 60 && st.minPollers === 0)) {
      const counted = await countStuckPayments(ctx.stack.client, {
        now: new Date(),
        deploymentName: ctx.deploymentName,
        taskQueue: ctx.target.taskQueue,
      }).catch(() => null);
      const current = counted?.current;
      if (current && current.buildId === 'A') {
        st.maxBacklogAgeS = Math.max(st.maxBacklogAgeS, current.backlog.ageSeconds);
        if (current.pollers) st.minPollers = Math.min(st.minPollers, current.pollers.workflow);
        ctx.log(
          `deploy: current build A: ${current.pollers?.workflow ?? '?'} workflow pollers, ${current.backlog.count} tasks waiting, oldest ${Math.round(current.backlog.ageSeconds)} s`,
        );
      }
      await sleep(5_000);
    }
    st.stalledFor = Math.round((Date.now() - stoppedAt) / 1000);
    // the runbook: start the current build's workers again. Making B current would not do: the payments already
    // PINNED to A wait for A's workers whatever is current (the first run of this scenario, which did that, left 6).
    ctx.addWorkers(
      await startBuild(
        ctx.stack.client,
        ctx.target,
        { deploymentName: ctx.deploymentName, buildId: 'A' },
        ctx.log,
      ),
    );
    ctx.log(
      `deploy: after ${st.stalledFor} s, build A's workers back (the runbook step); B stays not current`,
    );
    return 2; // A replaced by B, A back
  },
  async check(ctx) {
    const st = stalls.get(ctx);
    const problems: string[] = [];
    if (!st || st.maxBacklogAgeS <= 60)
      problems.push(
        `the stuck gauge never saw the current build's backlog past 60 s (at most ${Math.round(st?.maxBacklogAgeS ?? 0)} s): XborderCurrentBuildBacklogAging would stay silent`,
      );
    if (!st || st.minPollers !== 0)
      problems.push(
        'the stuck gauge never saw the current build without a poller: XborderCurrentBuildNoPollers would stay silent',
      );
    return {
      problems,
      notes: `stall of ${st?.stalledFor ?? '?'} s seen by the gauge: current build A with ${Number.isFinite(st?.minPollers ?? NaN) ? st!.minPollers : '-'} live workflow pollers, oldest task ${Math.round(st?.maxBacklogAgeS ?? 0)} s; then A's workers back (B ${st?.buildB} never current)`,
    };
  },
};
