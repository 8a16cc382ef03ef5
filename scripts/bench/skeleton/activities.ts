// The skeleton's activities: no I/O but Temporal's own, so the skeletons measure Temporal's floor.
import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import { SKELETON_ENTITY_WORKFLOW_TYPE, skeletonSubscribeSignal } from './messages';

/** `temporal`: where skeletonCreateAndFollow starts the second workflow (the pair skeleton only). */
export function createSkeletonActivities(temporal?: { client: Client; taskQueue: string }) {
  return {
    async skeletonQuote(key: string): Promise<string> {
      return `quote-${key}`;
    },
    async skeletonCreate(key: string): Promise<string> {
      return `created-${key}`;
    },
    /** As createPaymentAndFollow: signalWithStart of a second workflow (USE_EXISTING), then the answer. */
    async skeletonCreateAndFollow(key: string, subscriber: string): Promise<string> {
      if (!temporal) throw new Error('skeletonCreateAndFollow needs a Temporal client');
      await temporal.client.workflow.signalWithStart(SKELETON_ENTITY_WORKFLOW_TYPE, {
        workflowId: `skeleton-entity:${key}`,
        taskQueue: temporal.taskQueue,
        args: [],
        signal: skeletonSubscribeSignal,
        signalArgs: [subscriber],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      });
      return `created-${key}`;
    },
  };
}
export type SkeletonActivities = ReturnType<typeof createSkeletonActivities>;
