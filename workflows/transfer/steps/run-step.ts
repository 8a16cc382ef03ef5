// How the transfer runs a step (onboarding, registration, payment) as a child workflow with a business-key ID.
// A step whose ID already runs or ran is attached to (its outcome read), never started again: its creating call
// would be sent once more under an idempotency key the service may have forgotten (spec: Idempotency).
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { ApplicationFailure, ChildWorkflowCancellationType, sleep } from '@temporalio/workflow';
import { workflowReadActivities } from '../../activity-options';
import { STEP_NOT_COMPLETED } from '../api';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** how often a step is read for its first day, and after: a payment may wait weeks (an operator, a late refund) */
const FIRST_DAY_MAX_WAIT_MS = 30 * MINUTE;
const LATER_MAX_WAIT_MS = 6 * HOUR;

/**
 * Attach to a step that already runs or ran under the same workflow ID: poll its outcome until it closes (a child
 * cannot attach: SDK 1.24 children have no workflowIdConflictPolicy).
 */
export async function stepOutcome<R>(workflowId: string): Promise<R> {
  const since = Date.now();
  let wait = 5_000;
  for (;;) {
    const o = await workflowReadActivities.readWorkflowOutcome(workflowId);
    if (o.status === 'COMPLETED') return o.result as R;
    if (o.status !== 'RUNNING')
      throw ApplicationFailure.create({
        type: STEP_NOT_COMPLETED,
        nonRetryable: true,
        message: `${workflowId} already ran and ended ${o.status === 'NOT_COMPLETED' ? o.closeStatus : 'out of sight'}; it is not run again (it may have created its record): pass the record's id, or use a new key`,
      });
    await sleep(wait);
    // every read is a few history events: past a day, one read every 6 hours keeps a transfer attached to a payment
    // that runs for months far below the history limit (about 8 events a read: 6,400 reads at 30 minutes = 133 days)
    wait = Math.min(wait * 2, Date.now() - since < 24 * HOUR ? FIRST_DAY_MAX_WAIT_MS : LATER_MAX_WAIT_MS);
  }
}

export interface StepStartOptions {
  workflowId: string;
  workflowIdReusePolicy: WorkflowIdReusePolicy;
  cancellationType: ChildWorkflowCancellationType;
}

/**
 * Onboarding and registration create a record with an idempotency key that the service forgets after its window:
 * a closed step is never started again (REJECT_DUPLICATE), and a step that runs or ran under the same key is
 * attached to instead of failing the transfer. A cancel of the transfer does not cancel a step (ABANDON): its
 * record is created once either way, and a retry attaches to it.
 */
export async function runStep<R>(
  workflowId: string,
  run: (options: StepStartOptions) => Promise<R>,
): Promise<R> {
  try {
    return await run({
      workflowId,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return stepOutcome<R>(workflowId);
  }
}
