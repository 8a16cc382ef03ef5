// transfer: onboard → register → pay for a first-time sender, as child workflows with business-key IDs
// (ARCHITECTURE: Workflows). A step whose result the caller already has (customerId, accountId) is skipped; a step
// that already runs or ran under the same key is attached to, never started again (steps/run-step.ts). The input
// is already parsed by the caller (src/client startTransfer: zod at the edge). With `events`, each change a backend
// acts on is handed to its delivery workflow (steps/events.ts). PINNED: a change ships as a new build, never a
// patch; histories of older builds are in test/replay/archive/.
import { setHandler } from '@temporalio/workflow';
import { transferStateQuery, type TransferInput, type TransferResult } from './api';
import { TransferProgress } from './state';
import { transferEventEmitter } from './steps/events';
import { onboardStep } from './steps/onboard';
import { registerStep } from './steps/register';
import { payStep } from './steps/pay';

export async function transfer(input: TransferInput): Promise<TransferResult> {
  const progress = new TransferProgress();
  const { state, result } = progress;
  const events = transferEventEmitter(input);
  setHandler(transferStateQuery, () => progress.snapshot());
  /** the transfer ends here: its last event is handed over before the result is returned */
  const end = async (outcome: TransferResult['outcome'], code: string | null): Promise<TransferResult> => {
    state.step = 'DONE';
    const ended = progress.end(outcome);
    events.emit(outcome === 'COMPLETED' ? 'transfer.completed' : endEventOf(outcome), progress, { outcome, code });
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
    const rejected = result.account?.outcome === 'REJECTED' ? result.account.violations[0]?.rule ?? null : null;
    return end('ACCOUNT_REJECTED', rejected);
  }
  state.accountId = result.accountId = accountId;
  if (result.account) events.emit('transfer.account_registered', progress);

  // 3. payment
  state.step = 'PAYING';
  const outcome = await payStep(input, customerId, accountId, progress, () => events.emit('transfer.payment_started', progress));
  result.payment = outcome;
  if (state.cancelRequested) result.cancelRequested = true;
  return end(outcome.outcome === 'COMPLETED' ? 'COMPLETED' : 'PAYMENT_NOT_COMPLETED', outcome.outcome === 'COMPLETED' ? null : outcome.outcome);
}

function endEventOf(outcome: Exclude<TransferResult['outcome'], 'COMPLETED'>) {
  return ({
    CUSTOMER_NOT_APPROVED: 'transfer.customer_not_approved',
    ACCOUNT_REJECTED: 'transfer.account_rejected',
    PAYMENT_NOT_COMPLETED: 'transfer.payment_not_completed',
  } as const)[outcome];
}
