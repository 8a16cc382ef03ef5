// Small numeric helpers of the bench.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1; // nearest rank
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Runs `task` over `items` with at most `concurrency` at once; resolves when all have settled. */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
  onSettled?: (done: number) => void,
): Promise<Array<PromiseSettledResult<R>>> {
  const results: Array<PromiseSettledResult<R>> = new Array(items.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      try {
        results[i] = { status: 'fulfilled', value: await task(items[i]!, i) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
      onSettled?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  return results;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
