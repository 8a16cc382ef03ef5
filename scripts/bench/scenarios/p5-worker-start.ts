// P5: worker process start to polling, with the prebuilt bundle (npm run build) against bundling
// the workflow code at start; alternated, the median of each.
import type { BenchContext } from '../context';
import { median } from '../stats';

export async function runP5(ctx: BenchContext): Promise<void> {
  const prebuilt: number[] = [];
  const bundling: number[] = [];
  const prebuiltCreate: number[] = [];
  const bundlingCreate: number[] = [];
  for (let i = 0; i < ctx.options.starts; i++) {
    for (const kind of ['prebuilt', 'bundling'] as const) {
      ctx.progress.update(`P5: start ${i + 1}/${ctx.options.starts}, ${kind}`);
      const { worker } = await ctx.worker('payment', { prebuilt: kind === 'prebuilt' });
      (kind === 'prebuilt' ? prebuilt : bundling).push(worker.ready.sinceProcessStartMs);
      (kind === 'prebuilt' ? prebuiltCreate : bundlingCreate).push(worker.ready.createMs);
      await worker.stop();
    }
  }
  ctx.row({
    scenario: 'P5',
    figure: `worker process start → polling, median of ${ctx.options.starts} (bundle ${ctx.bundles.xborderKb} KiB)`,
    value: median(prebuilt),
    baseline: median(bundling),
    ratioLabel: 'prebuilt / bundling at start',
    unit: 'ms',
  });
  ctx.row({
    scenario: 'P5',
    figure: `… of which in the worker: bundle load or build, Worker.create → polling (no process start, no tsx)`,
    value: median(prebuiltCreate),
    baseline: median(bundlingCreate),
    ratioLabel: 'prebuilt / bundling at start',
    unit: 'ms',
  });
}
