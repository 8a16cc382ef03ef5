// The nexusOutcome relay's wait (workflows/nexus-outcome): the payment's result, read with the worker's client
// under xborder's keys (the payment's payloads), returned to the relay, whose payloads are the caller's
// (src/codec/nexus-outcome-binding.ts). One attempt long-polls the payment's history for up to WAIT_MS and answers
// "not yet" when it has not ended, so a relay costs one activity per wait and no heartbeats; a worker that stops
// gracefully cancels the attempt (the SDK's cancellation signal) and it is retried on another worker at once.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { paymentWorkflowId, type PaymentOutcome } from '../workflows/payment/api';
import {
  NEXUS_OUTCOME_FAILURE_TYPE,
  nexusOutcomeOf,
  type AwaitedPaymentOutcome,
} from '../workflows/nexus-outcome/api';

/** How long one attempt waits for the payment (below the activity's startToCloseTimeout: activity-options.ts). */
export const NEXUS_OUTCOME_WAIT_MS = 4 * 60 * 60 * 1000;

/** The payment workflow's signature as the client sees it (activities never import workflow code). */
type PaymentWorkflow = () => Promise<PaymentOutcome>;

export interface NexusOutcomeActivities {
  /** The outcome of the payment the calling relay's ID names, or `{ ended: false }` after one wait. */
  awaitPaymentOutcome(): Promise<AwaitedPaymentOutcome>;
}

export function createNexusOutcomeActivities(
  deps: {
    client?: () => Pick<Client, 'workflow' | 'withAbortSignal'>;
    waitMs?: number;
    /** the relay's ID and the attempt's cancellation (the activity context's, by default) */
    context?: () => { workflowId: string; cancelled: AbortSignal };
  } = {},
): NexusOutcomeActivities {
  const client = deps.client ?? (() => Context.current().client);
  const context =
    deps.context ??
    (() => ({
      workflowId: Context.current().info.workflowExecution?.workflowId ?? '',
      cancelled: Context.current().cancellationSignal,
    }));
  const waitMs = deps.waitMs ?? NEXUS_OUTCOME_WAIT_MS;
  return {
    async awaitPaymentOutcome() {
      const { workflowId, cancelled } = context();
      // the payment is named by the relay's own ID, never by anything a caller wrote
      const relay = nexusOutcomeOf(workflowId);
      if (!relay)
        throw ApplicationFailure.create({
          type: 'NEXUS_OUTCOME_ID_INVALID',
          message: `${workflowId} is not a relay ID nexus-outcome:<endpoint>:<paymentKey>`,
          nonRetryable: true,
        });
      const target = paymentWorkflowId(relay.paymentKey);
      const waited = AbortSignal.timeout(waitMs);
      const c = client();
      try {
        const outcome = await c.withAbortSignal(AbortSignal.any([waited, cancelled]), () =>
          c.workflow.getHandle<PaymentWorkflow>(target).result(),
        );
        return { ended: true, outcome };
      } catch (error) {
        if (waited.aborted && !cancelled.aborted) return { ended: false };
        // failed or terminated before any outcome: nothing will come, nothing to retry
        if (error instanceof WorkflowFailedError)
          throw ApplicationFailure.create({
            type: NEXUS_OUTCOME_FAILURE_TYPE,
            message: `${target} closed without an outcome`,
            nonRetryable: true,
          });
        throw error;
      }
    },
  };
}
