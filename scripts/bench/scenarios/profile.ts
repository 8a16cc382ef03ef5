// --profile: heap snapshots of a worker with 0 and with N parked payments (and the same for
// the skeleton), and a CPU profile of a burst of payments. Workers run in debug mode (workflows on the main
// thread) so the snapshot and the profile see the workflow code too. Files under bench-results/profile-<date>/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BenchContext } from '../context';
import { runPool, sleep } from '../stats';
import type { SubjectKind } from '../subjects';

export async function runProfile(ctx: BenchContext): Promise<void> {
  const dir = path.join(ctx.resultsDir, `profile-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  const count = ctx.options.rssWorkflows;
  for (const kind of ['skeleton', 'payment'] as SubjectKind[]) {
    const { worker, subject } = await ctx.worker(kind, {
      maxCachedWorkflows: count * 2 + 100,
      debugMode: true,
    });
    try {
      const keys = (n: number) =>
        Array.from({ length: n }, (_, i) => `bench-profile-${kind}-${randomUUID().slice(0, 6)}-${i}`);
      await runPool(keys(3), 3, (key) => subject.start(key));
      await sleep(1_000);
      await worker.heapSnapshot(path.join(dir, `${kind}-0.heapsnapshot`));
      if (kind === 'payment') await worker.cpuProfileStart();
      await runPool(
        keys(count),
        ctx.options.concurrency,
        (key) => subject.start(key),
        (done) => ctx.progress.update(`profile ${kind}: ${done}/${count}`),
      );
      if (kind === 'payment') await worker.cpuProfileStop(path.join(dir, `payment-burst.cpuprofile`));
      await sleep(2_000);
      await worker.heapSnapshot(path.join(dir, `${kind}-${count}.heapsnapshot`));
    } finally {
      await worker.stop();
    }
  }
  ctx.notes.push(
    `profile: heap snapshots (0 and ${count} parked, debug mode) and a CPU profile of a burst of ${count} payments in ${path.relative(process.cwd(), dir)}`,
  );
  ctx.progress.log(`profile written to ${dir}`);
}
