// The nexusOutcome relay's reads (workflows/nexus-outcome): the payment's result, read with the worker's client
// under xborder's keys (the payment's payloads), returned to the relay, whose payloads are the caller's
// (src/codec/nexus-outcome-binding.ts). The payment is named by the relay's own ID, and read only when its memo
// names the relay's endpoint as its owner (SECURITY.md, "Nexus"): a caller cannot relay another caller's payment.
// - readPaymentOutcome (the relay today): one describe and, once the payment has closed, its result. It never
//   waits for a running payment (a waiting relay holds no activity slot: the relay waits in the workflow for the
//   payment's `paymentClosed` signal), except for a short wait when the payment is closing (it told the relay so,
//   or is already in its outcome's phase).
// - awaitPaymentOutcome (relays that began before `relay-holds-no-slot`, workflows/nexus-outcome/patches.ts):
//   long-polls the payment for up to WAIT_MS and answers "not yet"; a worker that stops gracefully cancels the
//   attempt (the SDK's cancellation signal) and it is retried on another worker at once.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { paymentWorkflowId, type PaymentOutcome } from '../workflows/payment/api';
import { PaymentPhaseKey } from '../workflows/search-attributes';
import {
  NEXUS_OUTCOME_FAILURE_TYPE,
  NEXUS_OUTCOME_NOT_OWNER_TYPE,
  NEXUS_OWNER_MEMO,
  nexusOutcomeOf,
  type AwaitedPaymentOutcome,
  type ReadPaymentOutcomeInput,
} from '../workflows/nexus-outcome/api';

/** How long one attempt of awaitPaymentOutcome waits (below its startToCloseTimeout: activity-options.ts). */
export const NEXUS_OUTCOME_WAIT_MS = 4 * 60 * 60 * 1000;

/**
 * How long readPaymentOutcome waits for a payment that told its relay it has ended: the payment signals before its
 * run completes (a signal sent with the completion would be dropped by the server), so its close follows within a
 * workflow task. Below the read's startToCloseTimeout (activity-options.ts).
 */
export const NEXUS_OUTCOME_CLOSING_WAIT_MS = 60 * 1000;

/**
 * The phases a payment enters with its outcome (PaymentState.finish upserts PaymentPhase before its last step): a
 * running payment in one of them is closing. A relay started after the payment's signal found no relay, but before
 * the payment completed, sees it so and waits for the close instead of its fallback timer.
 */
const OUTCOME_PHASES: Readonly<Record<PaymentOutcome['outcome'], true>> = {
  COMPLETED: true,
  FAILED: true,
  EXPIRED: true,
  REFUNDED: true,
  REJECTED: true,
  CANCELLED: true,
};

/** The payment workflow's signature as the client sees it (activities never import workflow code). */
type PaymentWorkflow = () => Promise<PaymentOutcome>;

export interface NexusOutcomeActivities {
  /** The outcome of the payment the calling relay's ID names, or `{ ended: false }` while it runs. */
  readPaymentOutcome(input?: ReadPaymentOutcomeInput): Promise<AwaitedPaymentOutcome>;
  /** Pre-`relay-holds-no-slot` relays: the outcome, or `{ ended: false }` after one wait of up to 4 hours. */
  awaitPaymentOutcome(): Promise<AwaitedPaymentOutcome>;
}

type RelayClient = Pick<Client, 'workflow' | 'withAbortSignal'>;

export function createNexusOutcomeActivities(
  deps: {
    client?: () => RelayClient;
    waitMs?: number;
    closingWaitMs?: number;
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
  const closingWaitMs = deps.closingWaitMs ?? NEXUS_OUTCOME_CLOSING_WAIT_MS;

  /** The payment the relay's ID names, once its owner is checked; its status as described. */
  async function ownedPayment(
    c: RelayClient,
    workflowId: string,
  ): Promise<{ target: string; running: boolean; closing: boolean }> {
    // the payment is named by the relay's own ID, never by anything a caller wrote
    const relay = nexusOutcomeOf(workflowId);
    if (!relay)
      throw ApplicationFailure.create({
        type: 'NEXUS_OUTCOME_ID_INVALID',
        message: `${workflowId} is not a relay ID nexus-outcome:<endpoint>:<paymentKey>`,
        nonRetryable: true,
      });
    const target = paymentWorkflowId(relay.paymentKey);
    // Another caller's payment, a client's payment (no owner) and a missing one get the same refusal: nothing is
    // read, and the relay's failure (under the relay's caller's key) says nothing of which it was.
    const refused = () =>
      ApplicationFailure.create({
        type: NEXUS_OUTCOME_NOT_OWNER_TYPE,
        message: `${target} is not a payment of the Nexus endpoint ${relay.endpoint}`,
        nonRetryable: true,
      });
    try {
      const description = await c.workflow.getHandle(target).describe();
      if (description.memo?.[NEXUS_OWNER_MEMO] !== relay.endpoint) throw refused();
      const phase = description.typedSearchAttributes?.get(PaymentPhaseKey);
      return {
        target,
        running: description.status.name === 'RUNNING',
        closing: phase !== undefined && Object.hasOwn(OUTCOME_PHASES, phase),
      };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw refused();
      throw error;
    }
  }

  /** The payment's result, waiting at most `within` ms for it: "not yet" past that. */
  async function resultWithin(c: RelayClient, target: string, within: number, cancelled: AbortSignal) {
    cancelled.throwIfAborted(); // cancelled while it described the payment: retried elsewhere at once
    const waited = AbortSignal.timeout(within);
    try {
      const outcome = await c.withAbortSignal(AbortSignal.any([waited, cancelled]), () =>
        c.workflow.getHandle<PaymentWorkflow>(target).result(),
      );
      return { ended: true, outcome } as const;
    } catch (error) {
      if (waited.aborted && !cancelled.aborted) return { ended: false } as const;
      // failed or terminated before any outcome: nothing will come, nothing to retry
      if (error instanceof WorkflowFailedError)
        throw ApplicationFailure.create({
          type: NEXUS_OUTCOME_FAILURE_TYPE,
          message: `${target} closed without an outcome`,
          nonRetryable: true,
        });
      throw error;
    }
  }

  return {
    async readPaymentOutcome(input) {
      const { workflowId, cancelled } = context();
      const c = client();
      const { target, running, closing } = await ownedPayment(c, workflowId);
      if (running && !closing && !input?.closing) return { ended: false };
      // closed: its result is there at once; closing (told, or in its outcome's phase): within a workflow task
      return resultWithin(c, target, closingWaitMs, cancelled);
    },
    async awaitPaymentOutcome() {
      const { workflowId, cancelled } = context();
      const c = client();
      const { target } = await ownedPayment(c, workflowId);
      return resultWithin(c, target, waitMs, cancelled);
    },
  };
}
