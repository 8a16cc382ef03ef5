// Temporal as temporal-docker/compose.yaml runs it, without Docker: PostgreSQL from its Debian
// binaries, the schema job and the namespace job with temporal-docker's OWN scripts, and the Temporal server
// (built from its Go module at the compose's version) with the environment compose gives its container.
// The server image runs `temporal-server start` with no config file: the server renders its embedded
// template from that environment (SQL persistence and SQL visibility on PostgreSQL). We do the same and
// change only what a host needs: loopback addresses, free ports, host paths for the mounted files (the
// PostgreSQL password is compose's secret file, read as the compose entrypoint reads it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { temporalBinaries } from '../../src/cli/temporal-binaries';
import {
  containerEnv,
  DOCKER_DIR,
  loadCompose,
  processEnv,
  ROOT,
  type Compose,
  type Service,
} from '../docker/compose-model';
import net from 'node:net';
import { startPostgres, type PostgresServer } from './postgres';
import { killGroup, waitForExit, waitUntilListening } from './processes';

const PathsSchema = z.object({
  version: z.string(),
  server: z.string(),
  sqlTool: z.string(),
  schemaDir: z.string(),
});
export type TemporalServerPaths = z.infer<typeof PathsSchema>;

/** Server binary, SQL tool and schema folder, found or built by scripts/ensure-temporal-server.sh. */
export function temporalServerPaths(): TemporalServerPaths {
  const run = spawnSync('bash', [path.join(ROOT, 'scripts', 'ensure-temporal-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error('scripts/ensure-temporal-server.sh failed (see its output above)');
  return PathsSchema.parse(
    JSON.parse(readFileSync(path.join(ROOT, '.tools', 'temporal-server-paths.json'), 'utf8')),
  );
}

export interface TemporalCluster {
  /** host:port of the frontend, what TEMPORAL_ADDRESS would be. */
  address: string;
  port: number;
  namespace: string;
  version: string;
  postgres: PostgresServer;
  /** The server's own log (stdout and stderr), kept until stop(). */
  serverLog: string;
  /** SIGKILL of the server's process group, then a start with the same configuration. */
  restartServer(downMs?: number): Promise<void>;
  /** PostgreSQL fast shutdown and start, the server left running (it reconnects). */
  restartPostgres(downMs?: number): Promise<void>;
  /** Stops the server and PostgreSQL and removes their data. Safe to call twice. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  namespace?: string;
  log?: (line: string) => void;
}

function service(compose: Compose, name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`no service ${name} in temporal-docker/compose.yaml`);
  return found;
}

/** A path inside the container (relative to its working dir) → the host file mounted there. */
function hostPathOf(containerPath: string, svc: Service, workdir: string): string {
  const absolute = path.posix.resolve(workdir, containerPath);
  for (const volume of svc.volumes ?? []) {
    const [source, target] = String(volume).split(':');
    if (!source?.startsWith('.') || !target) continue;
    if (absolute === target || absolute.startsWith(`${target}/`))
      return path.join(DOCKER_DIR, source, absolute.slice(target.length));
  }
  throw new Error(`${containerPath} is not on a volume of the service`);
}

/** Runs one of temporal-docker/scripts/ with sh, as the admin-tools entrypoint does. */
function runScript(script: string, env: Record<string, string>, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [path.join(DOCKER_DIR, 'scripts', script)], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), ...env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      for (const line of out.trim().split('\n')) if (line) log(line);
      if (code === 0) resolve();
      else reject(new Error(`${script} exited ${code}:\n${out.slice(-3000)}`));
    });
  });
}

export async function startTemporalCluster(options: ClusterOptions = {}): Promise<TemporalCluster> {
  const log = options.log ?? (() => undefined);
  const namespace = options.namespace ?? 'default';
  const paths = temporalServerPaths();
  const { cli } = temporalBinaries();
  if (!cli) throw new Error('no Temporal CLI for setup-namespace.sh: run `npm run ensure-temporal`');
  const compose = loadCompose('compose.yaml');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-cluster-'));
  const serverLog = path.join(dir, 'temporal-server.log');

  let postgres: PostgresServer | undefined;
  let server: ChildProcess | undefined;
  let stopped = false;
  const stopServer = async () => {
    const running = server;
    if (!running) return;
    killGroup(running, 'SIGKILL');
    await waitForExit(running, 15_000);
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await stopServer();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    postgres = await startPostgres({ user: 'temporal', log });
    // What .env would hold; the rest comes from compose.yaml itself.
    const dotenv = {
      POSTGRES_USER: postgres.user,
      TEMPORAL_NAMESPACE: namespace,
    };
    // What temporal-docker/secrets/ would hold (scripts/make-secrets.sh): the password of this PostgreSQL.
    const secrets = path.join(dir, 'secrets');
    mkdirSync(secrets, { mode: 0o700 });
    writeFileSync(path.join(secrets, 'postgres_password'), `${postgres.password}\n`, { mode: 0o600 });
    const local = (source: string): string => {
      if (!source.startsWith('./secrets/')) throw new Error(`no host copy of ${source}`);
      return path.join(secrets, source.slice('./secrets/'.length));
    };
    const onHost = { POSTGRES_SEEDS: postgres.host, DB_PORT: String(postgres.port) };

    await runScript(
      'setup-schema.sh',
      {
        ...processEnv(compose, service(compose, 'temporal-schema-setup'), dotenv, local),
        ...onHost,
        SCHEMA_DIR: paths.schemaDir,
        TEMPORAL_SQL_TOOL: paths.sqlTool,
      },
      log,
    );

    const temporalService = service(compose, 'temporal');
    const composeEnv = processEnv(compose, temporalService, dotenv, local);
    // Below 32768: the cluster_membership table stores ports as SMALLINT, and the OS's ephemeral ports
    // (what freePort() gets) are above it: the server dies with "out of range for type smallint".
    const port = await freeLowPort();
    const ports: Record<string, string> = { FRONTEND_GRPC_PORT: String(port) };
    for (const name of [
      'FRONTEND_HTTP_PORT',
      'FRONTEND_MEMBERSHIP_PORT',
      'HISTORY_GRPC_PORT',
      'HISTORY_MEMBERSHIP_PORT',
      'MATCHING_GRPC_PORT',
      'MATCHING_MEMBERSHIP_PORT',
      'WORKER_GRPC_PORT',
      'WORKER_MEMBERSHIP_PORT',
    ])
      ports[name] = String(await freeLowPort(Object.values(ports)));
    const serverEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...composeEnv,
      // what compose's entrypoint does before the image's own (compose.yaml, service temporal)
      POSTGRES_PWD: readFileSync(composeEnv.POSTGRES_PWD_FILE!, 'utf8').trim(),
      ...onHost,
      ...ports,
      // 0.0.0.0 in the container; on a shared host, loopback only.
      BIND_ON_IP: '127.0.0.1',
      DYNAMIC_CONFIG_FILE_PATH: hostPathOf(
        composeEnv.DYNAMIC_CONFIG_FILE_PATH ?? '',
        temporalService,
        '/etc/temporal',
      ),
      LOG_LEVEL: process.env.XBORDER_CLUSTER_LOG_LEVEL ?? 'warn',
    };
    const address = `127.0.0.1:${port}`;
    const startServer = async () => {
      const fd = openSync(serverLog, 'a');
      const child = spawn(paths.server, ['start'], {
        cwd: dir,
        env: serverEnv,
        detached: true,
        stdio: ['ignore', fd, fd],
      });
      closeSync(fd);
      server = child;
      await waitUntilListening('127.0.0.1', port, 120_000, () =>
        child.exitCode !== null ? `temporal server exited ${child.exitCode}:\n${tail(serverLog)}` : null,
      );
      log(`Temporal server ${paths.version} on ${address} (PostgreSQL ${postgres!.host}:${postgres!.port})`);
    };
    await startServer();

    await runScript(
      'setup-namespace.sh',
      {
        ...containerEnv(service(compose, 'temporal-namespace-setup'), dotenv),
        TEMPORAL_ADDRESS: address,
        TEMPORAL_CLI: cli,
      },
      log,
    );

    const pg = postgres;
    return {
      address,
      port,
      namespace,
      version: paths.version,
      postgres: pg,
      serverLog,
      async restartServer(downMs = 0) {
        await stopServer();
        if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
        await startServer();
      },
      restartPostgres: (downMs = 0) => pg.restart(downMs),
      stop,
    };
  } catch (error) {
    const log = tail(serverLog);
    await stop();
    throw log ? new Error(`${(error as Error).message}\n--- temporal server log (end) ---\n${log}`) : error;
  }
}

/** A port free on 127.0.0.1 in [20000, 32000), not among `taken`. */
async function freeLowPort(taken: string[] = []): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.includes(String(port))) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in [20000, 32000) on 127.0.0.1');
}

function tail(file: string, chars = 3000): string {
  return existsSync(file) ? readFileSync(file, 'utf8').slice(-chars) : '';
}
