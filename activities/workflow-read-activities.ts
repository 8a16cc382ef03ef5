// Reading another workflow's outcome through the Temporal client. A child workflow cannot
// attach to a running workflow of the same ID (SDK 1.24 ChildWorkflowOptions omit workflowIdConflictPolicy),
// so `transfer` attaches to an onboarding or registration step that already runs, or already ran, by polling
// this read until the step has closed.
import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';

export type WorkflowOutcome =
  | { status: 'RUNNING' }
  | { status: 'COMPLETED'; result: unknown }
  /** FAILED, CANCELLED, TERMINATED, TIMED_OUT, … */
  | { status: 'NOT_COMPLETED'; closeStatus: string }
  | { status: 'NOT_FOUND' };

export interface WorkflowReadActivities {
  /** Where the latest run of `workflowId` is; its result once it completed. */
  readWorkflowOutcome(workflowId: string): Promise<WorkflowOutcome>;
}

/** `client` defaults to the worker's own client (activity context). */
export function createWorkflowReadActivities(deps: { client?: () => Client } = {}): WorkflowReadActivities {
  const client = deps.client ?? (() => Context.current().client);
  return {
    async readWorkflowOutcome(workflowId) {
      const handle = client().workflow.getHandle(workflowId);
      try {
        const { status } = await handle.describe();
        if (status.name === 'RUNNING') return { status: 'RUNNING' };
        if (status.name !== 'COMPLETED') return { status: 'NOT_COMPLETED', closeStatus: status.name };
        return { status: 'COMPLETED', result: await handle.result() };
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return { status: 'NOT_FOUND' };
        throw err;
      }
    },
  };
}
