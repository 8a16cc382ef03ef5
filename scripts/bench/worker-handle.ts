// Starts worker-process.ts in its own process group and stops it (and anything it started) whatever happens.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { WorkerProcessConfig } from './worker-process';
import type { BenchReply, BenchRequest, WorkerMemory } from './worker-ipc';

export interface BenchWorker {
  pid: number;
  /** ms from process start to polling, and the worker's own create-to-polling part */
  ready: { sinceProcessStartMs: number; createMs: number };
  memory(): Promise<WorkerMemory>;
  heapSnapshot(file: string): Promise<void>;
  cpuProfileStart(): Promise<void>;
  cpuProfileStop(file: string): Promise<void>;
  stop(): Promise<void>;
}

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

const live = new Set<ChildProcess>();
/** Last resort on exit of the bench (crash, Ctrl-C): the whole group of every worker still running. */
export function killAllWorkers(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function startBenchWorker(
  config: WorkerProcessConfig,
  readyTimeoutMs = 180_000,
): Promise<BenchWorker> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(__dirname, 'worker-process.ts'), JSON.stringify(config)],
    {
      cwd: path.join(__dirname, '..', '..'),
      detached: true, // its own process group: stopped as a whole
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => live.delete(child));
  let nextId = 1;
  const pending = new Map<number, { resolve: (reply: BenchReply) => void; reject: (error: Error) => void }>();
  let onReady: ((reply: Extract<BenchReply, { type: 'ready' }>) => void) | null = null;
  child.on('message', (raw) => {
    const reply = raw as BenchReply;
    if (reply.type === 'ready') return onReady?.(reply);
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.type === 'error') waiter?.reject(new Error(`worker: ${reply.message}`));
    else waiter?.resolve(reply);
  });
  void exited.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error('the bench worker exited'));
    pending.clear();
  });

  const request = (body: WithoutId<BenchRequest>, timeoutMs = 120_000): Promise<BenchReply> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`worker did not answer ${body.type} in time`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      child.send({ ...body, id } as BenchRequest);
    });

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await request({ type: 'shutdown' }, 30_000).catch(() => undefined);
      killGroup(child, 'SIGTERM');
      const killer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };

  try {
    const ready = await new Promise<Extract<BenchReply, { type: 'ready' }>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the bench worker did not start in time')),
        readyTimeoutMs,
      );
      onReady = (reply) => (clearTimeout(timer), resolve(reply));
      void exited.then(
        () => (
          clearTimeout(timer),
          reject(new Error(`the bench worker exited at start (${child.exitCode})`))
        ),
      );
    });
    return {
      pid: child.pid!,
      ready: { sinceProcessStartMs: ready.sinceProcessStartMs, createMs: ready.createMs },
      memory: async () =>
        ((await request({ type: 'memory' })) as Extract<BenchReply, { type: 'memory' }>).memory,
      heapSnapshot: async (file) => void (await request({ type: 'heapSnapshot', path: file }, 600_000)),
      cpuProfileStart: async () => void (await request({ type: 'cpuProfileStart' })),
      cpuProfileStop: async (file) => void (await request({ type: 'cpuProfileStop', path: file })),
      stop,
    };
  } catch (error) {
    killGroup(child, 'SIGKILL');
    await exited;
    throw error;
  }
}
