// A workflow of the payment's shape and nothing else (issue 12): two activities, update-with-start that
// returns after the second, then a wait for a signal. Bundled on its own (no zod, no contract), it is the
// floor the payment is measured against in the same run. Same rules as workflows/: no Node built-ins.
import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { SkeletonActivities } from './activities';
import { skeletonCreatedUpdate, skeletonFundSignal, skeletonNoopSignal } from './messages';

const { skeletonQuote, skeletonCreate } = proxyActivities<SkeletonActivities>({ startToCloseTimeout: '1 minute' });

export async function skeleton(key: string): Promise<string> {
  let created: string | null = null;
  let funded = false;
  setHandler(skeletonCreatedUpdate, async () => {
    await condition(() => created !== null);
    return created!;
  });
  setHandler(skeletonFundSignal, () => {
    funded = true;
  });
  setHandler(skeletonNoopSignal, () => undefined);
  await skeletonQuote(key);
  created = await skeletonCreate(key);
  await condition(() => funded);
  return 'COMPLETED';
}
