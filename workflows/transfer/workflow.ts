// transfer: onboard → register → pay for a first-time sender, as child workflows with business-key IDs
// (ARCHITECTURE: Workflows). A step whose result the caller already has (customerId, accountId) is skipped; a step
// that already runs or ran under the same key is attached to, never started again (steps/run-step.ts). The input
// is already parsed by the caller (src/client startTransfer: zod at the edge). With `events`, each change a backend
// acts on is handed to its delivery workflow (steps/events.ts). PINNED: a change ships as a new build, never a
// patch; histories of older builds are in test/replay/archive/.
import {
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  setHandler,
  TemporalFailure,
  workflowInfo,
} from '@temporalio/workflow';
import { refuseInputOfAnotherWorkflow } from '../workflow-id-check';
import { transferStateQuery, transferWorkflowId, type TransferInput, type TransferResult } from './api';
import { TransferProgress } from './state';
import { transferEventEmitter, type TransferEventEmitter } from './steps/events';
import { onboardStep } from './steps/onboard';
import { registerStep } from './steps/register';
import { payStep } from './steps/pay';

export async function transfer(input: TransferInput): Promise<TransferResult> {
  // Before anything: an input copied under another ID never acts (workflow-id-check.ts).
  refuseInputOfAnotherWorkflow(transferWorkflowId(input.transferKey), workflowInfo().workflowId);
  const progress = new TransferProgress();
  const events = transferEventEmitter(input);
  setHandler(transferStateQuery, () => progress.snapshot());
  try {
    return await runTransfer(input, progress, events);
  } catch (err) {
    // A transfer that ends by a failure (a step that already ran and did not complete: STEP_NOT_COMPLETED) or by a
    // cancel before its payment started still tells its backend how it ended, before it ends. Only a failure that
    // ends the workflow (a TemporalFailure; any other error fails the task and is retried); a transfer without
    // events hands over nothing (SILENT emitter: its commands are what they were).
    if (input.events && err instanceof TemporalFailure) {
      const cancelled = isCancellation(err);
      await CancellationScope.nonCancellable(async () => {
        events.emit(cancelled ? 'transfer.cancelled' : 'transfer.not_completed', progress, {
          outcome: cancelled ? 'CANCELLED' : 'NOT_COMPLETED',
          code: cancelled ? null : failureCode(err),
        });
        await events.settled();
      });
    }
    throw err;
  }
}

async function runTransfer(
  input: TransferInput,
  progress: TransferProgress,
  events: TransferEventEmitter,
): Promise<TransferResult> {
  const { state, result } = progress;
  /** the transfer ends here: its last event is handed over before the result is returned */
  const end = async (outcome: TransferResult['outcome'], code: string | null): Promise<TransferResult> => {
    state.step = 'DONE';
    const ended = progress.end(outcome);
    events.emit(outcome === 'COMPLETED' ? 'transfer.completed' : endEventOf(outcome), progress, {
      outcome,
      code,
    });
    await events.settled();
    return ended;
  };

  // 1. customer
  const customerId = await onboardStep(input, progress);
  if (customerId === null) return end('CUSTOMER_NOT_APPROVED', result.customer?.outcome ?? null);
  state.customerId = result.customerId = customerId;
  if (result.customer) events.emit('transfer.customer_approved', progress);

  // 2. destination account
  state.step = 'REGISTERING';
  const accountId = await registerStep(input, customerId, progress);
  if (accountId === null) {
    const rejected =
      result.account?.outcome === 'REJECTED' ? (result.account.violations[0]?.rule ?? null) : null;
    return end('ACCOUNT_REJECTED', rejected);
  }
  state.accountId = result.accountId = accountId;
  if (result.account) events.emit('transfer.account_registered', progress);

  // 3. payment
  state.step = 'PAYING';
  const outcome = await payStep(input, customerId, accountId, progress, () =>
    events.emit('transfer.payment_started', progress),
  );
  result.payment = outcome;
  if (state.cancelRequested) result.cancelRequested = true;
  return end(
    outcome.outcome === 'COMPLETED' ? 'COMPLETED' : 'PAYMENT_NOT_COMPLETED',
    outcome.outcome === 'COMPLETED' ? null : outcome.outcome,
  );
}

function endEventOf(outcome: Exclude<TransferResult['outcome'], 'COMPLETED'>) {
  return (
    {
      CUSTOMER_NOT_APPROVED: 'transfer.customer_not_approved',
      ACCOUNT_REJECTED: 'transfer.account_rejected',
      PAYMENT_NOT_COMPLETED: 'transfer.payment_not_completed',
    } as const
  )[outcome];
}

/** The failure's type (e.g. STEP_NOT_COMPLETED), from it or the first cause that has one: a code, never a message. */
function failureCode(err: unknown): string | null {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e instanceof ApplicationFailure && e.type) return e.type;
  }
  return null;
}
