// What every scenario gets: the stack, the options, the progress line, the prebuilt bundles, and where the
// figures go. Workers started through it are stopped by the bench whatever happens.
import { randomUUID } from 'node:crypto';
import type { BenchStack } from './stack';
import type { BenchOptions } from './options';
import type { PrebuiltBundles } from './bundles';
import type { Progress } from './progress';
import { paymentSubject, skeletonSubject, type Subject, type SubjectKind } from './subjects';
import { startBenchWorker, type BenchWorker } from './worker-handle';

export interface Row {
  scenario: 'P1' | 'P2' | 'P3' | 'P5';
  figure: string;
  /** xborder's figure (payment, ingress, prebuilt bundle) */
  value: number | null;
  /** the floor it is compared with (skeleton, bare signal, bundling at start) */
  baseline: number | null;
  /** what the ratio means, e.g. "payment / skeleton" */
  ratioLabel: string;
  unit: string;
}

export interface BenchContext {
  stack: BenchStack;
  options: BenchOptions;
  progress: Progress;
  bundles: PrebuiltBundles;
  resultsDir: string;
  rows: Row[];
  notes: string[];
  row(row: Row): void;
  /** A worker process for `kind` on a fresh task queue, and the subject that drives it. */
  worker(
    kind: SubjectKind,
    extra?: { maxCachedWorkflows?: number; debugMode?: boolean; prebuilt?: boolean },
  ): Promise<{ worker: BenchWorker; subject: Subject; taskQueue: string }>;
}

export function createContext(
  base: Omit<BenchContext, 'row' | 'worker' | 'rows' | 'notes'>,
  registerStop: (stop: () => Promise<void>) => void,
): BenchContext {
  const rows: Row[] = [];
  return {
    ...base,
    rows,
    notes: [],
    row: (row) => void rows.push(row),
    async worker(kind, extra = {}) {
      const taskQueue = `bench-${kind}-${randomUUID().slice(0, 8)}`;
      const prebuilt = extra.prebuilt ?? true;
      const worker = await startBenchWorker({
        kind: kind === 'payment' ? 'xborder' : 'skeleton',
        address: base.stack.temporal.address,
        namespace: base.stack.namespace,
        taskQueue,
        ...(prebuilt
          ? { bundlePath: kind === 'payment' ? base.bundles.xborder : base.bundles.skeleton }
          : {}),
        providerUrl: base.stack.sandbox.url,
        apiKey: base.stack.apiKey,
        ...(extra.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: extra.maxCachedWorkflows } : {}),
        ...(extra.debugMode ? { debugMode: true } : {}),
      });
      registerStop(() => worker.stop());
      if (kind === 'payment') base.stack.setWebhookTaskQueue(taskQueue);
      const subject =
        kind === 'payment'
          ? paymentSubject(base.stack.client, taskQueue, base.stack.sandbox)
          : skeletonSubject(base.stack.client, taskQueue, kind);
      return { worker, subject, taskQueue };
    },
  };
}
