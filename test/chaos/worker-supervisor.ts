// Our worker as its own process (workers/main.ts, as compose runs it), kept running like compose's
// `restart: unless-stopped`: when it dies (SIGKILL by the chaos, or a fatal error) a new one starts.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWorkflowBundle } from '../../workers/workflow-bundle';

const ROOT = path.resolve(__dirname, '..', '..');

let bundle: Promise<string> | undefined;
/** One prebuilt workflow bundle per process, so a restarted worker is up in about a second. */
export function prebuiltBundle(): Promise<string> {
  bundle ??= (async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-bundle-')), 'workflow-bundle.js');
    writeFileSync(file, await buildWorkflowBundle());
    return file;
  })();
  return bundle;
}

const live = new Set<ChildProcess>();
/** SIGKILL of every worker process still running (an interrupted chaos run: they would keep polling). */
export function killAllWorkers(): void {
  for (const child of live) child.kill('SIGKILL');
}

export interface WorkerTarget {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  providerUrl: string;
  apiKey: string;
  /**
   * A versioned worker (Worker Deployment Versioning, as production runs): its deployment and build. No build id: the
   * worker derives it from its bundle, as compose's workers do (docs/deployment.md, "Build ids").
   */
  version?: { deploymentName: string; buildId?: string };
  /** Another workflow bundle than the run's prebuilt one (a new build's code). */
  bundlePath?: string;
  /** Variables over this process's environment, read at each (re)start: an operator's new config (key-rotation.ts); undefined removes one. */
  env?: () => Record<string, string | undefined>;
}

/** process.env with `overrides` over it (an undefined value removes the variable). */
export function environmentWith(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface WorkerSupervisor {
  /** SIGKILL of the running worker; the supervisor starts another after `restartAfterMs`. */
  kill(restartAfterMs: number): void;
  /** An operator's restart: SIGTERM (the worker drains), then a new process with the configuration of now (target.env). */
  restart(): Promise<void>;
  /** Resolves once the running worker has connected and polls (its start-up line). */
  ready(): Promise<void>;
  /** Processes started so far (1 + restarts). */
  readonly started: number;
  /** Unexpected exits (not our kills). */
  readonly crashes: number;
  /** The running worker's process id (its RSS is read from /proc), undefined between a kill and the restart. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

export async function superviseWorker(
  target: WorkerTarget,
  log: (line: string) => void = () => undefined,
): Promise<WorkerSupervisor> {
  const bundlePath = target.bundlePath ?? (await prebuiltBundle());
  let current: ChildProcess | undefined;
  let stopping = false;
  let started = 0;
  let crashes = 0;
  let pendingRestart: NodeJS.Timeout | undefined;
  let readyChild: ChildProcess | undefined;

  const start = () => {
    pendingRestart = undefined;
    if (stopping) return;
    started++;
    const child = spawn(process.execPath, ['-r', 'tsx/cjs', path.join(ROOT, 'workers', 'main.ts')], {
      cwd: ROOT,
      env: {
        // the chaos stack's sandbox has no rate limit (test/e2e/stack-support.ts): the key's budget must not be what a
        // scenario measures (workers/config.ts defaults to 8 calls per second); a scenario or the shell may set its own
        XBORDER_PROVIDER_CALLS_PER_SECOND: '10000',
        ...environmentWith(target.env?.()),
        TEMPORAL_ADDRESS: target.temporalAddress,
        TEMPORAL_NAMESPACE: target.namespace,
        XBORDER_TASK_QUEUE: target.taskQueue,
        XBORDER_PROVIDER_URL: target.providerUrl,
        XBORDER_PROVIDER_API_KEY: target.apiKey,
        XBORDER_WORKFLOW_BUNDLE: bundlePath,
        XBORDER_ENSURE_SCHEDULES: 'false',
        XBORDER_LOG_LEVEL: 'ERROR',
        ...(target.version
          ? {
              XBORDER_WORKER_VERSIONING: 'true',
              XBORDER_DEPLOYMENT_NAME: target.version.deploymentName,
              ...(target.version.buildId ? { XBORDER_BUILD_ID: target.version.buildId } : {}),
            }
          : { XBORDER_WORKER_VERSIONING: 'false' }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // workers/main.ts prints "worker: Temporal …, task queue …" once the worker runs.
    child.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('task queue')) readyChild = child;
    });
    child.stderr?.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n')) if (line.trim()) log(`worker: ${line.slice(0, 300)}`);
    });
    child.once('exit', (code, signal) => {
      if (current !== child) return;
      current = undefined;
      if (stopping) return;
      if (signal !== 'SIGKILL') {
        crashes++;
        log(`worker exited (code ${code}, signal ${signal}): restarting`);
      }
      pendingRestart ??= setTimeout(start, 1_000);
    });
    live.add(child);
    child.once('exit', () => live.delete(child));
    current = child;
  };
  start();

  return {
    async ready() {
      while (!stopping && (!current || readyChild !== current))
        await new Promise((resolve) => setTimeout(resolve, 200));
    },
    async restart() {
      const victim = current;
      if (!victim || stopping) return;
      current = undefined; // its exit is ours: no crash, no second restart
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      victim.kill('SIGTERM');
      const hard = setTimeout(() => victim.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(hard);
      if (pendingRestart) clearTimeout(pendingRestart);
      start();
    },
    kill(restartAfterMs) {
      const victim = current;
      if (!victim) return;
      current = undefined;
      victim.kill('SIGKILL');
      if (pendingRestart) clearTimeout(pendingRestart);
      pendingRestart = setTimeout(start, restartAfterMs);
    },
    get started() {
      return started;
    },
    get crashes() {
      return crashes;
    },
    get pid() {
      return current?.pid;
    },
    async stop() {
      stopping = true;
      if (pendingRestart) clearTimeout(pendingRestart);
      const victim = current;
      current = undefined;
      if (!victim || victim.exitCode !== null) return;
      const exited = new Promise((resolve) => victim.once('exit', resolve));
      victim.kill('SIGKILL'); // nothing to drain: the chaos run is over
      await exited;
    },
  };
}
