// The webhook ingress as its own process (src/ingress/main.ts, as `xborder ingress` and compose run it), on a port
// of its own, so a chaos scenario can run two of them and SIGKILL one (replicas.ts), or restart them one by one
// with a new configuration (key-rotation.ts). It leads its own process group: a kill reaches all of it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { killGroup, waitForExit, waitUntilListening } from '../cluster/processes';
import { environmentWith } from './worker-supervisor';

const ROOT = path.resolve(__dirname, '..', '..');

export interface IngressTarget {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  port: number;
  /** The operator's configuration of the moment, read at each start: XBORDER_WEBHOOK_SECRETS, codec keys. */
  env: () => Record<string, string | undefined>;
}

export interface IngressProcess {
  /** http://127.0.0.1:<port>/webhooks */
  url: string;
  /** Processes started so far. */
  readonly started: number;
  /** SIGKILL of its process group; it stays down. */
  kill(): Promise<void>;
  /** An operator's restart: SIGTERM (the ingress closes its server), then a new process with the configuration of now. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
/** SIGKILL of every ingress process still running (an interrupted chaos run). */
export function killAllIngresses(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
}

export async function startIngressProcess(
  target: IngressTarget,
  log: (line: string) => void,
): Promise<IngressProcess> {
  let child: ChildProcess | undefined;
  let started = 0;
  const start = async () => {
    started++;
    const running = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'src', 'ingress', 'main.ts')], {
      cwd: ROOT,
      detached: true,
      env: {
        ...environmentWith(target.env()),
        TEMPORAL_ADDRESS: target.temporalAddress,
        TEMPORAL_NAMESPACE: target.namespace,
        XBORDER_TASK_QUEUE: target.taskQueue,
        XBORDER_INGRESS_HOST: '127.0.0.1',
        XBORDER_INGRESS_PORT: String(target.port),
        XBORDER_LOG_LEVEL: 'ERROR',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = running;
    live.add(running);
    running.once('exit', () => live.delete(running));
    running.stderr?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n'))
        if (line.trim()) log(`ingress :${target.port}: ${line.slice(0, 300)}`);
    });
    await waitUntilListening('127.0.0.1', target.port, 120_000, () =>
      running.exitCode !== null ? `ingress on :${target.port} exited ${running.exitCode}` : null,
    );
  };
  const end = async (signal: NodeJS.Signals) => {
    const victim = child;
    child = undefined;
    if (!victim || victim.exitCode !== null || victim.signalCode !== null) return;
    killGroup(victim, signal);
    if (!(await waitForExit(victim, 15_000))) {
      killGroup(victim, 'SIGKILL');
      await waitForExit(victim, 15_000);
    }
  };
  await start();
  return {
    url: `http://127.0.0.1:${target.port}/webhooks`,
    get started() {
      return started;
    },
    kill: () => end('SIGKILL'),
    async restart() {
      await end('SIGTERM');
      await start();
    },
    stop: () => end('SIGKILL'),
  };
}
