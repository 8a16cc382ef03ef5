// The benchmark's worker, in its own process (as in production): the xborder worker (workers/worker.ts) or
// the skeleton's. Configured by one JSON argument; talks to the bench over IPC: `ready` once polling, then
// answers `memory`, `heapSnapshot`, `cpuProfileStart`/`cpuProfileStop` and `shutdown`.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { performance } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { Client, Connection } from '@temporalio/client';
import {
  DefaultLogger,
  makeTelemetryFilterString,
  NativeConnection,
  Runtime,
  Worker,
} from '@temporalio/worker';
import { z } from 'zod';
import { createProviderClient } from '../../src/provider';
import { startPolling, startXborderWorker, type RunningWorker } from '../../workers/worker';
import { createSkeletonActivities } from './skeleton/activities';
import { bundleSkeleton } from './bundles';
import type { BenchRequest, BenchReply, WorkerMemory } from './worker-ipc';
import { dataConverterFromEnv } from '../../src/codec/data-converter';
import { describeFirstCurrent, makeCurrentIfNone } from '../../src/client/worker-deployments';
import { packageVersion } from '../../src/support/package-root';
import type { WorkerDeploymentVersion } from '@temporalio/common';

export const WorkerProcessConfigSchema = z.object({
  kind: z.enum(['xborder', 'skeleton']),
  address: z.string(),
  namespace: z.string(),
  taskQueue: z.string(),
  /** a prebuilt bundle; absent: bundle the workflow code at start (P5 compares the two) */
  bundlePath: z.string().optional(),
  providerUrl: z.string().optional(),
  apiKey: z.string().optional(),
  maxCachedWorkflows: z.number().int().nonnegative().optional(),
  debugMode: z.boolean().optional(),
});
export type WorkerProcessConfig = z.infer<typeof WorkerProcessConfigSchema>;

/**
 * Every worker is versioned (docs/deployment.md, "Safe deploys with Worker Versioning"), the bench's too, so it
 * measures what production runs: one deployment per task queue (each scenario has its own), whose only build
 * becomes current before the worker reports ready.
 */
function benchDeployment(config: WorkerProcessConfig): WorkerDeploymentVersion {
  return { deploymentName: `bench-${config.taskQueue}`, buildId: packageVersion() };
}

async function makeBenchBuildCurrent(config: WorkerProcessConfig): Promise<void> {
  const connection = await Connection.connect({ address: config.address });
  try {
    const client = new Client({ connection, namespace: config.namespace });
    const outcome = await makeCurrentIfNone(client, benchDeployment(config));
    if (outcome.action === 'other-current') throw new Error(describeFirstCurrent(outcome));
  } finally {
    await connection.close();
  }
}

async function startSkeletonWorker(config: WorkerProcessConfig): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: config.address });
  const codecs = dataConverterFromEnv(process.env).payloadCodecs ?? [];
  // the pair skeleton's create activity starts its second workflow with a client, as createPaymentAndFollow does
  const client = new Client({
    connection: await Connection.connect({ address: config.address }),
    namespace: config.namespace,
    dataConverter: { payloadCodecs: codecs },
  });
  const worker = await Worker.create({
    connection,
    namespace: config.namespace,
    taskQueue: config.taskQueue,
    workflowBundle: config.bundlePath ? { codePath: config.bundlePath } : { code: await bundleSkeleton() },
    activities: createSkeletonActivities({ client, taskQueue: config.taskQueue }),
    // the same payload encryption as the payment's worker and the bench's client (failures are not encoded: the
    // skeleton's bundle has no failure converter, and it raises none)
    dataConverter: { payloadCodecs: codecs },
    ...(config.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: config.maxCachedWorkflows } : {}),
    ...(config.debugMode ? { debugMode: true } : {}),
    workerDeploymentOptions: {
      version: benchDeployment(config),
      useWorkerVersioning: true,
      defaultVersioningBehavior: 'AUTO_UPGRADE',
    },
  });
  return startPolling(worker, connection);
}

function startWorker(config: WorkerProcessConfig): Promise<RunningWorker> {
  if (config.kind === 'skeleton') return startSkeletonWorker(config);
  const provider = createProviderClient({ baseUrl: config.providerUrl!, apiKey: config.apiKey! });
  return startXborderWorker({
    temporal: { address: config.address, namespace: config.namespace },
    taskQueue: config.taskQueue,
    provider,
    dataConverter: dataConverterFromEnv(process.env),
    shutdownGraceMs: 2_000,
    deployment: { version: benchDeployment(config), defaultVersioningBehavior: 'AUTO_UPGRADE' },
    ...(config.bundlePath ? { workflowBundlePath: config.bundlePath } : {}),
    ...(config.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: config.maxCachedWorkflows } : {}),
    ...(config.debugMode ? { debugMode: true } : {}),
  });
}

function memory(): WorkerMemory {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  const usage = process.memoryUsage();
  return { rssKb: kb('VmRSS'), peakRssKb: kb('VmHWM'), heapUsedKb: Math.round(usage.heapUsed / 1024) };
}

async function main(): Promise<void> {
  const config = WorkerProcessConfigSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
  // the SDK's INFO lines (worker state changes) and core's warnings of slow workflow tasks on a loaded machine
  // would bury the progress line
  Runtime.install({
    logger: new DefaultLogger('WARN'),
    telemetryOptions: {
      logging: { forward: {}, filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }) },
    },
  });
  const send = (reply: BenchReply) => process.send?.(reply);
  const began = performance.now();
  const running = await startWorker(config);
  // Worker.run() has begun polling once the state is RUNNING.
  while (running.worker.getState() !== 'RUNNING') await new Promise((resolve) => setTimeout(resolve, 5));
  const sinceProcessStartMs = performance.now();
  const createMs = sinceProcessStartMs - began;
  // not part of the start-up measured (P5): a deploy step, done once per deployment
  await makeBenchBuildCurrent(config);
  send({ type: 'ready', sinceProcessStartMs, createMs });

  let profiler: Session | null = null;
  process.on('message', (raw) => {
    const request = raw as BenchRequest;
    void (async () => {
      switch (request.type) {
        case 'memory':
          (globalThis as { gc?: () => void }).gc?.();
          return send({ type: 'memory', id: request.id, memory: memory() });
        case 'heapSnapshot':
          (globalThis as { gc?: () => void }).gc?.();
          writeHeapSnapshot(request.path);
          return send({ type: 'done', id: request.id });
        case 'cpuProfileStart':
          profiler = new Session();
          profiler.connect();
          await post(profiler, 'Profiler.enable');
          await post(profiler, 'Profiler.start');
          return send({ type: 'done', id: request.id });
        case 'cpuProfileStop': {
          const result = (await post(profiler!, 'Profiler.stop')) as { profile: unknown };
          writeFileSync(request.path, JSON.stringify(result.profile));
          profiler!.disconnect();
          profiler = null;
          return send({ type: 'done', id: request.id });
        }
        case 'shutdown':
          await running.shutdown();
          return send({ type: 'done', id: request.id });
      }
    })().catch((error: unknown) => send({ type: 'error', id: request.id, message: String(error) }));
  });
  // The bench went away (crash, Ctrl-C): do not outlive it.
  process.on('disconnect', () => void running.shutdown().finally(() => process.exit(0)));
  await running.done;
  process.exit(0);
}

function post(session: Session, method: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

main().catch((error: unknown) => {
  console.error(`bench worker: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
