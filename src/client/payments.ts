// What backend services call to start and follow payments. Typed from workflows/messages.ts.
import { amountsMemo } from '../report/memo';
import { refusePersonalDataInKey } from '../codec/identifiers';
import {
  checkPaymentInput,
  parsePaymentInputShape,
  PaymentRequestInvalidError,
  type ParsedPaymentInput,
  type StartPaymentInput,
} from './payment-request';
import { eventsNotDeliverable } from './events-deliverable';
import {
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  WorkflowNotFoundError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  type WorkflowStartOptions,
  type Client,
  type WorkflowHandleWithFirstExecutionRunId,
} from '@temporalio/client';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import {
  awaitCreatedForRequestUpdate,
  awaitCreatedUpdate,
  cancelUpdate,
  createdAnswerQuery,
  PAYMENT_FAILURE_TYPES,
  PAYMENT_WORKFLOW_TYPE,
  paymentStateQuery,
  paymentWorkflowId,
  requoteUpdate,
  type PaymentCreated,
  type PaymentOutcome,
  type PaymentState,
} from '../../workflows/payment/api';
export { PAYMENT_WORKFLOW_TYPE };
import { PaymentInputSchema, TransferInputSchema } from '../../workflows/inputs';
import {
  TRANSFER_WORKFLOW_TYPE,
  transferWorkflowId,
  type TransferInput,
  type TransferResult,
} from '../../workflows/transfer/api';
import { requestFingerprint } from '../../workflows/request-fingerprint';
import { PAYMENT_PHASE_AT_START, PaymentPhaseKey } from '../../workflows/search-attributes';
import { assertSameRequest } from './same-request';
import { freedKeyNextRun, KEY_RUN_MEMO } from './freed-key';
import { noteOnClientSpan, withClientSpan } from './tracing';
import { fairnessPriority, paymentCustomerKey, transferCustomerKey } from './fairness';
import { paymentHandle, transferHandle } from './handles';
import type { payment } from '../../workflows/payment/workflow';
import type { transfer } from '../../workflows/transfer/workflow';

import { IdempotencyKeyReusedError } from './same-request';
export { IdempotencyKeyReusedError };
export { PaymentRequestInvalidError, type PaymentRequest, type StartPaymentInput } from './payment-request';

export { TRANSFER_WORKFLOW_TYPE };

/** startPayment's and startTransfer's options: the task queue, the retry window, memo fields. */
export interface StartOptions {
  taskQueue: string;
  /**
   * startPayment: how long it keeps asking after errors that leave the outcome open (worker restarting or
   * overloaded, server busy), with backoff; 60 s by default. Past it, StartPaymentUnconfirmedError.
   */
  retryForMs?: number;
  /** Memo fields set with the start (the Nexus handler records its caller there: src/nexus/caller.ts). */
  memo?: Record<string, unknown>;
}

/** startPayment's answer: the workflow ID, what was created (or refused), and the outcome to await. */
export interface StartedPayment {
  workflowId: string;
  created: PaymentCreated;
  /** Resolves with the payment's outcome (COMPLETED, FAILED, EXPIRED, REFUNDED, REJECTED, CANCELLED). */
  result(): Promise<PaymentOutcome>;
}

/**
 * startPayment asked until its retry window ended and never got an answer: the payment workflow may exist and
 * may have created a provider payment. Never a refusal: ask again with the same paymentKey (it attaches to the
 * first workflow, no second payment), never with a new key.
 */
export class StartPaymentUnconfirmedError extends Error {
  readonly type = 'START_UNCONFIRMED';
  constructor(
    readonly key: string,
    readonly workflowId: string,
    readonly attempts: number,
    cause: unknown,
  ) {
    super(
      `no answer for payment ${key} after ${attempts} attempts: it may have started; ask again with the same key (${String(cause)})`,
      { cause },
    );
    this.name = 'StartPaymentUnconfirmedError';
  }
}

export function describeAmounts(request: Record<string, unknown>): string {
  const source = (request.source ?? {}) as { amount?: unknown; currencyCode?: unknown };
  const destination = (request.destination ?? {}) as { currencyCode?: unknown };
  return `${String(source.amount ?? '?')} ${String(source.currencyCode ?? '?')} → ${String(destination.currencyCode ?? '?')}`;
}

/**
 * Starts the payment workflow and returns, as soon as the provider payment exists, what a backend shows its
 * user: provider payment id, quote and funding instructions (update-with-start, the early-return pattern).
 * The workflow goes on following the payment. A second call with the same paymentKey and the same input
 * attaches to the first (same answer, no second payment); with another input it is refused with
 * IdempotencyKeyReusedError (its `fields` name what differs), running or closed — unless the closed payment was
 * refused before anything was created: then the key is free and a new run starts (src/client/freed-key.ts; docs/backend.md,
 * "Keys", with the recommended key scheme `order-<n>-attempt-<k>`). Once that workflow has closed, the same
 * input still gets its answer (createdAnswer query: a retry whose first attempt started the payment and lost its
 * answer must never read as a refusal); only a workflow closed before any answer (terminated at once) or a worker
 * without the query leaves WorkflowExecutionAlreadyStartedError.
 *
 * The same-key check costs no extra call: the update carries the request's fingerprint and the
 * workflow's validator refuses another request's. The first history event is read only to confirm a refusal
 * (an input stored by an older client may differ in form only), when the key belongs to a closed workflow, and
 * for a worker whose code predates the check.
 */
export async function startPayment(
  client: Client,
  input: StartPaymentInput,
  options: StartOptions,
): Promise<StartedPayment> {
  // the root of the payment's trace (its start, the workflow, activities, provider calls)
  return withClientSpan('startPayment', () => startPaymentTraced(client, input, options));
}

async function startPaymentTraced(
  client: Client,
  input: StartPaymentInput,
  options: StartOptions,
): Promise<StartedPayment> {
  // Refused here (PaymentRequestInvalidError): nothing started, nothing sent, the key stays free. `parsed` is the
  // input as JSON carries it — the very value the workflow receives and fingerprints, so a property JSON drops
  // (a function, a symbol, undefined) cannot make the two fingerprints differ.
  const parsed = await checkedOrStartedEarlier(client, input);
  const workflowId = paymentWorkflowId(parsed.paymentKey);
  await refuseUndeliverableEvents(client, options.taskQueue, parsed, workflowId);
  noteOnClientSpan({ temporalWorkflowId: workflowId });
  const requestFingerprintOfInput = requestFingerprint(parsed);
  const deadline = Date.now() + (options.retryForMs ?? START_RETRY_WINDOW_MS);
  const sameRequestOrThrow = () =>
    assertSameRequest(client, PaymentInputSchema, parsed.paymentKey, workflowId, parsed);
  /** the fingerprint check is not available (or not conclusive): check by reading the first event instead */
  let checkByHistory = false;
  /** the key's closed run was refused before anything was created (src/client/freed-key.ts): this run's number */
  let freedRun: number | null = null;
  for (let attempt = 1; ; attempt++) {
    // A WithStartWorkflowOperation is single-use: a fresh one per attempt.
    const startWorkflowOperation = paymentStartOperation(parsed, workflowId, options, freedRun);
    try {
      let created: PaymentCreated;
      if (!checkByHistory) {
        created = await client.workflow.executeUpdateWithStart(awaitCreatedForRequestUpdate, {
          args: [{ requestFingerprint: requestFingerprintOfInput }],
          startWorkflowOperation,
        });
      } else {
        // Refused before the update when the key is taken by another request; checked again after, for a race.
        const existed = await sameRequestOrThrow();
        created = await client.workflow.executeUpdateWithStart(awaitCreatedUpdate, {
          startWorkflowOperation,
        });
        if (!existed) await sameRequestOrThrow();
      }
      const handle = await startWorkflowOperation.workflowHandle();
      return { workflowId, created, result: () => handle.result() };
    } catch (thrown) {
      let error = thrown;
      if (error instanceof WorkflowExecutionAlreadyStartedError) {
        // The same request: this key's payment has closed, maybe started by an earlier attempt of this very
        // call whose answer was lost (the server went away) and finished meanwhile. A start that reached Temporal
        // is never reported as refused: its answer, as a retry of a running payment gets it (money rules).
        try {
          // refused before anything was created: the key is free, for this request or a corrected one
          if (freedRun === null && (freedRun = await freedRunOrBound(client, workflowId)) !== null) continue;
          await sameRequestOrThrow(); // a closed workflow holds the key: another request is told so
          const handle = paymentHandle(client, workflowId);
          const answer = await handle.query(createdAnswerQuery);
          if (answer)
            return {
              workflowId,
              created: await endedAnswer(answer, handle),
              result: () => handle.result(),
            };
        } catch (readError) {
          if (readError instanceof IdempotencyKeyReusedError) throw readError;
          // no worker at the moment, server busy (the history read or the query): asked again below; a worker
          // without the query: as before
          if (!isTransientStartError(readError)) throw error;
          error = readError;
        }
        if (!isTransientStartError(error)) throw error; // closed before any answer (terminated at once)
      }
      const refusal = updateRefusal(error);
      if (refusal === 'KEY_REUSED' || refusal === 'NO_HANDLER') {
        // KEY_REUSED: confirmed on the stored input through today's schema (throws IdempotencyKeyReusedError
        // unless only the form differs); NO_HANDLER: a worker with code from before the fingerprint check.
        try {
          if (refusal === 'KEY_REUSED') await sameRequestOrThrow();
          checkByHistory = true;
          continue;
        } catch (readError) {
          if (readError instanceof IdempotencyKeyReusedError || !isTransientStartError(readError))
            throw readError;
          error = readError; // the history could not be read just now: asked again below
        }
      }
      // INTERNAL, UNKNOWN: the server may have started the workflow before failing. Never a refusal, never raw:
      // the caller must ask again with the same key (money rules: a start that may have happened is not refused).
      if (maybeStartedGrpcCode(error))
        throw new StartPaymentUnconfirmedError(parsed.paymentKey, workflowId, attempt, error);
      if (!isTransientStartError(error)) throw error;
      const wait = Math.min(200 * 2 ** Math.min(attempt - 1, 10), 3_000);
      if (Date.now() + wait >= deadline)
        throw new StartPaymentUnconfirmedError(parsed.paymentKey, workflowId, attempt, error);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * The payment workflow's start, for update-with-start: its ID, memo, summary, priority and first phase.
 * `freedRun` is the run number when the key's closed run was refused before anything was created.
 */
function paymentStartOperation(
  parsed: ParsedPaymentInput,
  workflowId: string,
  options: StartOptions,
  freedRun: number | null,
) {
  return new WithStartWorkflowOperation<typeof payment>(
    PAYMENT_WORKFLOW_TYPE,
    paymentStartOptions(parsed, workflowId, options, freedRun),
  );
}

/**
 * The options of every start of a payment workflow: the client's update-with-start and the Nexus handler's start
 * that attaches a caller's callback to a running payment (src/nexus/handlers.ts), so that even a start that found
 * nothing would be this very start (same input, memo, policies, first phase).
 */
export function paymentStartOptions(
  parsed: ParsedPaymentInput,
  workflowId: string,
  options: StartOptions,
  freedRun: number | null,
) {
  return {
    workflowId,
    taskQueue: options.taskQueue,
    args: [parsed],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    // A closed run holds its key (its payment may have moved money), unless it was refused before anything was
    // created: then, and only then, the closed workflow ID starts a new run. A run started meanwhile by another
    // call is attached to (USE_EXISTING), with the same-request check.
    workflowIdReusePolicy:
      freedRun === null ? WorkflowIdReusePolicy.REJECT_DUPLICATE : WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    // the amounts asked for (read back page by page by the reconciliation report: src/report/memo.ts), the caller's
    // memo (the Nexus owner) and a freed key's run number
    ...startMemo({ ...amountsMemo(parsed.request), ...(options.memo ?? {}) }, freedRun),
    // Shown in the Temporal UI; amounts and currencies only, no personal data.
    staticSummary: `Payment ${parsed.paymentKey}: ${describeAmounts(parsed.request)}`,
    // fairness between customers on the shared task queue (inherited by activities and children)
    ...fairnessPriority(paymentCustomerKey(parsed.request)),
    // the first phase anyone sees, set with the start rather than by an upsert
    typedSearchAttributes: [{ key: PaymentPhaseKey, value: PAYMENT_PHASE_AT_START }],
  } satisfies WorkflowStartOptions<typeof payment>;
}

/**
 * The input as today's rules accept it; or, when they refuse it, the same input of a payment this key already
 * started (a retry): that payment was valid at its own date and may be moving money, so its answer is given —
 * never "refused, nothing was sent" because a dated rule came into force between the first attempt and the retry
 * (spec: Changes over time). Another request under the key is refused as such (IdempotencyKeyReusedError).
 */
async function checkedOrStartedEarlier(
  client: Client,
  input: StartPaymentInput,
): Promise<ParsedPaymentInput> {
  try {
    return checkPaymentInput(input, new Date());
  } catch (refused) {
    const shape = refused instanceof PaymentRequestInvalidError ? parsePaymentInputShape(input) : null;
    if (!shape) throw refused;
    const existed = await assertSameRequest(
      client,
      PaymentInputSchema,
      shape.paymentKey,
      paymentWorkflowId(shape.paymentKey),
      shape,
    ).catch((err: unknown) => {
      if (err instanceof IdempotencyKeyReusedError) throw err;
      return false; // cannot tell now: today's refusal stands (nothing is started by this call)
    });
    if (!existed) throw refused;
    return shape;
  }
}

/**
 * freedKeyNextRun, or null (the key stays bound) when the closed run cannot be read for good (a server without
 * the call, a result that does not decode): never freed on doubt. A transient error is thrown: asked again.
 */
async function freedRunOrBound(client: Client, workflowId: string): Promise<number | null> {
  try {
    return await freedKeyNextRun(client, workflowId);
  } catch (error) {
    if (isTransientStartError(error)) throw error;
    return null;
  }
}

/** The memo a start gives: the caller's (Nexus owner, report amounts) and a freed key's run number, together. */
function startMemo(
  memo: Record<string, unknown> | undefined,
  freedRun: number | null,
): { memo?: Record<string, unknown> } {
  const all = { ...(memo ?? {}), ...(freedRun === null ? {} : { [KEY_RUN_MEMO]: freedRun }) };
  return Object.keys(all).length > 0 ? { memo: all } : {};
}

/**
 * Events no worker can deliver are refused before anything starts (src/client/events-deliverable.ts): the key stays
 * free. Not when the key's payment already exists: a retry attaches to it, as it always did.
 */
async function refuseUndeliverableEvents(
  client: Client,
  taskQueue: string,
  parsed: { events?: { url?: string | undefined } | undefined },
  workflowId: string,
): Promise<void> {
  if (!parsed.events) return;
  const violation = await eventsNotDeliverable(client, taskQueue, parsed.events);
  if (!violation) return;
  const exists = await client.workflow
    .getHandle(workflowId)
    .describe()
    .then(
      () => true,
      () => false,
    );
  if (!exists) throw new PaymentRequestInvalidError([violation]);
}

/**
 * Long enough for a worker to restart or a failed workflow task to be retried (its timeout, 10 s, plus
 * backoff): under load, 8 attempts in ~10 s gave up too early (docs/performance.md, "Sizes").
 */
export const START_RETRY_WINDOW_MS = 60_000;
/** gRPC status codes worth another attempt (numbers of the gRPC spec; no direct @grpc/grpc-js dependency). */
const RETRYABLE_GRPC_CODES = new Set([
  4, // DEADLINE_EXCEEDED
  8, // RESOURCE_EXHAUSTED
  9, // FAILED_PRECONDITION
  14, // UNAVAILABLE
]);

/** gRPC codes after which the start may or may not have happened (the server failed mid-way). */
const MAYBE_STARTED_GRPC_CODES = new Set([
  2, // UNKNOWN
  13, // INTERNAL
]);

function maybeStartedGrpcCode(error: unknown): boolean {
  const code = isGrpcServiceError(error)
    ? error.code
    : isGrpcServiceError((error as { cause?: unknown })?.cause)
      ? (error as { cause: { code: number } }).cause.code
      : undefined;
  return code !== undefined && MAYBE_STARTED_GRPC_CODES.has(code);
}

/**
 * The answer of a payment that has already ended (its workflow closed): a CREATED answer's funding instructions
 * are dropped — sending funds to a payment that ended COMPLETED, CANCELLED or EXPIRED would pay again or be
 * returned — and `endedWith` says how it ended (its result, read at once: the workflow is closed).
 */
async function endedAnswer(
  answer: PaymentCreated,
  handle: { result(): Promise<PaymentOutcome> },
): Promise<PaymentCreated> {
  if (answer.outcome !== 'CREATED') return answer;
  const outcome = await handle.result().catch(() => null);
  return { ...answer, fundingInstructions: null, endedWith: outcome?.outcome ?? null };
}

/** Why the workflow refused `awaitCreatedForRequest`, when that is the error. */
function updateRefusal(error: unknown): 'KEY_REUSED' | 'NO_HANDLER' | null {
  if (!(error instanceof WorkflowUpdateFailedError)) return null;
  const cause = error.cause as { type?: unknown; message?: unknown } | undefined;
  if (cause?.type === PAYMENT_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED) return 'KEY_REUSED';
  // the SDK's answer for an update name the workflow code does not handle (@temporalio/workflow internals)
  if (typeof cause?.message === 'string' && cause.message.startsWith('No registered handler for update'))
    return 'NO_HANDLER';
  return null;
}

/**
 * Errors after which asking again is safe and useful. `awaitCreated` only waits for the provider payment, and
 * the workflow ID makes the start idempotent, so a retry never creates a second payment. FAILED_PRECONDITION
 * ("Update-with-Start could not be executed", "Workflow Task in failed state") is what the server answers when
 * the worker died or timed out while taking the update: the workflow exists by then, and the retry attaches to
 * it. Refusals (update failed, ID already used by a closed payment) are not retried.
 */
function isTransientStartError(error: unknown): boolean {
  if (error instanceof WorkflowUpdateFailedError || error instanceof WorkflowExecutionAlreadyStartedError)
    return false;
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  const code = isGrpcServiceError(error)
    ? error.code
    : isGrpcServiceError((error as { cause?: unknown })?.cause)
      ? (error as { cause: { code: number } }).cause.code
      : undefined;
  return code !== undefined && RETRYABLE_GRPC_CODES.has(code);
}

/**
 * Starts the whole chain for a first-time sender: onboard → register → pay (child workflows). A second call with
 * the same transferKey and the same input attaches to the running transfer; with another input it is refused
 * with IdempotencyKeyReusedError. Once it has closed, a new start is refused. The handle is typed by the transfer's
 * input and result, not by the workflow function: a backend's declarations never reach workflow code.
 */
export async function startTransfer(
  client: Client,
  input: TransferInput,
  options: StartOptions,
): Promise<WorkflowHandleWithFirstExecutionRunId<(input: TransferInput) => Promise<TransferResult>>> {
  const parsed = TransferInputSchema.parse(input);
  // these keys become workflow IDs, which are never encrypted
  refusePersonalDataInKey('transferKey', parsed.transferKey);
  if ('customerKey' in parsed.customer) refusePersonalDataInKey('customerKey', parsed.customer.customerKey);
  if ('accountKey' in parsed.account) refusePersonalDataInKey('accountKey', parsed.account.accountKey);
  if (parsed.payment.paymentKey) refusePersonalDataInKey('paymentKey', parsed.payment.paymentKey);
  const workflowId = transferWorkflowId(parsed.transferKey);
  const existed = await assertSameRequest(
    client,
    TransferInputSchema,
    parsed.transferKey,
    workflowId,
    parsed,
  );
  try {
    const handle = await client.workflow.start<typeof transfer>(TRANSFER_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: options.taskQueue,
      args: [parsed],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      // Like startPayment: a closed transfer is not run again (its payment step would pay twice).
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      staticSummary: `Transfer ${parsed.transferKey}`,
      ...fairnessPriority(transferCustomerKey(parsed.customer)), // fairness, as startPayment
    });
    if (!existed)
      await assertSameRequest(client, TransferInputSchema, parsed.transferKey, workflowId, parsed);
    return handle;
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    // The transfer ran and closed (the reuse policy refuses a second run). The same request retried is answered with
    // that transfer, as startPayment answers with a closed payment: never "already started", which a backend reads
    // as "not started" and retries under a new key. Another request under the key is refused by assertSameRequest.
    await assertSameRequest(client, TransferInputSchema, parsed.transferKey, workflowId, parsed);
    const { runId, raw } = await client.workflow.getHandle(workflowId).describe();
    const firstExecutionRunId = raw.workflowExecutionInfo?.firstRunId || runId;
    return Object.assign(
      client.workflow.getHandle<typeof transfer>(workflowId, undefined, { firstExecutionRunId }),
      {
        firstExecutionRunId,
      },
    );
  }
}

/** Accepts a payment key or a full workflow ID (`payment:<key>`). */
export function toPaymentWorkflowId(keyOrId: string): string {
  return keyOrId.startsWith('payment:') ? keyOrId : paymentWorkflowId(keyOrId);
}

/**
 * The payment's state. Once it has an outcome, the money may still move — a return by the receiving bank
 * after COMPLETED, a refund after EXPIRED (spec: States and transitions, row 4) — and only the providerPayment
 * entity, which lingers 7 days after any terminal status and is restarted by a later webhook, hears it. So the
 * entity is read too, and what it saw since is in `afterOutcome` (docs/spec-gaps.md).
 */
export async function getPaymentState(client: Client, keyOrId: string): Promise<PaymentState> {
  const state = await client.workflow.getHandle(toPaymentWorkflowId(keyOrId)).query(paymentStateQuery);
  const reported = state.outcome?.payment;
  if (!reported) return state;
  let latest;
  try {
    const entity = client.workflow.getHandle(providerPaymentWorkflowId(reported.id));
    latest = (await entity.query(providerPaymentSnapshotQuery)).payment;
  } catch {
    return state; // no entity to ask (never started, or gone after retention): the outcome is all we know
  }
  if (!latest || !movedSince(reported, latest)) return { ...state, afterOutcome: null };
  return {
    ...state,
    afterOutcome: { providerStatus: latest.status, code: failureCode(latest), payment: latest },
  };
}

type ProviderPayment = NonNullable<PaymentState['afterOutcome']>['payment'];

function movedSince(reported: ProviderPayment, latest: ProviderPayment): boolean {
  const stamps = (p: ProviderPayment) => JSON.stringify(Object.entries(p.lifecycle ?? {}).sort());
  return (
    latest.status !== reported.status ||
    stamps(latest) !== stamps(reported) ||
    failureCode(latest) !== failureCode(reported)
  );
}

function failureCode(p: ProviderPayment): string | null {
  const error = p.error as unknown;
  if (typeof error === 'string') return error;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** A cancel (or another update) asked of a payment that has already ended: nothing to cancel; its outcome says how. */
export class PaymentAlreadyFinishedError extends Error {
  readonly type = 'PAYMENT_ALREADY_FINISHED';
  constructor(
    readonly workflowId: string,
    /** the payment's outcome (COMPLETED, CANCELLED, …); null when it was closed without one (terminated) */
    readonly outcome: PaymentOutcome['outcome'] | null,
  ) {
    super(
      `${workflowId} has already finished${outcome ? `: ${outcome}` : ' (closed without an outcome)'}; nothing to cancel`,
    );
    this.name = 'PaymentAlreadyFinishedError';
  }
}

/**
 * Refused (WorkflowUpdateFailedError, cause type CANCEL_REFUSED) once funds are in; PaymentAlreadyFinishedError
 * (with the outcome) when the payment has ended; WorkflowNotFoundError only when there is no such payment.
 */
export async function cancelPayment(client: Client, keyOrId: string, reason?: string): Promise<PaymentState> {
  const handle = paymentHandle(client, toPaymentWorkflowId(keyOrId));
  try {
    return await handle.executeUpdate(cancelUpdate, { args: [reason ? { reason } : {}] });
  } catch (error) {
    // the server answers "not found" for an update to a closed workflow: tell it apart from a key never used
    if (!(error instanceof WorkflowNotFoundError) && !isGrpcNotFound(error)) throw error;
    const description = await handle.describe().catch(() => null);
    if (!description || description.status.name === 'RUNNING') throw error;
    const outcome =
      description.status.name === 'COMPLETED'
        ? ((await handle.result().catch(() => null))?.outcome ?? null)
        : null;
    throw new PaymentAlreadyFinishedError(handle.workflowId, outcome);
  }
}

function isGrpcNotFound(error: unknown): boolean {
  const cause = (error as { cause?: unknown })?.cause;
  return (isGrpcServiceError(error) && error.code === 5) || (isGrpcServiceError(cause) && cause.code === 5);
}

/**
 * The payment's outcome, by its key alone: for a process that restarted after startPayment and kept only the key
 * (docs/backend.md, "Learning an outcome after a restart"). Waits while the payment runs (days, if funds never come).
 * WorkflowNotFoundError when no payment has that key.
 */
export async function awaitPaymentOutcome(client: Client, keyOrId: string): Promise<PaymentOutcome> {
  return paymentHandle(client, toPaymentWorkflowId(keyOrId)).result();
}

/** The transfer's result by its key alone (as awaitPaymentOutcome). */
export async function awaitTransferOutcome(client: Client, keyOrId: string): Promise<TransferResult> {
  const workflowId = keyOrId.startsWith('transfer:') ? keyOrId : transferWorkflowId(keyOrId);
  return transferHandle(client, workflowId).result();
}

/**
 * A new provider payment with a fresh quote, once the current quote has expired; refused (REQUOTE_REFUSED) while
 * it is valid and once funds are in. `updateId` is required and must be stable for one requote the caller means
 * (e.g. derived from its own request id): a call retried after an RPC timeout with the same ID attaches to the
 * first and never creates a second provider payment (the server dedupes the update ID; the workflow maps the
 * ID to one idempotency key `<workflowId>:create:<n>`).
 */
export async function requotePayment(
  client: Client,
  keyOrId: string,
  options: { updateId: string },
): Promise<PaymentCreated> {
  if (!options?.updateId)
    throw new TypeError('requotePayment needs an updateId that is the same on every retry');
  return client.workflow
    .getHandle(toPaymentWorkflowId(keyOrId))
    .executeUpdate(requoteUpdate, { updateId: options.updateId });
}
