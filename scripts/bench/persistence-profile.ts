// The server's side of a P1 phase on `--engine postgres`: what the Temporal server wrote to PostgreSQL, per
// workflow started, read from PostgreSQL's own statistics (pg_stat_database commits, pg_stat_user_tables rows
// inserted/updated/deleted by table) before and after the phase. Each table is one kind of persistence call
// (executions: UpdateWorkflowExecution; history_node: AppendHistoryNodes; current_executions: a start; *_tasks:
// the server's task queues; executions_visibility: visibility upserts), so the per-payment deltas against the
// skeletons' say which calls a payment costs more of. Counts, not timings: repeatable on a loaded machine.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { postgresBinDir } from '../../test/cluster/postgres';
import { sleep } from './stats';

export interface PostgresAccess {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** Commits per database and rows written per `db.table`, as PostgreSQL counts them. */
export interface PersistenceSnapshot {
  commits: Record<string, number>;
  rows: Record<string, number>;
}

/** temporal-docker's databases (compose.yaml: DBNAME, VISIBILITY_DBNAME). */
const DATABASES = ['temporal', 'temporal_visibility'];
/**
 * A PostgreSQL backend publishes its counts at most once a second while busy and within 10 s once idle
 * (PG 15 cumulative statistics, PGSTAT_IDLE_INTERVAL): a snapshot waits that long so the phase is all in it.
 */
const STATS_SETTLE_MS = 11_000;

function psql(pg: PostgresAccess, database: string, sql: string): string[][] {
  const run = spawnSync(
    path.join(postgresBinDir(), 'psql'),
    ['-h', pg.host, '-p', String(pg.port), '-U', pg.user, '-d', database, '-At', '-F', '\t', '-c', sql],
    {
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: pg.password },
    },
  );
  if (run.status !== 0) throw new Error(`psql on ${database}: ${run.stderr.trim()}`);
  return run.stdout
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => line.split('\t'));
}

export async function persistenceSnapshot(pg: PostgresAccess): Promise<PersistenceSnapshot> {
  await sleep(STATS_SETTLE_MS);
  const snapshot: PersistenceSnapshot = { commits: {}, rows: {} };
  for (const [db, commits] of psql(
    pg,
    'temporal',
    `SELECT datname, xact_commit FROM pg_stat_database WHERE datname IN (${DATABASES.map((d) => `'${d}'`).join(', ')})`,
  )) {
    snapshot.commits[db!] = Number(commits);
  }
  for (const db of DATABASES) {
    for (const [table, written] of psql(
      pg,
      db,
      'SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_user_tables',
    )) {
      snapshot.rows[`${db === 'temporal' ? '' : `${db}.`}${table}`] = Number(written);
    }
  }
  return snapshot;
}

/** What happened between two snapshots, per unit (workflow started, payment funded). */
export function perUnit(
  before: PersistenceSnapshot,
  after: PersistenceSnapshot,
  units: number,
): PersistenceSnapshot {
  const delta = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.keys(b)
        .map((k) => [k, ((b[k] ?? 0) - (a[k] ?? 0)) / units])
        .filter(([, v]) => (v as number) > 0),
    );
  return { commits: delta(before.commits, after.commits), rows: delta(before.rows, after.rows) };
}

const total = (values: Record<string, number>) => Object.values(values).reduce((n, v) => n + v, 0);

/**
 * A markdown table: one line per table (and the commits), one column per subject, the payment's excess over
 * the two-workflow skeleton last. Tables the payment writes least come last.
 */
export function persistenceTable(
  unit: string,
  columns: Array<{ label: string; profile: PersistenceSnapshot }>,
): string {
  const tables = [...new Set(columns.flatMap((c) => Object.keys(c.profile.rows)))].sort(
    (a, b) => (columns.at(-1)!.profile.rows[b] ?? 0) - (columns.at(-1)!.profile.rows[a] ?? 0),
  );
  const fmt = (v: number | undefined) => (v === undefined ? '0' : v.toFixed(1));
  const line = (name: string, values: Array<number | undefined>) =>
    `| ${name} | ${values.map(fmt).join(' | ')} |`;
  return [
    `| ${unit} | ${columns.map((c) => c.label).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...DATABASES.map((db) =>
      line(
        `commits (${db})`,
        columns.map((c) => c.profile.commits[db]),
      ),
    ),
    line(
      '**rows written, all tables**',
      columns.map((c) => total(c.profile.rows)),
    ),
    ...tables.map((t) =>
      line(
        t,
        columns.map((c) => c.profile.rows[t]),
      ),
    ),
  ].join('\n');
}
