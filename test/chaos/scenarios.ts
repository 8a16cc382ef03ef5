// The chaos scenarios of issue 15. Each runs the same payment mix (workload.ts) on its own stack (sandbox,
// ingress, task queue) while its disruption runs, then the checks of verify.ts.
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import type { Engine, EngineName } from './engines';
import type { OutageReceiver } from './outage-receiver';
import type { Random } from './random';
import type { WorkerSupervisor, WorkerTarget } from './worker-supervisor';
import type { PaymentRun } from './workload';

export interface ScenarioContext {
  engine: Engine;
  stack: LocalStack;
  workers: WorkerSupervisor;
  random: Random;
  log: (line: string) => void;
  /** true once every payment of the run has an outcome (or the run timed out) */
  done: () => boolean;
  /** when the scenario's budget ends (ms since the epoch) */
  deadline: number;
  /** the scenario's own Worker Deployment; `workers` are its build A, current from the start */
  deploymentName: string;
  /** where workers of another build connect (versioned-workers.ts startBuild) */
  target: WorkerTarget;
  /** payment workflows the run will start */
  payments: number;
  /** payment workflows started so far */
  launched: () => number;
  /** the runs so far, as their drivers fill them in */
  runs: readonly PaymentRun[];
  /** more workers the scenario started: stopped with the scenario */
  addWorkers: (workers: WorkerSupervisor) => void;
  /** the backend's event endpoint, when the scenario asks for one (`eventsReceiver`) */
  receiver?: OutageReceiver;
}

export interface Scenario {
  name: string;
  what: string;
  /** where `npm run chaos` runs it by default */
  engines: EngineName[];
  /** needs PostgreSQL (only the cluster has one) */
  needsCluster?: boolean;
  /** a webhook storm proxy sits between the sandbox and the ingress */
  storm?: boolean;
  /** payments are started with `events` and the workers deliver them to a receiver of the run (ctx.receiver) */
  eventsReceiver?: boolean;
  setup?: (ctx: ScenarioContext) => Promise<void>;
  /** the disruption, looping until ctx.done(); returns how many times it struck */
  disrupt?: (ctx: ScenarioContext) => Promise<number>;
  /** before the checks (faults cleared, so the checks read the sandbox undisturbed) */
  teardown?: (ctx: ScenarioContext) => Promise<void>;
  /** before the driver starts payment `index`: a scenario may hold the traffic until its step is done */
  beforePayment?: (ctx: ScenarioContext, index: number) => Promise<void>;
  /** checks of its own after the common ones; each problem counts as a wrong outcome */
  check?: (ctx: ScenarioContext, runs: PaymentRun[]) => Promise<{ problems: string[]; notes: string }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps up to `ms`, waking early when the run is done. */
async function pause(ctx: ScenarioContext, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!ctx.done() && Date.now() < until) await sleep(Math.min(250, until - Date.now()));
}

async function until(ctx: ScenarioContext): Promise<void> {
  while (!ctx.done()) await sleep(250);
}

async function loop(ctx: ScenarioContext, gap: [number, number], strike: () => Promise<void>, max = 1_000): Promise<number> {
  let strikes = 0;
  // The first strike early, while the traffic is surely running (a fast run can end within one gap).
  await pause(ctx, ctx.random.int(1_000, 4_000));
  while (!ctx.done() && strikes < max) {
    await strike();
    strikes++;
    await pause(ctx, ctx.random.int(...gap));
  }
  return strikes;
}

const PROVIDER_FAULTS = [
  // 10% each on POST /v1/payments (the call that moves money), the first four on every other route too.
  { route: 'POST /v1/payments', kind: 'error', status: 500, rate: 0.1 },
  { route: 'POST /v1/payments', kind: 'error', status: 429, rate: 0.1 }, // Retry-After: 1
  { route: 'POST /v1/payments', kind: 'latency', latencyMs: 3_000, rate: 0.1 },
  { route: 'POST /v1/payments', kind: 'connectionDrop', rate: 0.1 },
  { route: 'POST /v1/payments', kind: 'error', status: 500, afterCommit: true, rate: 0.1 }, // written, then failed
  { kind: 'error', status: 503, rate: 0.1 },
  { kind: 'error', status: 429, rate: 0.1 },
  { kind: 'latency', latencyMs: 2_000, rate: 0.1 },
  { kind: 'connectionDrop', rate: 0.1 },
];

export const SCENARIOS: Scenario[] = [
  {
    name: 'worker-sigkill',
    what: 'worker process SIGKILLed at a random moment 5–15 s after it started (the first 1–4 s), restarted 0–1 s later',
    engines: ['cluster'],
    // Counted from the worker's start-up line: a restarted worker needs seconds to load and poll on a busy
    // machine, and a killed one leaves its workflow tasks to time out (10 s) on its sticky queue first. Kills
    // closer than that leave no time for work at all (tried: 1–8 s, 20 kills in 5 minutes, nothing done).
    disrupt: async (ctx) => {
      let kills = 0;
      while (!ctx.done()) {
        await Promise.race([ctx.workers.ready(), until(ctx)]);
        await pause(ctx, kills === 0 ? ctx.random.int(1_000, 4_000) : ctx.random.int(5_000, 15_000));
        if (ctx.done()) break;
        ctx.workers.kill(ctx.random.int(0, 1_000));
        kills++;
      }
      return kills;
    },
  },
  {
    name: 'server-sigkill',
    what: 'Temporal server SIGKILLed 1–4 s into the run, then every 8–15 s, restarted after 0–3 s',
    engines: ['cluster', 'dev-server'],
    disrupt: (ctx) =>
      loop(ctx, [8_000, 15_000], async () => {
        ctx.log(`${ctx.engine.name}: SIGKILL of the Temporal server`);
        await ctx.engine.restartServer(ctx.random.int(0, 3_000));
      }),
  },
  {
    name: 'postgres-restart',
    what: 'PostgreSQL fast shutdown and restart 1–4 s into the run, then every 8–15 s, down 0–3 s',
    engines: ['cluster'],
    needsCluster: true,
    disrupt: (ctx) =>
      loop(ctx, [8_000, 15_000], async () => {
        ctx.log('cluster: PostgreSQL restart');
        await ctx.engine.restartPostgres!(ctx.random.int(0, 3_000));
      }),
  },
  {
    name: 'provider-faults',
    what: '10% each: 5xx, 429 + Retry-After, latency, connection drop on every route; and afterCommit 500 on POST /v1/payments',
    engines: ['cluster'],
    async setup(ctx) {
      for (const fault of PROVIDER_FAULTS) await got.post(`${ctx.stack.sandbox.url}/sandbox/faults`, { headers: ctx.stack.sandbox.controlHeaders, json: fault });
    },
    async teardown(ctx) {
      await got.delete(`${ctx.stack.sandbox.url}/sandbox/faults`, { headers: ctx.stack.sandbox.controlHeaders });
    },
  },
  {
    name: 'webhook-storm',
    what: 'every event ×3 shuffled, 20% dropped; Temporal server down 5 s twice while webhooks arrive',
    engines: ['cluster'],
    storm: true,
    disrupt: (ctx) =>
      loop(
        ctx,
        [6_000, 12_000],
        async () => {
          ctx.log('cluster: Temporal unreachable for 5 s during the storm');
          await ctx.engine.restartServer(5_000);
        },
        2,
      ),
  },
];
