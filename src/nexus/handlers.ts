// The `xborder` Nexus service's handlers (definition: ./service.ts), served by the worker (workers/worker.ts,
// `nexusServices`). Each operation IS the client's function of the same name (src/client/payments.ts), called with
// the worker's client: one validation, one start path (update-with-start), one same-key rule (the request
// fingerprint), a start that may have reached Temporal never reported refused (house rules: money). What Nexus adds:
// the caller's identity recorded at start and checked on every operation (./caller.ts), answers bound to the
// caller's workflow (src/codec/nexus-result-binding.ts) and, for a caller with its own key set, written under it
// (src/codec/nexus-caller-keys.ts), the outcome then coming from a relay under that key (workflows/nexus-outcome).
import * as nexus from 'nexus-rpc';
import {
  TemporalOperationHandler,
  TemporalOperationResult,
  getClient,
  operationInfo,
  type TemporalNexusClient,
} from '@temporalio/nexus';
import { ApplicationFailure, WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import {
  cancelPayment,
  getPaymentState,
  PaymentAlreadyFinishedError,
  PAYMENT_WORKFLOW_TYPE,
  paymentStartOptions,
  startPayment,
  StartPaymentUnconfirmedError,
  toPaymentWorkflowId,
} from '../client/payments';
import { paymentHandle } from '../client/handles';
import type { payment } from '../../workflows/payment/workflow';
import {
  checkPaymentInput,
  parsePaymentInputShape,
  PaymentRequestInvalidError,
  type ParsedPaymentInput,
} from '../client/payment-request';
import { IdempotencyKeyReusedError, startInputOf } from '../client/same-request';
import { bindNexusAnswerTo } from '../codec/nexus-result-binding';
import { PAYMENT_FAILURE_TYPES, paymentWorkflowId, type PaymentOutcome } from '../../workflows/payment/api';
import {
  NEXUS_OUTCOME_WORKFLOW_TYPE,
  nexusOutcomeOf,
  nexusOutcomeWorkflowId,
} from '../../workflows/nexus-outcome/api';
import type { nexusOutcome } from '../../workflows/nexus-outcome/workflow';
import {
  assertOwnedBy,
  callerHasOwnKeys,
  currentCaller,
  NEXUS_OWNER_MEMO,
  ownerOf,
  paymentNotFound,
} from './caller';
import { callerWorkflowOf } from './caller-workflow';
import {
  XBORDER_NEXUS_FAILURE_TYPES,
  xborderNexusService,
  type PaymentRef,
  type StartedPaymentAnswer,
  type StartPaymentInput,
} from './service';

/** A refusal of the operation itself (not of the request's transport): an OperationError, never retried. */
function operationFailed(type: string, message: string, details?: unknown): nexus.OperationError {
  return new nexus.OperationError('failed', message, {
    cause: ApplicationFailure.create({
      message,
      type,
      nonRetryable: true,
      ...(details ? { details: [details] } : {}),
    }),
  });
}

/** The client's refusals as the typed, non-retryable failures of service.ts. */
function asStartFailure(error: unknown): unknown {
  if (error instanceof PaymentRequestInvalidError) {
    // nothing started, the key stays free, and retrying the same input cannot help
    return new nexus.HandlerError('BAD_REQUEST', error.message, {
      cause: ApplicationFailure.create({
        message: error.message,
        type: XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_REQUEST_INVALID,
        nonRetryable: true,
        details: [{ violations: error.violations }],
      }),
      retryableOverride: false,
    });
  }
  if (error instanceof IdempotencyKeyReusedError)
    return operationFailed(XBORDER_NEXUS_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED, error.message, {
      paymentKey: error.key,
      workflowId: error.workflowId,
    });
  // the start may have happened: asked again by the caller's server (a retryable handler error), same key, same answer
  if (error instanceof StartPaymentUnconfirmedError)
    return new nexus.HandlerError('UNAVAILABLE', error.message, { retryableOverride: true });
  return error;
}

/**
 * The input checked as the client's startPayment checks it (the very function), or a non-retryable BAD_REQUEST
 * whose cause is an ApplicationFailure of type PAYMENT_REQUEST_INVALID with the violations as details.
 */
export function checkNexusPaymentInput(input: unknown, asOf: Date): ParsedPaymentInput {
  try {
    return checkPaymentInput(input, asOf);
  } catch (error) {
    throw asStartFailure(error);
  }
}

/** Another caller's key: refused as taken, with nothing of that payment (it exists: the key space is shared). */
function keyTaken(paymentKey: string): nexus.OperationError {
  return operationFailed(
    XBORDER_NEXUS_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED,
    `the key ${paymentKey} is taken; use another key`,
    { paymentKey },
  );
}

/**
 * Binds this request's answer (and failures) to the caller's workflow when it is in another namespace: never to a
 * workflow of xborder's own namespace, or the handler would encrypt, for whoever writes the link, a payload that
 * xborder's own workers accept as a payment's (src/codec/nexus-result-binding.ts).
 */
function bindAnswerToCaller(ctx: nexus.StartOperationContext): void {
  const caller = callerWorkflowOf(ctx.inboundLinks);
  if (caller && caller.namespace !== operationInfo().namespace) bindNexusAnswerTo(caller);
}

/** Longest a start keeps asking inside one request: the request's own deadline, less a margin to answer. */
function retryWindowMs(ctx: nexus.OperationContext): number {
  const left = ctx.requestDeadline ? ctx.requestDeadline.getTime() - Date.now() - 1_000 : 10_000;
  return Math.max(1_000, Math.min(left, 60_000));
}

const startPaymentOperation: nexus.OperationHandler<StartPaymentInput, StartedPaymentAnswer> = {
  async start(ctx, input) {
    bindAnswerToCaller(ctx);
    const caller = currentCaller();
    // refused before anything is read or sent (startPayment checks it again: the same function, a pure one)
    const { paymentKey } = checkNexusPaymentInput(input, new Date());
    const workflowId = paymentWorkflowId(paymentKey);
    const client = getClient();
    // another caller's payment is never reached: the update-with-start would attach to it and hand its answer over
    const before = await ownerOf(client, workflowId);
    if (before !== undefined && before !== caller) throw keyTaken(paymentKey);
    let started;
    try {
      started = await startPayment(client, input, {
        taskQueue: operationInfo().taskQueue,
        retryForMs: retryWindowMs(ctx),
        memo: { [NEXUS_OWNER_MEMO]: caller },
      });
    } catch (error) {
      throw asStartFailure(error);
    }
    // another start (the client, another caller) may have taken the key between the read and the start
    if (before === undefined && (await ownerOf(client, started.workflowId)) !== caller)
      throw keyTaken(paymentKey);
    return nexus.HandlerStartOperationResult.sync({
      workflowId: started.workflowId,
      created: started.created,
    });
  },
  async cancel() {
    throw new nexus.HandlerError(
      'NOT_IMPLEMENTED',
      'startPayment answers at once; cancel a payment with cancelPayment',
    );
  },
};

/**
 * A caller with its own key set gets the outcome from a relay (`nexus-outcome:<endpoint>:<key>`, workflows/nexus-outcome)
 * whose result is encrypted with that caller's key: the operation attaches to the relay, never to the payment, whose
 * result is under xborder's key (docs/codec.md, "Nexus callers"). One relay per caller payment: asked again, the
 * operation attaches to the same relay (USE_EXISTING) or, once it has ended, answers its result at once.
 */
async function relayedOutcome(
  temporal: TemporalNexusClient,
  caller: string,
  paymentKey: string,
): Promise<TemporalOperationResult<PaymentOutcome>> {
  const relayId = nexusOutcomeWorkflowId(caller, paymentKey);
  try {
    return await temporal.startWorkflow<typeof nexusOutcome>(NEXUS_OUTCOME_WORKFLOW_TYPE, {
      workflowId: relayId,
      args: [],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  try {
    return TemporalOperationResult.sync(
      await temporal.client.workflow.getHandle<typeof nexusOutcome>(relayId).result(),
    );
  } catch (closedWithout) {
    throw operationFailed(
      XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_ALREADY_FINISHED,
      `${toPaymentWorkflowId(paymentKey)} closed without an outcome (${String(closedWithout)})`,
      { outcome: null },
    );
  }
}

/**
 * The payment's own result, for a caller that holds xborder's keys: its callback is attached by a start that finds
 * the payment running (USE_EXISTING: the SDK sets onConflictOptions, nothing starts). The start is the client's own
 * (paymentStartOptions: the same input, as the same-key rule parses it, memo, policies and first phase), so even a
 * start that found nothing could only be this same payment; REJECT_DUPLICATE: a closed payment is never run again.
 */
async function attachedOutcome(
  temporal: TemporalNexusClient,
  caller: string,
  paymentKey: string,
): Promise<TemporalOperationResult<PaymentOutcome>> {
  const workflowId = toPaymentWorkflowId(paymentKey);
  const stored = await startInputOf(temporal.client, workflowId);
  if (!stored) throw paymentNotFound(paymentKey);
  const parsed = parsePaymentInputShape(stored.input);
  if (!parsed)
    throw new nexus.HandlerError('INTERNAL', `${workflowId} holds no payment input`, {
      retryableOverride: false,
    });
  try {
    return await temporal.startWorkflow<typeof payment>(
      PAYMENT_WORKFLOW_TYPE,
      paymentStartOptions(
        parsed,
        workflowId,
        { taskQueue: operationInfo().taskQueue, memo: { [NEXUS_OWNER_MEMO]: caller } },
        null,
      ),
    );
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  // it has ended: its outcome at once
  try {
    return TemporalOperationResult.sync(await paymentHandle(temporal.client, workflowId).result());
  } catch (closedWithout) {
    // terminated or failed before any outcome: nothing to wait for, nothing to retry
    throw operationFailed(
      XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_ALREADY_FINISHED,
      `${workflowId} closed without an outcome (${String(closedWithout)})`,
      { outcome: null },
    );
  }
}

const paymentOutcomeOperation = new TemporalOperationHandler<PaymentRef, PaymentOutcome>({
  async start(ctx, temporal, input) {
    bindAnswerToCaller(ctx);
    const caller = currentCaller(); // before the input: a refused endpoint's input is null (encryption-codec.ts)
    const ref = refOf(input);
    const workflowId = toPaymentWorkflowId(ref.paymentKey);
    await assertOwnedBy(temporal.client, caller, ref.paymentKey, workflowId);
    if (callerHasOwnKeys(caller)) return relayedOutcome(temporal, caller, ref.paymentKey);
    // without XBORDER_NEXUS_CALLER_KEYS the caller holds xborder's keys (SECURITY.md, "Nexus"): the payment's own result
    return attachedOutcome(temporal, caller, ref.paymentKey);
  },
  // The caller's workflow was cancelled: a Temporal cancel request to the payment (accepted before funds are in,
  // refused once they are). The token names the workflow and anyone can write a token, so the owner is checked here
  // too: a forged token for another caller's payment cancels nothing and learns nothing.
  // A relay's token (a caller with its own keys) names the caller's endpoint and the payment: both are checked.
  async cancelWorkflowRun(_ctx, { workflowId }) {
    const client = getClient();
    const caller = currentCaller();
    const relay = nexusOutcomeOf(workflowId);
    if (relay && relay.endpoint !== caller)
      throw new nexus.HandlerError('NOT_FOUND', 'no such operation', { retryableOverride: false });
    const paymentId = relay ? toPaymentWorkflowId(relay.paymentKey) : workflowId;
    if (!paymentId.startsWith(paymentWorkflowId('')))
      throw new nexus.HandlerError('NOT_FOUND', 'no such operation', { retryableOverride: false });
    if ((await ownerOf(client, paymentId)) !== caller)
      throw new nexus.HandlerError('NOT_FOUND', 'no such operation', { retryableOverride: false });
    // the payment, never the relay: the relay goes on and delivers the outcome the cancel leads to
    await client.workflow.getHandle(paymentId).cancel();
  },
});

/** NOT_FOUND, a finished payment or a refused update as the typed, non-retryable failures of service.ts. */
function asOperationFailure(error: unknown, ref: PaymentRef): unknown {
  if (error instanceof PaymentAlreadyFinishedError)
    return operationFailed(XBORDER_NEXUS_FAILURE_TYPES.PAYMENT_ALREADY_FINISHED, error.message, {
      outcome: error.outcome,
    });
  if (error instanceof WorkflowNotFoundError || (error as { code?: unknown })?.code === 5)
    return paymentNotFound(ref.paymentKey);
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { type?: unknown; message?: unknown } | undefined;
    if (cause?.type === PAYMENT_FAILURE_TYPES.CANCEL_REFUSED)
      return operationFailed(
        XBORDER_NEXUS_FAILURE_TYPES.CANCEL_REFUSED,
        String(cause.message ?? 'cancel refused'),
      );
  }
  return error;
}

function refOf(input: unknown): PaymentRef {
  const key = (input as { paymentKey?: unknown } | null)?.paymentKey;
  if (typeof key !== 'string' || key.length === 0)
    throw new nexus.HandlerError('BAD_REQUEST', 'paymentKey (a non-empty string) is required', {
      retryableOverride: false,
    });
  return { paymentKey: key };
}

export const xborderNexusHandler = nexus.serviceHandler(xborderNexusService, {
  startPayment: startPaymentOperation,
  paymentOutcome: paymentOutcomeOperation,
  async getPaymentState(ctx, input) {
    bindAnswerToCaller(ctx);
    const caller = currentCaller(); // before the input: a refused endpoint's input is null (encryption-codec.ts)
    const ref = refOf(input);
    const client = getClient();
    await assertOwnedBy(client, caller, ref.paymentKey, toPaymentWorkflowId(ref.paymentKey));
    try {
      return await getPaymentState(client, ref.paymentKey);
    } catch (error) {
      throw asOperationFailure(error, ref);
    }
  },
  async cancelPayment(ctx, input) {
    bindAnswerToCaller(ctx);
    const caller = currentCaller(); // before the input: a refused endpoint's input is null (encryption-codec.ts)
    const ref = refOf(input);
    const reason = typeof input.reason === 'string' ? input.reason : undefined;
    const client = getClient();
    await assertOwnedBy(client, caller, ref.paymentKey, toPaymentWorkflowId(ref.paymentKey));
    try {
      return await cancelPayment(client, ref.paymentKey, reason);
    } catch (error) {
      throw asOperationFailure(error, ref);
    }
  },
});
