// The `xborder` Nexus service's handlers (definition: ./service.ts), served by the worker (workers/worker.ts,
// `nexusServices`). Each operation keeps the rules of the client's function of the same name (src/client/payments.ts):
// one validation (checkPaymentInput: zod at the edge, defined once), one payment per business key, the same key with
// another request refused, a start that may have reached Temporal never reported refused (house rules: money).
import * as nexus from 'nexus-rpc';
import { TemporalOperationHandler, TemporalOperationResult, getClient } from '@temporalio/nexus';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import {
  cancelPayment,
  describeAmounts,
  getPaymentState,
  PaymentAlreadyFinishedError,
  PAYMENT_WORKFLOW_TYPE,
} from '../client/payments';
import { checkPaymentInput, PaymentRequestInvalidError, type ParsedPaymentInput } from '../client/payment-request';
import { assertSameRequest, IdempotencyKeyReusedError } from '../client/same-request';
import { fairnessPriority, paymentCustomerKey } from '../client/fairness';
import { PaymentInputSchema } from '../../workflows/inputs';
import { PAYMENT_FAILURE_TYPES, paymentWorkflowId, type PaymentInput, type PaymentOutcome } from '../../workflows/payment/api';
import { PAYMENT_PHASE_AT_START, PaymentPhaseKey } from '../../workflows/search-attributes';
import { XBORDER_NEXUS_FAILURE_TYPES, xborderNexusService, type PaymentRef } from './service';

/**
 * The input checked as the client's startPayment checks it, or a non-retryable BAD_REQUEST whose cause is an
 * ApplicationFailure of type PAYMENT_REQUEST_INVALID with the violations as details: nothing started, the key
 * stays free, and retrying the same input cannot help.
 */
export function checkNexusPaymentInput(input: unknown, asOf: Date): ParsedPaymentInput {
  try {
    return checkPaymentInput(input, asOf);
  } catch (error) {
    if (!(error instanceof PaymentRequestInvalidError)) throw error;
    throw new nexus.HandlerError('BAD_REQUEST', error.message, {
      cause: ApplicationFailure.create({
        message: error.message,
        type: XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_REQUEST_INVALID,
        nonRetryable: true,
        details: [{ violations: error.violations }],
      }),
      retryableOverride: false,
    });
  }
}

/** A refusal of the operation itself (not of the request's transport): an OperationError, never retried. */
function operationFailed(type: string, message: string, details?: unknown): nexus.OperationError {
  return new nexus.OperationError('failed', message, {
    cause: ApplicationFailure.create({ message, type, nonRetryable: true, ...(details ? { details: [details] } : {}) }),
  });
}

async function sameRequestOrFail(client: Client, parsed: ParsedPaymentInput, workflowId: string): Promise<boolean> {
  try {
    return await assertSameRequest(client, PaymentInputSchema, parsed.paymentKey, workflowId, parsed);
  } catch (error) {
    if (!(error instanceof IdempotencyKeyReusedError)) throw error; // a read that failed: the SDK retries the task
    throw operationFailed(XBORDER_NEXUS_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED, error.message, { paymentKey: error.key, workflowId });
  }
}

const startPayment = new TemporalOperationHandler<PaymentInput, PaymentOutcome>({
  async start(_ctx, temporal, input) {
    const parsed = checkNexusPaymentInput(input, new Date());
    const workflowId = paymentWorkflowId(parsed.paymentKey);
    // Same key, other request → refused before anything starts (as startTransfer: the first event's input; the
    // fingerprint update of startPayment needs update-with-start, which a workflow-run operation does not use).
    const existed = await sameRequestOrFail(temporal.client, parsed, workflowId);
    try {
      // USE_EXISTING: a second start with the same key attaches its callback to the running payment (the SDK
      // sets onConflictOptions), so both callers get the one outcome. REJECT_DUPLICATE: a closed payment is
      // never run again (it would pay twice), as the client's startPayment.
      const result = await temporal.startWorkflow(PAYMENT_WORKFLOW_TYPE, {
        workflowId,
        args: [parsed],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        staticSummary: `Payment ${parsed.paymentKey} (Nexus): ${describeAmounts(parsed.request)}`,
        ...fairnessPriority(paymentCustomerKey(parsed.request)),
        typedSearchAttributes: [{ key: PaymentPhaseKey, value: PAYMENT_PHASE_AT_START }],
      });
      // another request may have taken the key between the check and the start: refused, as the client does
      if (!existed) await sameRequestOrFail(temporal.client, parsed, workflowId);
      return result as TemporalOperationResult<PaymentOutcome>;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      // The key's payment has closed: a retry whose first attempt started it (and lost its answer) is told its
      // outcome, never "refused" (money rules); another request was refused above (checked again here).
      await sameRequestOrFail(temporal.client, parsed, workflowId);
      let outcome: PaymentOutcome;
      try {
        outcome = (await temporal.client.workflow.getHandle(workflowId).result()) as PaymentOutcome;
      } catch (closedWithout) {
        // terminated or failed before any outcome: nothing to wait for, nothing to retry
        throw operationFailed(XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_ALREADY_FINISHED, `${workflowId} closed without an outcome (${String(closedWithout)})`, { outcome: null });
      }
      return TemporalOperationResult.sync(outcome);
    }
  },
});

/** NOT_FOUND, a finished payment or a refused update as the typed, non-retryable failures of service.ts. */
function asOperationFailure(error: unknown, ref: PaymentRef): unknown {
  if (error instanceof PaymentAlreadyFinishedError)
    return operationFailed(XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_ALREADY_FINISHED, error.message, { outcome: error.outcome });
  if (error instanceof WorkflowNotFoundError || (error as { code?: unknown })?.code === 5)
    return operationFailed(XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_NOT_FOUND, `no payment has the key ${ref.paymentKey}`);
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { type?: unknown; message?: unknown } | undefined;
    if (cause?.type === PAYMENT_FAILURE_TYPES.CANCEL_REFUSED)
      return operationFailed(XBORDER_NEXUS_FAILURE_TYPES.CANCEL_REFUSED, String(cause.message ?? 'cancel refused'));
  }
  return error;
}

function refOf(input: unknown): PaymentRef {
  const key = (input as { paymentKey?: unknown } | null)?.paymentKey;
  if (typeof key !== 'string' || key.length === 0)
    throw new nexus.HandlerError('BAD_REQUEST', 'paymentKey (a non-empty string) is required', { retryableOverride: false });
  return { paymentKey: key };
}

export const xborderNexusHandler = nexus.serviceHandler(xborderNexusService, {
  startPayment,
  async getPaymentState(_ctx, input) {
    const ref = refOf(input);
    try {
      return await getPaymentState(getClient(), ref.paymentKey);
    } catch (error) {
      throw asOperationFailure(error, ref);
    }
  },
  async cancelPayment(_ctx, input) {
    const ref = refOf(input);
    const reason = typeof input.reason === 'string' ? input.reason : undefined;
    try {
      return await cancelPayment(getClient(), ref.paymentKey, reason);
    } catch (error) {
      throw asOperationFailure(error, ref);
    }
  },
});
