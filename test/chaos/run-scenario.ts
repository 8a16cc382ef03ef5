// Runs one chaos scenario on one engine: its own stack, the payment mix, the disruption, the checks.
import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../../src/cli/stack';
import { startTestStack } from '../e2e/stack-support';
import { runBadInput, type BadInputResult } from './bad-input';
import type { Engine } from './engines';
import { seededRandom } from './random';
import type { Scenario, ScenarioContext, StackPlan } from './scenarios';
import { triggerReconcileSchedule } from './reconcile-schedule';
import { entityStatus, verifyScenario, type ScenarioCounts } from './verify';
import { OutageReceiver } from './outage-receiver';
import { startWebhookStorm, type WebhookStorm } from './webhook-storm';
import type { WorkerSupervisor, WorkerTarget } from './worker-supervisor';
import { startCurrentBuild } from './versioned-workers';
import { describeUnfinished } from './unfinished';
import {
  drivePayin,
  drivePayment,
  newPaymentRun,
  pickKind,
  type PayinRun,
  type PaymentRun,
} from './workload';

export interface ChaosProfile {
  name: string;
  /** payment workflows per scenario (plus one PAYIN per 10) */
  payments: number;
  /** a new payment every this many ms */
  spreadMs: number;
  /** the whole scenario, payments and checks, must end within this */
  timeoutMs: number;
}

export const PROFILES: Record<'full' | 'short', ChaosProfile> = {
  // the full profile: ≥ 200 payments per scenario
  full: { name: 'full', payments: 200, spreadMs: 150, timeoutMs: 20 * 60_000 },
  // CI: the same scenarios, a tenth of the traffic
  short: { name: 'short', payments: 20, spreadMs: 300, timeoutMs: 6 * 60_000 },
};

export interface ScenarioResult extends ScenarioCounts {
  scenario: string;
  engine: string;
  seed: number;
  disruptions: number;
  workerProcesses: number;
  seconds: number;
  /** scenario-specific figures (storm counts, bad-input counts) */
  notes: string;
  /** on a lost payment: the dump of the unfinished workflows (unfinished.ts) */
  diagnostics?: string[];
}

const QUOTE_VALIDITY_MS = 12_000;

async function stackOn(engine: Engine, webhookUrls?: string[], plan: StackPlan = {}): Promise<LocalStack> {
  return startTestStack({
    temporalPort: engine.port,
    namespace: engine.namespace,
    worker: false,
    schedules: false,
    ...(webhookUrls ? { sandboxWebhookUrls: webhookUrls } : {}),
    ...(plan.webhooks ? { sandboxWebhookUrls: plan.webhooks.urls } : {}),
    ...(plan.webhookSecret ? { webhookSecret: plan.webhookSecret } : {}),
    ...(plan.dataConverter ? { dataConverter: plan.dataConverter } : {}),
    sandbox: {
      ...(plan.webhooks ? { webhookDelivery: plan.webhooks.delivery } : {}),
      demoData: true,
      quoteValidityMs: QUOTE_VALIDITY_MS,
      // Retries spread over ~1 minute: a sender that outlasts a short Temporal outage.
      webhookRetryScheduleMs: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000],
    },
  });
}

export async function runScenario(
  scenario: Scenario,
  engine: Engine,
  profile: ChaosProfile,
  seed: number,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const began = Date.now();
  const deadline = began + profile.timeoutMs;
  const random = seededRandom(seed);
  const storm: WebhookStorm | undefined = scenario.storm
    ? await startWebhookStorm(seededRandom(seed + 1))
    : undefined;
  let stack: LocalStack | undefined;
  let workers: WorkerSupervisor | undefined;
  const moreWorkers: WorkerSupervisor[] = [];
  let plan: StackPlan = {};
  const receiver = scenario.eventsReceiver ? await new OutageReceiver().start() : undefined;
  try {
    plan = (await scenario.plan?.()) ?? {};
    stack = await stackOn(engine, storm ? [storm.url] : undefined, plan);
    storm?.target(stack.ingress.webhookUrl);
    const runId = randomUUID().slice(0, 6);
    // Versioned workers, a deployment per scenario run (versioned-workers.ts): build A serves.
    const deploymentName = `chaos-${scenario.name}-${runId}`;
    const workerEnv = () => ({ ...receiver?.workerEnv(), ...plan.workerEnv?.() });
    const target: WorkerTarget = {
      temporalAddress: engine.address,
      namespace: engine.namespace,
      taskQueue: stack.taskQueue,
      providerUrl: stack.sandbox.url,
      apiKey: stack.apiKey,
      env: workerEnv,
    };
    workers = await startCurrentBuild(stack.client, target, { deploymentName, buildId: 'A' }, log);
    let finished = false;
    let launched = 0;
    const runs: PaymentRun[] = [];
    const ctx: ScenarioContext = {
      engine,
      stack,
      workers,
      random,
      log,
      done: () => finished || Date.now() > deadline,
      deadline,
      deploymentName,
      target,
      payments: profile.payments,
      launched: () => launched,
      runs,
      addWorkers: (w) => moreWorkers.push(w),
      plan,
      ...(receiver ? { receiver } : {}),
    };
    await scenario.setup?.(ctx);

    const payments: Array<Promise<PaymentRun>> = [];
    const payins: Array<Promise<PayinRun>> = [];
    const s = stack;
    // Settle time for the checks comes out of the same budget.
    const paymentDeadline = deadline - 60_000;
    // A disruption that fails ends the traffic at once (its gates open: ctx.done()) and fails the scenario
    // after the payments already started are settled, instead of holding the rest back until the deadline.
    let disruptionFailure: { error: unknown } | undefined;
    const disruption = (scenario.disrupt ? scenario.disrupt(ctx) : Promise.resolve(0)).catch(
      (error: unknown) => {
        disruptionFailure = { error };
        finished = true;
        return 0;
      },
    );
    const traffic = (async () => {
      for (let i = 0; i < profile.payments; i++) {
        await scenario.beforePayment?.(ctx, i);
        if (disruptionFailure) break;
        const kind = pickKind(random);
        const amount = random.int(5, 60);
        const key = `chaos-${scenario.name}-${runId}-${i}`;
        const run = newPaymentRun(key, kind);
        runs.push(run);
        launched = i + 1;
        const driven = drivePayment(
          s,
          kind,
          key,
          amount,
          {
            quoteValidityMs: QUOTE_VALIDITY_MS,
            deadline: paymentDeadline,
            random: seededRandom(seed + 100 + i),
            events: receiver !== undefined,
          },
          run,
        );
        // past the deadline: the run as far as it got (a copy: the driver may still be writing to its own)
        payments.push(
          withDeadline(driven, paymentDeadline, () => ({
            ...run,
            error: `timed out (driver at stage ${run.stage}${run.error ? `; ${run.error}` : ''})`,
          })),
        );
        if (i % 10 === 5) payins.push(drivePayin(s, random.int(20, 200), paymentDeadline));
        await new Promise((resolve) => setTimeout(resolve, profile.spreadMs));
      }
    })();
    await traffic;
    const finishedRuns = await Promise.all(payments);
    const payinRuns = await Promise.all(payins);
    finished = true;
    const disruptions = await disruption;
    if (disruptionFailure) throw disruptionFailure.error;
    await scenario.teardown?.(ctx);

    // The payment-reconcile Schedule, as production runs it every 15 minutes: PAYINs and conversions whose every
    // webhook was dropped get an entity, stale ones are brought up to date.
    const payinIds = payinRuns.flatMap((p) => p.providerPaymentIds);
    const entitiesBeforeSchedule = new Map<string, string | undefined>();
    for (const id of payinIds) entitiesBeforeSchedule.set(id, await entityStatus(stack, id));
    const reconciled = await triggerReconcileSchedule(stack, `payment-reconcile-${scenario.name}-${runId}`);
    log(
      `   payment-reconcile Schedule: ${reconciled.listed} payments listed, ${reconciled.signalled.length} PAYINs/conversions signalled, ` +
        `${reconciled.followedSignalled ?? 0} followed payments' entities told a final status they had missed (${reconciled.workflowId})`,
    );
    const counts = await verifyScenario(stack, finishedRuns, payinRuns, {
      settleTimeoutMs: Math.min(120_000, Math.max(10_000, deadline - Date.now())),
      entitiesBeforeSchedule,
      ...(storm ? { deliveriesOf: async () => storm.deliveries() } : {}),
    });
    // Before the stack and engine stop: what the unfinished payments look like (a lost payment says why).
    // The scenario's own checks (where each payment ran, what the operator saw): a failure counts as a wrong outcome.
    const own = await scenario.check?.(ctx, finishedRuns);
    if (own) {
      counts.wrongOutcomes += own.problems.length;
      counts.problems.push(...own.problems);
    }
    const diagnostics =
      counts.lost > 0
        ? await describeUnfinished(stack, finishedRuns).catch((error: unknown) => [
            `   (no dump: ${String(error)})`,
          ])
        : [];
    for (const line of diagnostics) log(line);
    const stormCounts = storm?.counts();
    const retries = finishedRuns.reduce((n, r) => n + r.startRetries, 0);
    return {
      scenario: scenario.name,
      engine: engine.name,
      seed,
      disruptions,
      workerProcesses: workers.started + moreWorkers.reduce((n, w) => n + w.started, 0),
      seconds: Math.round((Date.now() - began) / 1000),
      notes: [
        ...(own?.notes ? [own.notes] : []),
        `${retries} startPayment calls made again by the backend (no answer the first time)`,
        `reconcile Schedule: ${reconciled.signalled.length} PAYINs/conversions signalled, ${counts.untrackedBeforeSchedule} had no entity before, ${reconciled.followedSignalled ?? 0} followed entities told a missed final status`,
        ...(stormCounts
          ? [
              `storm: ${stormCounts.events} events, ${stormCounts.dropped} dropped, ${stormCounts.copiesSent} copies sent, ${stormCounts.ingress5xx} answered 5xx`,
            ]
          : []),
      ].join('; '),
      ...counts,
      diagnostics,
    };
  } finally {
    await workers?.stop();
    for (const w of moreWorkers) await w.stop();
    await plan.close?.();
    await stack?.close();
    await storm?.close();
    await receiver?.stop();
  }
}

function withDeadline<T>(work: Promise<T>, deadline: number, fallback: () => T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback()), Math.max(0, deadline - Date.now()));
    // A driver still running when the stack closes fails on the closed connection: that is its end, not an
    // unhandled rejection surfacing in whatever test file runs next.
    void work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback());
      },
    );
  });
}

/** The bad-input scenario: ≥ 100 broken requests on a fresh stack, none may reach the provider. */
export async function runBadInputScenario(
  engine: Engine,
  seed: number,
  log: (line: string) => void,
): Promise<ScenarioResult & { badInput: BadInputResult }> {
  const began = Date.now();
  const stack = await stackOn(engine);
  const target: WorkerTarget = {
    temporalAddress: engine.address,
    namespace: engine.namespace,
    taskQueue: stack.taskQueue,
    providerUrl: stack.sandbox.url,
    apiKey: stack.apiKey,
  };
  const workers = await startCurrentBuild(
    stack.client,
    target,
    { deploymentName: `chaos-bad-input-${randomUUID().slice(0, 6)}`, buildId: 'A' },
    log,
  );
  try {
    const badInput = await runBadInput(stack, `bad-${randomUUID().slice(0, 6)}`);
    return {
      scenario: 'bad-input',
      engine: engine.name,
      seed,
      disruptions: 0,
      workerProcesses: workers.started,
      seconds: Math.round((Date.now() - began) / 1000),
      payments: badInput.requests,
      payins: 0,
      duplicates: 0,
      lost: badInput.sandboxPayments, // a provider payment for a refused request
      wrongOutcomes: badInput.notRefused.length + badInput.wrongField.length,
      webhooksDelivered: 0,
      webhooksReconciled: 0,
      webhooksUnreconciled: 0,
      reconciledBySchedule: 0,
      untrackedBeforeSchedule: 0,
      problems: [
        ...badInput.notRefused.map((r) => `not refused: ${r}`),
        ...badInput.wrongField.map((r) => `wrong field: ${r}`),
        ...(badInput.sandboxPayments ? [`${badInput.sandboxPayments} provider payments created`] : []),
      ],
      notes: `${badInput.refused}/${badInput.requests} refused (${badInput.viaTransfer} via startTransfer), ${badInput.sandboxPayments} provider payments`,
      badInput,
    };
  } finally {
    await workers.stop();
    await stack.close();
  }
}

/** The markdown table of the report and docs/deployment.md. */
export function resultTable(results: ScenarioResult[]): string {
  const head =
    '| Scenario | Engine | Payments (+PAYINs) | Disruptions | Duplicates | Lost | Wrong outcomes | Webhooks delivered / reconciled / neither | Reconcile Schedule: events reconciled / PAYINs untracked before | Time | Seed |';
  const rows = results.map(
    (r) =>
      `| ${r.scenario} | ${r.engine} | ${r.payments}${r.payins ? ` (+${r.payins})` : ''} | ${r.disruptions} | ${r.duplicates} | ${r.lost} | ${r.wrongOutcomes} | ${r.webhooksDelivered} / ${r.webhooksReconciled} / ${r.webhooksUnreconciled} | ${r.reconciledBySchedule} / ${r.untrackedBeforeSchedule} | ${r.seconds} s | ${r.seed} |`,
  );
  return [head, '|---|---|---|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
