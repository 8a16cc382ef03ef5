// transfer: onboard → register → pay for a first-time sender, as child workflows with business-key IDs
// (ARCHITECTURE: Workflows). A step whose result the caller already has (customerId, accountId) is skipped;
// a step re-run under the same key re-sends its creating call with the same idempotency key, so the
// service answers with the record it already made.
import { parseWorkflowInput } from './failures';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import {
  ApplicationFailure,
  CancellationScope,
  CancelledFailure,
  ChildWorkflowCancellationType,
  executeChild,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  patched,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import { workflowReadActivities } from './activity-options';
import type { PaymentInput, TransferInput } from './inputs';
import { TransferInputShape } from './input-shapes';
import { transferStateQuery, type TransferState, onboardCustomerWorkflowId, registerAccountWorkflowId } from './messages';
import { paymentWorkflowId, type PaymentOutcome } from './payment/api';
import type { OnboardCustomerResult, RegisterAccountResult } from './types';
import { onboardCustomer } from './onboard-customer';
import { registerAccount } from './register-account';
import { payment } from './payment/workflow';

export interface TransferResult {
  outcome: 'COMPLETED' | 'CUSTOMER_NOT_APPROVED' | 'ACCOUNT_REJECTED' | 'PAYMENT_NOT_COMPLETED';
  customerId: string | null;
  accountId: string | null;
  customer: OnboardCustomerResult | null;
  account: RegisterAccountResult | null;
  payment: PaymentOutcome | null;
  paymentWorkflowId: string | null;
  /**
   * A Temporal cancel came while the payment ran: the payment was left alone (money may be moving) and the
   * transfer followed it to its real outcome (issue 9, point 2; docs/spec-gaps.md "Cancelling a transfer").
   */
  cancelRequested?: boolean;
}

/** ApplicationFailure type of a step that already ran under the same key and did not complete. */
export const STEP_NOT_COMPLETED = 'STEP_NOT_COMPLETED';
const MINUTE = 60_000;

/**
 * Attach to a step (onboarding, registration, payment) that already runs or ran under the same workflow ID: poll its
 * outcome until it closes (a child cannot attach: SDK 1.24 children have no workflowIdConflictPolicy).
 */
async function stepOutcome<R>(workflowId: string): Promise<R> {
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
    wait = Math.min(wait * 2, 30 * MINUTE);
  }
}

export async function transfer(rawInput: TransferInput): Promise<TransferResult> {
  const input = parseWorkflowInput(TransferInputShape, rawInput);
  const state: TransferState = {
    step: 'ONBOARDING',
    customerId: null,
    accountId: null,
    paymentWorkflowId: null,
  };
  const result: TransferResult = {
    outcome: 'COMPLETED',
    customerId: null,
    accountId: null,
    customer: null,
    account: null,
    payment: null,
    paymentWorkflowId: null,
  };
  setHandler(transferStateQuery, () => ({ ...state }));

  // Versioned (docs/deployment.md): histories recorded before these patches replay the old commands.
  const stepsRunOnce = patched('transfer-steps-run-once');
  /**
   * Onboarding and registration create a record with an idempotency key that the service forgets after its
   * window: a closed step is never started again (REJECT_DUPLICATE), and a step that runs or ran under the
   * same key is attached to instead of failing the transfer (issue 9, point 7). A cancel of the transfer
   * does not cancel a step (ABANDON): its record is created once either way, and a retry attaches to it.
   */
  async function runStep<R>(
    workflowId: string,
    run: (options: {
      workflowId: string;
      workflowIdReusePolicy?: WorkflowIdReusePolicy;
      cancellationType?: ChildWorkflowCancellationType;
    }) => Promise<R>,
  ): Promise<R> {
    if (!stepsRunOnce) return run({ workflowId });
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

  // 1. customer
  if ('customerId' in input.customer) {
    state.customerId = input.customer.customerId;
  } else {
    const customerKey = input.customer.customerKey;
    const { body: customerBody, reviewTimeoutMs } = input.customer;
    const onboarded = await runStep(onboardCustomerWorkflowId(customerKey), (options) =>
      executeChild(onboardCustomer, {
        ...options,
        args: [
          {
            customerKey,
            customer: customerBody,
            reviewTimeoutMs,
          },
        ],
        staticSummary: `onboard customer ${customerKey} (transfer ${input.transferKey})`,
      }),
    );
    result.customer = onboarded;
    if (onboarded.outcome !== 'APPROVED') return { ...result, outcome: 'CUSTOMER_NOT_APPROVED' };
    state.customerId = onboarded.customer.id;
  }
  result.customerId = state.customerId;

  // 2. destination account
  state.step = 'REGISTERING';
  if ('accountId' in input.account) {
    state.accountId = input.account.accountId;
  } else {
    const body = { customerId: state.customerId, ...input.account.body };
    const { accountKey, requirementsQuery, accountHolderType } = input.account;
    const registered = await runStep(registerAccountWorkflowId(accountKey), (options) =>
      executeChild(registerAccount, {
        ...options,
        args: [{ accountKey, account: body, requirementsQuery, accountHolderType }],
        staticSummary: `register account ${accountKey} (transfer ${input.transferKey})`,
      }),
    );
    result.account = registered;
    if (registered.outcome !== 'REGISTERED') return { ...result, outcome: 'ACCOUNT_REJECTED' };
    state.accountId = registered.account.id;
  }
  result.accountId = state.accountId;

  // 3. payment
  state.step = 'PAYING';
  const paymentKey = input.payment.paymentKey ?? input.transferKey;
  state.paymentWorkflowId = paymentWorkflowId(paymentKey);
  result.paymentWorkflowId = state.paymentWorkflowId;
  const request = input.payment.request as Record<string, unknown> & {
    destination?: Record<string, unknown>;
  };
  const paymentSurvivesCancel = patched('transfer-payment-survives-cancel');
  const root = CancellationScope.current();
  if (paymentSurvivesCancel && root.consideredCancelled)
    throw new CancelledFailure('the transfer was cancelled before its payment started');
  const paymentOptions = {
    workflowId: state.paymentWorkflowId,
    args: [
      {
        paymentKey,
        request: {
          ...request,
          customerId: state.customerId,
          destination: { ...(request.destination ?? {}), accountId: state.accountId },
        },
        limits: input.payment.limits,
        options: input.payment.options,
      },
    ] as [PaymentInput],
    staticSummary: `payment ${paymentKey} (transfer ${input.transferKey})`,
    // A payment runs once: a closed payment:<key> is never started again (that would POST /payments again),
    // and it outlives its transfer (terminating a transfer must not stop following a funded payment).
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    parentClosePolicy: ParentClosePolicy.ABANDON,
  };
  /**
   * The payment already runs or ran under this key (a retried transfer, or a caller that started `payment:<key>`
   * itself): REJECT_DUPLICATE refuses the child start, and the transfer attaches to it and reports its real
   * outcome, as it does for onboarding and registration. Before the patch the transfer failed while its payment
   * went on (read only when the start was refused, so histories recorded before it replay as they ran).
   */
  async function attachIfStarted(start: () => Promise<PaymentOutcome>): Promise<PaymentOutcome> {
    try {
      return await start();
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError) || !patched('transfer-payment-attaches'))
        throw err;
      log.info('payment already started under this key: attaching to it', { paymentId: paymentOptions.workflowId });
      return stepOutcome<PaymentOutcome>(paymentOptions.workflowId);
    }
  }
  let outcome: PaymentOutcome;
  if (paymentSurvivesCancel) {
    // A cancel of the transfer never reaches its payment (issue 9, point 2): once created, money may move,
    // and only the payment's own `cancel` update may stop it (before funds). ABANDON: no cancel request is
    // sent; the non-cancellable scope: the transfer keeps following the payment to its real outcome, which
    // is what it reports, with `cancelRequested` set.
    const paymentId = state.paymentWorkflowId;
    root.cancelRequested.catch(() => {
      state.cancelRequested = true;
      // The cancel is passed on as a request: the payment decides (cancelled before funds, else followed to its
      // real outcome, which this transfer reports). Without it a transfer cancelled before funding waited days
      // for a payment nobody will fund. Histories recorded before the patch sent nothing (read only then).
      if (!patched('transfer-cancel-request-reaches-payment')) return;
      void CancellationScope.nonCancellable(() => getExternalWorkflowHandle(paymentId).cancel()).catch(
        (err: unknown) => {
          // the payment already closed: nothing to cancel
          log.info('cancel request not delivered to the payment', { paymentId, error: String(err) });
        },
      );
    });
    outcome = await CancellationScope.nonCancellable(() =>
      attachIfStarted(() =>
        executeChild(payment, { ...paymentOptions, cancellationType: ChildWorkflowCancellationType.ABANDON }),
      ),
    );
  } else {
    outcome = await attachIfStarted(() => executeChild(payment, paymentOptions));
  }
  state.step = 'DONE';
  result.payment = outcome;
  if (state.cancelRequested) result.cancelRequested = true;
  return { ...result, outcome: outcome.outcome === 'COMPLETED' ? 'COMPLETED' : 'PAYMENT_NOT_COMPLETED' };
}
