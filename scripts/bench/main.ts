// `npm run bench`: the cost of a payment against Temporal's own floor, measured as ratios in one run.
// Starts its own stack on free loopback ports (Temporal dev server, sandbox, ingress in this process; every
// worker in its own process with a prebuilt bundle), runs P1 (throughput), P2 (parked payments), P3 (ingress)
// and P5 (worker start), prints the table and writes it under bench-results/. Everything it started is
// stopped at the end, whatever happened.
//
//   npm run bench [-- --quick] [-- --only p1,p2,actions] [-- --engine postgres] [-- --n 200 --concurrency 20 --parked 10000 --cache 1000] [-- --profile]
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prebuildBundles } from './bundles';
import { createContext, type BenchContext } from './context';
import { parseBenchArgs, type StackScenario } from './options';
import { createProgress } from './progress';
import { describeMachine, markdownTable, writeResults } from './report';
import { startBenchStack } from './stack';
import { killAllWorkers } from './worker-handle';
import { runP1 } from './scenarios/p1-throughput';
import { runP2 } from './scenarios/p2-parked';
import { runP3 } from './scenarios/p3-ingress';
import { runP5 } from './scenarios/p5-worker-start';
import { runProfile } from './scenarios/profile';
import { ACTIONS_NOTE, actionsTable, measureActions } from './scenarios/actions';
import { codecKeysFromEnv, generateCodecKeys } from '../../src/codec/keys';

const RESULTS_DIR = path.join(__dirname, '..', '..', 'bench-results');
const SCENARIO_RUNNERS: Record<StackScenario, (ctx: BenchContext) => Promise<void>> = {
  p1: runP1,
  p2: runP2,
  p3: runP3,
  p5: runP5,
};

/**
 * The bench measures what production runs: payloads encrypted. Without XBORDER_CODEC_KEYS(_FILE) a
 * throw-away key is made for this run and passed to every process it starts; XBORDER_CODEC=disabled measures
 * plaintext (the codec's cost is the difference between two such runs).
 */
function useBenchCodecKey(): string {
  const source = codecKeysFromEnv(process.env);
  if (source.kind === 'disabled') return 'NOT encrypted (XBORDER_CODEC=disabled)';
  if (source.kind === 'keys') return `encrypted with the keys of ${source.source}`;
  process.env.XBORDER_CODEC_KEYS = JSON.stringify(generateCodecKeys('bench'));
  return 'encrypted with a throw-away key made for this run';
}

async function main(): Promise<number> {
  const options = parseBenchArgs(process.argv.slice(2));
  const progress = createProgress();
  const machine = describeMachine();
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    stopping = true;
    for (const stop of stops.splice(0).reverse())
      await stop().catch((error: unknown) => progress.log(`shutdown: ${String(error)}`));
  };
  let interrupted = false;
  let stopping = false;
  // Calls still in flight when the client closes (a scenario that failed half-way) must not crash the clean-up.
  process.on('uncaughtException', (error) => {
    if (!stopping) throw error;
    progress.log(`during shutdown: ${error.message}`);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      progress.log(`${signal}: stopping everything`);
      void stopAll().finally(() => process.exit(130));
    });
  }
  process.once('exit', killAllWorkers);

  const failed: string[] = [];
  let ctx: BenchContext | null = null;
  let actions: string | undefined;
  const actionNotes: string[] = [];
  const stackScenarios = options.scenarios.filter((s): s is StackScenario => s !== 'actions');
  try {
    progress.log(
      `machine: ${machine.cpus} CPUs, load ${machine.loadAverageAtStart.join(' / ')}; ${options.quick ? 'quick run' : 'full run'}`,
    );
    if (options.scenarios.includes('actions')) {
      try {
        progress.update('actions: driving every payment path on the time-skipping server');
        actions = actionsTable(await measureActions((line) => progress.log(line)));
        actionNotes.push(ACTIONS_NOTE);
      } catch (error) {
        failed.push(`actions: ${error instanceof Error ? error.message : String(error)}`);
        progress.log(
          `actions FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
    if (stackScenarios.length === 0) return report();
    progress.log(
      `payloads: ${useBenchCodecKey()}; Temporal: ${options.engine === 'postgres' ? 'server on PostgreSQL (--engine postgres)' : 'dev server on SQLite'}`,
    );
    const stack = await startBenchStack((line) => progress.log(line), options.engine);
    stops.push(async () => rmSync(stack.dir, { recursive: true, force: true })); // runs last: the server's SQLite file, the bundles
    stops.push(() => stack.close());
    progress.update('building the workflow bundles');
    const bundles = await prebuildBundles(path.join(stack.dir, 'bundles'));
    progress.log(`bundles: xborder ${bundles.xborderKb} KiB, skeleton ${bundles.skeletonKb} KiB`);
    ctx = createContext({ stack, options, progress, bundles, resultsDir: RESULTS_DIR }, (stop) =>
      stops.push(stop),
    );
    for (const scenario of stackScenarios) {
      if (interrupted) break;
      try {
        await SCENARIO_RUNNERS[scenario](ctx);
      } catch (error) {
        failed.push(`${scenario}: ${error instanceof Error ? error.message : String(error)}`);
        progress.log(
          `${scenario} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
      // the figures so far survive an interrupted run (same files, rewritten at the end)
      writeResults(RESULTS_DIR, {
        machine,
        options,
        rows: ctx.rows,
        notes: [...actionNotes, ...ctx.notes],
        failed,
        actions,
      });
    }
    if (options.profile && !interrupted) await runProfile(ctx);
  } catch (error) {
    failed.push(`bench: ${error instanceof Error ? error.message : String(error)}`);
    progress.log(`bench FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await stopAll();
  }
  return report();

  function report(): number {
    machine.loadAverageAtEnd = os.loadavg().map((l) => Math.round(l * 10) / 10);
    const rows = ctx?.rows ?? [];
    const notes = [...actionNotes, ...(ctx?.notes ?? [])];
    const written = writeResults(RESULTS_DIR, { machine, options, rows, notes, failed, actions });
    if (rows.length > 0) console.log(`\n${markdownTable(rows)}\n`);
    if (actions)
      console.log(`\nTemporal actions per payment (billed; in brackets: listed, not billed)\n\n${actions}\n`);
    for (const note of notes) console.log(`note: ${note}`);
    for (const failure of failed) console.log(`FAILED: ${failure}`);
    console.log(
      `results: ${path.relative(process.cwd(), written.markdown)} (and .json); load average ${machine.loadAverageAtStart.join(' / ')} → ${machine.loadAverageAtEnd.join(' / ')}`,
    );
    return failed.length > 0 ? 1 : 0;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
