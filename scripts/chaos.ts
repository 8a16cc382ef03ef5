// `npm run chaos`: the chaos suite (test/chaos/), every scenario on the Temporal cluster on
// PostgreSQL (and server SIGKILL on the dev server too), then the table. Traffic only to 127.0.0.1.
//   npm run chaos                                   full profile: 200 payments per scenario
//   npm run chaos -- --profile short                what CI runs (test/chaos/chaos-short.test.ts)
//   npm run chaos -- --only worker-sigkill,bad-input --payments 50 --seed 42 --engines cluster
//   npm run chaos -- --only park-10k [--payments 1000]   10,000 parked, funded in one burst (only when named)
//   npm run chaos -- --only park-10k --report-at 2500,5000,10000 --report-after-drain   and `xborder report` timed
// Exit code 1 when any scenario found a duplicate, a lost payment, a wrong outcome or an unreconciled event.
import { parseArgs } from 'node:util';
import { codecKeysFromEnv, generateCodecKeys } from '../src/codec/keys';
import { startEngine, type Engine, type EngineName } from '../test/chaos/engines';
import {
  PROFILES,
  resultTable,
  runBadInputScenario,
  runScenario,
  type ScenarioResult,
} from '../test/chaos/run-scenario';
import { ALL_SCENARIOS as SCENARIOS } from '../test/chaos/all-scenarios';
import { killAllWorkers, prebuiltBundle } from '../test/chaos/worker-supervisor';
import { killAllIngresses } from '../test/chaos/ingress-process';
import {
  PARK_DEFAULT_PAYMENTS,
  PARK_SCENARIO,
  runParkScenario,
  type ReportProbes,
} from '../test/chaos/park-burst';

export async function runChaos(options: {
  profile: 'full' | 'short';
  only?: string[];
  engines?: EngineName[];
  payments?: number;
  seed: number;
  log: (line: string) => void;
  /** park-10k only: `xborder report` at these parked counts (and after the drain), test/chaos/report-probe.ts */
  reportProbes?: ReportProbes;
}): Promise<ScenarioResult[]> {
  const profile = {
    ...PROFILES[options.profile],
    ...(options.payments ? { payments: options.payments } : {}),
  };
  const wanted = (name: string) => !options.only || options.only.includes(name);
  const results: ScenarioResult[] = [];
  await prebuiltBundle();
  for (const engineName of options.engines ?? (['cluster', 'dev-server'] as EngineName[])) {
    // By default each scenario on its engines; --engines runs the chosen ones on the engines named.
    const runsOn = (s: (typeof SCENARIOS)[number]) =>
      options.engines ? !s.needsCluster || engineName === 'cluster' : s.engines.includes(engineName);
    const inProfile = (s: (typeof SCENARIOS)[number]) =>
      options.only !== undefined || profile.name !== 'short' || s.shortProfile !== false;
    const scenarios = SCENARIOS.filter((s) => runsOn(s) && wanted(s.name) && inProfile(s));
    const badInput = (options.engines ? true : engineName === 'cluster') && wanted('bad-input');
    // Only when named (hours at 10,000): on the production engine, the cluster.
    const park = engineName === 'cluster' && !!options.only?.includes(PARK_SCENARIO);
    if (scenarios.length === 0 && !badInput && !park) continue;
    const engine: Engine = await startEngine(engineName, options.log);
    // Ctrl-C or a CI timeout: the server, PostgreSQL and workers run in their own process groups.
    const onSignal = (signal: NodeJS.Signals) =>
      void (killAllWorkers(), killAllIngresses(), engine.stop()).finally(() =>
        process.exit(signal === 'SIGINT' ? 130 : 143),
      );
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      let seed = options.seed;
      for (const scenario of scenarios) {
        options.log(
          `== ${scenario.name} on ${engineName}: ${scenario.what} (${profile.payments} payments, seed ${seed})`,
        );
        const result = await runScenario(scenario, engine, profile, seed++, options.log);
        options.log(`   ${JSON.stringify({ ...result, problems: result.problems.length })}`);
        for (const problem of result.problems.slice(0, 20)) options.log(`   problem: ${problem}`);
        results.push(result);
      }
      if (badInput) {
        options.log(`== bad-input on ${engineName}`);
        const result = await runBadInputScenario(engine, seed, options.log);
        options.log(`   ${result.notes}`);
        for (const problem of result.problems.slice(0, 20)) options.log(`   problem: ${problem}`);
        results.push(result);
      }
      if (park) {
        const payments = options.payments ?? PARK_DEFAULT_PAYMENTS;
        options.log(
          `== ${PARK_SCENARIO} on ${engineName}: ${payments} payments parked awaiting funds, then funded in one burst (seed ${seed})`,
        );
        const result = await runParkScenario(engine, payments, seed++, options.log, options.reportProbes);
        options.log(`   ${JSON.stringify({ ...result, problems: result.problems.length })}`);
        for (const problem of result.problems.slice(0, 20)) options.log(`   problem: ${problem}`);
        results.push(result);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await engine.stop();
    }
  }
  return results;
}

export function failed(results: ScenarioResult[]): boolean {
  return results.some((r) => r.duplicates + r.lost + r.wrongOutcomes + r.webhooksUnreconciled > 0);
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'full' },
      only: { type: 'string' },
      engines: { type: 'string' },
      payments: { type: 'string' },
      seed: { type: 'string' },
      'report-at': { type: 'string' },
      'report-after-drain': { type: 'boolean' },
      'report-out': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(
      `Usage: npm run chaos -- [--profile full|short] [--only ${[...SCENARIOS.map((s) => s.name), 'bad-input', PARK_SCENARIO].join(',')}] [--engines cluster,dev-server] [--payments N] [--seed N]\n` +
        `  park-10k only: [--report-at 2500,5000,10000] [--report-after-drain] [--report-out DIR]: \`xborder report\` timed at those parked counts (parking paused), peak RSS and counts logged`,
    );
    process.exit(0);
  }
  if (values.profile !== 'full' && values.profile !== 'short') throw new Error('--profile is full or short');
  // Payloads encrypted as in production: without keys, a throw-away one for this run, passed to
  // every worker process it starts (jest's setup gives the CI profile the committed test key).
  if (codecKeysFromEnv(process.env).kind === 'missing')
    process.env.XBORDER_CODEC_KEYS = JSON.stringify(generateCodecKeys('chaos'));
  const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 1_000_000);
  const started = Date.now();
  runChaos({
    profile: values.profile,
    only: values.only?.split(','),
    engines: values.engines?.split(',') as EngineName[] | undefined,
    payments: values.payments ? Number(values.payments) : undefined,
    seed,
    reportProbes:
      values['report-at'] || values['report-after-drain']
        ? {
            at: (values['report-at'] ?? '').split(',').filter(Boolean).map(Number),
            afterDrain: values['report-after-drain'] ?? false,
            outDir: values['report-out'] ?? '.runs/report-probes',
          }
        : undefined,
    log: (line) => console.log(`[${Math.round((Date.now() - started) / 1000)}s] ${line}`),
  })
    .then((results) => {
      console.log(`\n${resultTable(results)}\n`);
      process.exit(failed(results) ? 1 : 0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(2);
    });
}
