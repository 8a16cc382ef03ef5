// Workflows of the payment's shape and nothing else: two activities, update-with-start that returns
// after the second, then a wait for a signal. Bundled on their own (no zod, no contract), they are the floor
// the payment is measured against in the same run. Same rules as workflows/: no Node built-ins.
// - skeleton: one workflow per payment.
// - skeletonPair: the same, but its create activity also signalWithStarts a skeletonEntity, as the payment's
//   createPaymentAndFollow starts the payment's provider-payment entity: the floor of a two-workflow design.
import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { SkeletonActivities } from './activities';
import {
  skeletonCreatedUpdate,
  skeletonFundSignal,
  skeletonNoopSignal,
  skeletonSubscribeSignal,
} from './messages';

const { skeletonQuote, skeletonCreate, skeletonCreateAndFollow } = proxyActivities<SkeletonActivities>({
  startToCloseTimeout: '1 minute',
});

async function payMe(key: string, create: (key: string) => Promise<string>): Promise<string> {
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
  created = await create(key);
  await condition(() => funded);
  return 'COMPLETED';
}

export async function skeleton(key: string): Promise<string> {
  return payMe(key, skeletonCreate);
}

export async function skeletonPair(key: string): Promise<string> {
  const { workflowId } = workflowInfo();
  return payMe(key, (k) => skeletonCreateAndFollow(k, workflowId));
}

/** The pair's second workflow: takes its subscriber and waits, as a parked payment's entity does. */
export async function skeletonEntity(): Promise<void> {
  const subscribers: string[] = [];
  let ended = false;
  setHandler(skeletonSubscribeSignal, (workflowId) => void subscribers.push(workflowId));
  setHandler(skeletonFundSignal, () => void (ended = true));
  await condition(() => ended);
}
