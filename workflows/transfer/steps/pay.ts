// Step 3 of a transfer: the payment, as a child `payment:<paymentKey>` (the transfer key when none is given).
// A payment runs once and outlives its transfer: money may move once it is created (house money rules).
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import {
  CancellationScope,
  CancelledFailure,
  ChildWorkflowCancellationType,
  startChild,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
} from '@temporalio/workflow';
import type { PaymentInput } from '../../inputs';
import { paymentWorkflowId, type PaymentOutcome } from '../../payment/api';
import { payment } from '../../payment/workflow';
import type { TransferInput } from '../api';
import type { TransferProgress } from '../state';
import { transferPaymentKey } from './events';
import { stepOutcome } from './run-step';

/** The payment's request: the caller's, with the customer and the destination account of the steps before. */
function paymentInput(
  input: TransferInput,
  paymentKey: string,
  customerId: string,
  accountId: string,
): PaymentInput {
  const request = input.payment.request as Record<string, unknown> & {
    destination?: Record<string, unknown>;
  };
  return {
    paymentKey,
    request: { ...request, customerId, destination: { ...(request.destination ?? {}), accountId } },
    limits: input.payment.limits,
    options: input.payment.options,
    // the transfer's events endpoint gets the payment's events too (docs/outbound-events.md, "Transfers")
    ...(input.events ? { events: input.events } : {}),
  };
}

/**
 * A cancel of the transfer never stops its payment: it is passed on as a cancel request, and the payment decides
 * (cancelled before funds, else followed to its real outcome, which the transfer reports with `cancelRequested`).
 */
function passCancelOn(root: CancellationScope, progress: TransferProgress, paymentId: string): void {
  root.cancelRequested.catch(() => {
    progress.state.cancelRequested = true;
    void CancellationScope.nonCancellable(() => getExternalWorkflowHandle(paymentId).cancel()).catch(
      (err: unknown) => {
        // the payment already closed: nothing to cancel
        log.info('cancel request not delivered to the payment', { paymentId, error: String(err) });
      },
    );
  });
}

export async function payStep(
  input: TransferInput,
  customerId: string,
  accountId: string,
  progress: TransferProgress,
  /** called once the payment runs (started now, or attached to) */
  onStarted: () => void = () => undefined,
): Promise<PaymentOutcome> {
  const paymentKey = transferPaymentKey(input);
  const paymentId = paymentWorkflowId(paymentKey);
  progress.state.paymentWorkflowId = paymentId;
  progress.result.paymentWorkflowId = paymentId;
  const root = CancellationScope.current();
  if (root.consideredCancelled)
    throw new CancelledFailure('the transfer was cancelled before its payment started');
  passCancelOn(root, progress, paymentId);
  // The non-cancellable scope: the transfer follows its payment to its real outcome whatever happens to it.
  return CancellationScope.nonCancellable(async () => {
    try {
      const child = await startChild(payment, {
        workflowId: paymentId,
        args: [paymentInput(input, paymentKey, customerId, accountId)],
        staticSummary: `payment ${paymentKey} (transfer ${input.transferKey})`,
        // A closed payment:<key> is never started again (that would POST /payments again), it outlives its
        // transfer (ABANDON on close), and no cancel request reaches it as a child (ABANDON on cancel).
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        parentClosePolicy: ParentClosePolicy.ABANDON,
        cancellationType: ChildWorkflowCancellationType.ABANDON,
      });
      onStarted();
      return await child.result();
    } catch (err) {
      // a retried transfer, or a caller that started `payment:<key>` itself: attach and report its real outcome
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      log.info('payment already started under this key: attaching to it', { paymentId });
      onStarted();
      return stepOutcome<PaymentOutcome>(paymentId);
    }
  });
}
