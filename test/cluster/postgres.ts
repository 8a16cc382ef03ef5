// A throwaway PostgreSQL for the cluster harness: the Debian server binaries, a data directory in a temp
// dir, a free loopback port, password auth (as compose's postgres image). initdb and postgres refuse to run
// as root, so as root they run as the `postgres` user (setpriv execs in place: the pid we hold is the
// postmaster's, and signals reach it directly).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../support/ports';
import { killGroup, stopChild, waitUntilListening } from './processes';

export interface PostgresServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Fast shutdown (SIGINT) then start again on the same data: a PostgreSQL restart. */
  restart(downMs?: number): Promise<void>;
  /** Stops the server and removes its data. Safe to call twice. */
  stop(): Promise<void>;
}

/** The newest /usr/lib/postgresql/<n>/bin (PG_BIN_DIR overrides). */
export function postgresBinDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base).filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error(
      'no PostgreSQL server binaries under /usr/lib/postgresql: run scripts/ensure-temporal-server.sh (installs the `postgresql` package)',
    );
  return path.join(base, newest, 'bin');
}

/** `setpriv` prefix that drops root to the postgres user; nothing when not root. */
function asPostgresUser(): { prefix: string[]; uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid <= 0)
    throw new Error('running as root and no `postgres` user to run PostgreSQL as');
  return { prefix: ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'], uid, gid };
}

export async function startPostgres(
  options: { user?: string; password?: string; log?: (line: string) => void } = {},
): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const user = options.user ?? 'temporal';
  const password = options.password ?? `pw-${Math.random().toString(36).slice(2)}`;
  const log = options.log ?? (() => undefined);
  const runAs = asPostgresUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-pg-'));
  const dataDir = path.join(dir, 'data');
  const socketDir = path.join(dir, 'sock');
  mkdirSync(socketDir);
  writeFileSync(path.join(dir, 'pwfile'), `${password}\n`);
  if (runAs.uid !== undefined)
    for (const p of [dir, socketDir, path.join(dir, 'pwfile')]) chownSync(p, runAs.uid, runAs.gid!);

  const command = (name: string, args: string[]) => [...runAs.prefix, path.join(bin, name), ...args];
  const [initCmd, ...initArgs] = command('initdb', [
    '-D',
    dataDir,
    '-U',
    user,
    `--pwfile=${path.join(dir, 'pwfile')}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const init = spawnSync(initCmd!, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }

  const host = '127.0.0.1';
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    // fsync off: this data is thrown away and the OS never crashes under it; a PostgreSQL crash or
    // restart still loses nothing committed (synchronous_commit stays on).
    const [cmd, ...args] = command('postgres', [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-k',
      socketDir,
      '-c',
      `listen_addresses=${host}`,
      '-c',
      'fsync=off',
    ]);
    child = spawn(cmd!, args, { cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const running = child;
    await waitUntilListening(host, port, 60_000, () =>
      running.exitCode !== null ? `postgres exited: ${stderr}` : null,
    );
    // Listening is not accepting sessions yet (crash recovery after a kill): pg_isready says when.
    const deadline = Date.now() + 60_000;
    while (spawnSync(path.join(bin, 'pg_isready'), ['-q', '-h', host, '-p', String(port)]).status !== 0) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on ${host}:${port} not ready: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    log(`PostgreSQL on ${host}:${port}`);
  };
  const shutdown = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await stopChild(running, 'SIGINT', 30_000); // fast shutdown: open sessions are cut, as in `pg_ctl stop -m fast`
  };

  try {
    await start();
  } catch (error) {
    if (child) killGroup(child, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  return {
    host,
    port,
    user,
    password,
    async restart(downMs = 0) {
      await shutdown();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await shutdown();
      if (child) killGroup(child, 'SIGKILL'); // and any backend left in its group
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
