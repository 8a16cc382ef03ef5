// Messages of the skeleton workflow; importable from the bench (client side) and the workflow alike.
import { defineSignal, defineUpdate } from '@temporalio/workflow';

export const SKELETON_WORKFLOW_TYPE = 'skeleton';
export const skeletonCreatedUpdate = defineUpdate<string>('awaitCreated');
export const skeletonFundSignal = defineSignal('fund');
/** A signal the skeleton ignores (P2 latency probe), as the payment ignores a snapshot of a payment not its own. */
export const skeletonNoopSignal = defineSignal<[unknown]>('noop');
