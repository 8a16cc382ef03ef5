// Messages of the skeleton workflows; importable from the bench (client side) and the workflows alike.
import { defineSignal, defineUpdate } from '@temporalio/workflow';

export const SKELETON_WORKFLOW_TYPE = 'skeleton';
/** The skeleton whose create activity also starts a second workflow, as the payment's starts its entity. */
export const SKELETON_PAIR_WORKFLOW_TYPE = 'skeletonPair';
export const SKELETON_ENTITY_WORKFLOW_TYPE = 'skeletonEntity';
export const skeletonCreatedUpdate = defineUpdate<string>('awaitCreated');
export const skeletonFundSignal = defineSignal('fund');
/** A signal the skeleton ignores (P2 latency probe), as the payment ignores a snapshot of a payment not its own. */
export const skeletonNoopSignal = defineSignal<[unknown]>('noop');
/** What the pair's create activity sends with signalWithStart: the subscriber's workflow id. */
export const skeletonSubscribeSignal = defineSignal<[string]>('subscribe');
