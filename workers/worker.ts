import type { DataConverter, WorkerDeploymentVersion } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import {
  createActivities,
  type EventDeliveryConfig,
  type ProviderPort,
  type ReportsConfig,
} from '../activities';
import { connectionOptionsOf, type TemporalConnectionConfig } from '../src/client/connection-config';
import { loadWorkflowBundle } from './workflow-bundle';
import { providerErrorCounter } from '../src/telemetry/activity-interceptor';
import type { WorkerDeploymentSettings } from './config';
import { currentTracing, type Tracing } from '../src/telemetry/tracing';
import { tracingWorkerOptions } from './tracing';
import { xborderNexusHandler } from '../src/nexus/handlers';
import os from 'node:os';
import { eventsIdentityTag } from '../src/client/events-deliverable';
import { derivedBuildId, workflowBundleDigest } from './build-id';
import { recordBundleDigest, refuseTakenBuildId, type BuildRef } from '../src/client/build-registry';

export interface XborderWorkerOptions {
  temporal: TemporalConnectionConfig;
  taskQueue: string;
  provider: ProviderPort;
  /** outbound events' endpoints and secrets (docs/outbound-events.md); default from the environment */
  events?: EventDeliveryConfig;
  /** where the daily reconciliation report is written (docs/reconciliation-report.md); absent: none */
  reports?: ReportsConfig | null;
  activitiesPerSecond?: number;
  workflowBundlePath?: string;
  shutdownGraceMs?: number;
  /** Payload encryption: the process's entry makes it from XBORDER_CODEC_KEYS(_FILE), see docs/codec.md. */
  dataConverter: DataConverter;
  /** Workflows kept in the worker's cache (the memory budget). Default: the SDK's, sized from the heap. */
  maxCachedWorkflows?: number;
  /** Slots: workflow tasks and activities run at once. Default: the SDK's (40, 100). */
  maxConcurrentWorkflowTasks?: number;
  maxConcurrentActivities?: number;
  /** Workflows run in the main thread (profiling: a heap snapshot then sees them). Never in production. */
  debugMode?: boolean;
  /**
   * Worker Deployment Versioning: the version this worker declares. Absent: unversioned (the worker
   * gets every task of the queue). Each workflow's behaviour (PINNED / AUTO_UPGRADE) is in workflows/versioning.ts.
   */
  deployment?: WorkerDeploymentSettings;
  /**
   * Traces: default the tracing this process installed (installTracingFor; off unless the
   * environment turns it on), null for none. On: the bundle with the OpenTelemetry workflow interceptors, the
   * activity interceptors and the workflow spans' sink.
   */
  tracing?: Tracing | null;
  /**
   * Serve the `xborder` Nexus service (src/nexus) on this task queue; default true. Its endpoint is created
   * apart (`xborder dev` does it on the dev server; docs/deployment.md, "Nexus endpoint").
   */
  nexus?: boolean;
}

export interface RunningWorker {
  worker: Worker;
  connection: NativeConnection;
  /** Resolves when the worker has stopped (after shutdown()). */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

export interface RunningXborderWorker extends RunningWorker {
  /** The version the worker declared (its build id derived from the bundle unless given); null: unversioned. */
  version: WorkerDeploymentVersion | null;
  /** SHA-256 (hex) of the workflow bundle it runs; recorded on its version (src/client/build-registry.ts). */
  bundleDigest: string;
}

/** Creates and starts the worker of xborder's workflows and activities on one task queue. */
export async function startXborderWorker(options: XborderWorkerOptions): Promise<RunningXborderWorker> {
  const { dataConverter } = options;
  const { events } = options; // absent: no endpoint configured, every event waits as undeliverable
  const tracing = options.tracing === undefined ? currentTracing() : options.tracing;
  const traced = tracingWorkerOptions(tracing);
  const workflowBundle = await loadWorkflowBundle(options.workflowBundlePath, { tracing: tracing !== null });
  const bundleDigest = await workflowBundleDigest(workflowBundle);
  const connection = await NativeConnection.connect(connectionOptionsOf(options.temporal));
  const version: WorkerDeploymentVersion | null = options.deployment
    ? {
        deploymentName: options.deployment.version.deploymentName,
        buildId: options.deployment.version.buildId ?? derivedBuildId(bundleDigest),
      }
    : null;
  const build: BuildRef | null = version ? { namespace: options.temporal.namespace, ...version } : null;
  let worker: Worker;
  try {
    // before the first poll: another bundle's build id is refused before this code could take one of its tasks
    if (build) await refuseTakenBuildId(connection.workflowService, build, bundleDigest);
    worker = await Worker.create({
      connection,
      namespace: options.temporal.namespace,
      taskQueue: options.taskQueue,
      workflowBundle,
      activities: createActivities({
        provider: options.provider,
        ...(events ? { events } : {}),
        reports: options.reports ?? null,
      }),
      // the SDK's default identity, and which event endpoints this worker delivers to (url hashes): startPayment
      // refuses events no polling worker can deliver (src/client/events-deliverable.ts)
      identity: `${process.pid}@${os.hostname()} ${eventsIdentityTag(events)}`,
      ...(options.nexus === false ? {} : { nexusServices: [xborderNexusHandler] }),
      dataConverter,
      // The codec runs in this process, before Core checks sizes: the error limit sees the encrypted payloads
      // the server will store, so it stays on (the SDK asks to disable it only for codecs in a gRPC proxy).
      disablePayloadErrorLimit: false,
      // telemetry: provider errors by type, on the runtime's metric meter
      interceptors: { activity: [providerErrorCounter(), ...traced.activityInterceptors] },
      ...(traced.sinks ? { sinks: traced.sinks } : {}),
      shutdownGraceTime: options.shutdownGraceMs ?? 10_000,
      ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
      ...(options.maxConcurrentWorkflowTasks !== undefined
        ? { maxConcurrentWorkflowTaskExecutions: options.maxConcurrentWorkflowTasks }
        : {}),
      ...(options.maxConcurrentActivities !== undefined
        ? { maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities }
        : {}),
      ...(options.debugMode ? { debugMode: true } : {}),
      ...(options.deployment && version
        ? {
            workerDeploymentOptions: {
              version,
              useWorkerVersioning: true,
              defaultVersioningBehavior: options.deployment.defaultVersioningBehavior,
            },
          }
        : {}),
      ...(options.activitiesPerSecond
        ? { maxTaskQueueActivitiesPerSecond: options.activitiesPerSecond }
        : {}),
    });
  } catch (error) {
    await connection.close(); // a bad bundle or namespace must not leak the connection
    throw error;
  }
  const running = { ...startPolling(worker, connection), version, bundleDigest };
  if (build) {
    // the version exists once the worker polled: the first worker of a build records its bundle, a later one
    // checks it again (two bundles racing for a new build id: the one that reads another digest stops)
    try {
      await recordBundleDigest(connection.workflowService, build, bundleDigest, {
        identity: `xborder worker ${build.buildId}`,
      });
    } catch (error) {
      await running.shutdown().catch(() => undefined);
      throw error;
    }
  }
  return running;
}

/** Runs a created worker until shutdown(); the connection closes when it stops (also for the bench's skeleton). */
export function startPolling(worker: Worker, connection: NativeConnection): RunningWorker {
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    connection,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
