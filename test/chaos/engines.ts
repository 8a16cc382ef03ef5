// The Temporal a chaos scenario runs on: the cluster (PostgreSQL, test/cluster/temporal-cluster.ts) or the
// dev server of `npm start` (SQLite file), both restartable by SIGKILL so "Temporal server SIGKILL and
// restart" runs on each.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { temporalBinaries } from '../../src/cli/temporal-binaries';
import { freePort } from '../support/ports';
import { killGroup, waitForExit, waitUntilListening } from '../cluster/processes';
import { startTemporalCluster } from '../cluster/temporal-cluster';

export type EngineName = 'cluster' | 'dev-server';

export interface Engine {
  name: EngineName;
  address: string;
  port: number;
  namespace: string;
  restartServer(downMs: number): Promise<void>;
  /** Only the cluster has a PostgreSQL. */
  restartPostgres?: (downMs: number) => Promise<void>;
  stop(): Promise<void>;
}

export async function startEngine(name: EngineName, log: (line: string) => void): Promise<Engine> {
  if (name === 'cluster') {
    const cluster = await startTemporalCluster({ log });
    return {
      name,
      address: cluster.address,
      port: cluster.port,
      namespace: cluster.namespace,
      restartServer: (downMs) => cluster.restartServer(downMs),
      restartPostgres: (downMs) => cluster.restartPostgres(downMs),
      stop: () => cluster.stop(),
    };
  }
  return startRestartableDevServer(log);
}

/** `temporal server start-dev` on a SQLite file that outlives a SIGKILL. Search attributes: the stack registers them. */
async function startRestartableDevServer(log: (line: string) => void): Promise<Engine> {
  const { cli } = temporalBinaries();
  if (!cli) throw new Error('no Temporal CLI: run `npm run ensure-temporal`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-chaos-dev-'));
  const port = await freePort();
  const uiPort = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--headless',
      '--db-filename',
      path.join(dir, 'temporal.db'),
      '--log-level',
      'error',
    ];
    const running = spawn(cli, args, { detached: true, stdio: 'ignore' });
    child = running;
    await waitUntilListening('127.0.0.1', port, 60_000, () =>
      running.exitCode !== null ? `dev server exited ${running.exitCode}` : null,
    );
    log(`dev server on 127.0.0.1:${port}`);
  };
  const kill = async () => {
    if (!child) return;
    killGroup(child, 'SIGKILL');
    await waitForExit(child, 15_000);
  };
  await start();
  return {
    name: 'dev-server',
    address: `127.0.0.1:${port}`,
    port,
    namespace: 'default',
    async restartServer(downMs) {
      await kill();
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
