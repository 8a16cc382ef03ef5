// Options of `npm run bench` (defaults: the full sizes; --quick: a smoke run for CI, well under 2 minutes,
// without `actions`, which has a budget test of its own: test/workflows/actions-per-payment.test.ts).
import { z } from 'zod';

const count = z.coerce.number().int().positive();
/** `actions`: Temporal actions per payment path (runs on the time-skipping server: scenarios/actions.ts) */
export const SCENARIOS = ['p1', 'p2', 'p3', 'p5', 'actions'] as const;
/** the scenarios that run on the bench's stack */
export type StackScenario = Exclude<(typeof SCENARIOS)[number], 'actions'>;

export const BenchOptionsSchema = z.object({
  quick: z.boolean(),
  scenarios: z.array(z.enum(SCENARIOS)).min(1),
  /** P1: payments (and skeletons) started, at this concurrency */
  n: count,
  concurrency: count,
  /** P1: starts one at a time, for time-to-created at concurrency 1 */
  sequential: count,
  /** P2: workflows parked (all cached) to measure RSS per parked workflow */
  rssWorkflows: count,
  /** P2: payments parked with the worker held to `cache` cached workflows */
  parked: count,
  cache: count,
  /** P2: payments signalled one at a time among the cached and among the evicted */
  probes: count,
  /** P3: events per second and in all, for the ingress and for the bare signal each */
  rate: count,
  events: count,
  /** P5: worker starts of each kind */
  starts: count,
  /**
   * P1/P2: minutes to go on waiting for payments not ended when the window closed (180 s + 300 ms per funded
   * payment): those that end then are counted late, not lost. 65 covers the entity's hourly read of a quiet
   * payment whose funding webhooks were all refused.
   */
  lateWait: z.coerce.number().int().nonnegative(),
  /**
   * Temporal under the bench: `dev` the CLI's dev server (SQLite, what `npm start` runs), `postgres` the
   * Temporal server on PostgreSQL as temporal-docker/compose.yaml runs it (test/cluster: built once per machine).
   */
  engine: z.enum(['dev', 'postgres']),
  /** heap snapshots and a CPU profile into bench-results/ (workers in debug mode: one thread) */
  profile: z.boolean(),
});
export type BenchOptions = z.infer<typeof BenchOptionsSchema>;

const FULL = {
  n: 200,
  concurrency: 20,
  sequential: 20,
  rssWorkflows: 200,
  parked: 10_000,
  cache: 1_000,
  probes: 50,
  rate: 200,
  events: 2_000,
  starts: 3,
  lateWait: 65,
};
const QUICK = {
  n: 6,
  concurrency: 3,
  sequential: 2,
  rssWorkflows: 6,
  parked: 12,
  cache: 8,
  probes: 2,
  rate: 10,
  events: 30,
  starts: 1,
  lateWait: 0,
};

/** `--quick`, `--profile`, `--only p1,p3`, and `--<option> <number>` for any count above. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const raw: Record<string, unknown> = {
    ...(quick ? QUICK : FULL),
    quick,
    profile: argv.includes('--profile'),
    scenarios: quick ? SCENARIOS.filter((x) => x !== 'actions') : [...SCENARIOS],
    engine: 'dev',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick' || arg === '--profile') continue;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const name = arg.slice(2);
    const value = argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    if (name === 'only') raw.scenarios = value.split(',');
    else if (name === 'engine') raw.engine = value;
    else if (name in FULL) raw[name] = value;
    else
      throw new Error(
        `unknown option ${arg} (options: --quick, --profile, --only ${SCENARIOS.join(',')}, --engine dev|postgres, ${Object.keys(
          FULL,
        )
          .map((k) => `--${k}`)
          .join(', ')})`,
      );
  }
  return BenchOptionsSchema.parse(raw);
}
