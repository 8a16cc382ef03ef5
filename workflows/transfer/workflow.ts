// transfer: onboard → register → pay for a first-time sender, as child workflows with business-key IDs
// (ARCHITECTURE: Workflows). A step whose result the caller already has (customerId, accountId) is skipped; a step
// that already runs or ran under the same key is attached to, never started again (steps/run-step.ts). The input
// is already parsed by the caller (src/client startTransfer: zod at the edge). PINNED: a change ships as a new
// build, never a patch; histories of older builds are in test/replay/archive/.
import { setHandler } from '@temporalio/workflow';
import { transferStateQuery, type TransferInput, type TransferResult } from './api';
import { TransferProgress } from './state';
import { onboardStep } from './steps/onboard';
import { registerStep } from './steps/register';
import { payStep } from './steps/pay';

export async function transfer(input: TransferInput): Promise<TransferResult> {
  const progress = new TransferProgress();
  const { state, result } = progress;
  setHandler(transferStateQuery, () => progress.snapshot());

  // 1. customer
  const customerId = await onboardStep(input, progress);
  if (customerId === null) return progress.end('CUSTOMER_NOT_APPROVED');
  state.customerId = result.customerId = customerId;

  // 2. destination account
  state.step = 'REGISTERING';
  const accountId = await registerStep(input, customerId, progress);
  if (accountId === null) return progress.end('ACCOUNT_REJECTED');
  state.accountId = result.accountId = accountId;

  // 3. payment
  state.step = 'PAYING';
  const outcome = await payStep(input, customerId, accountId, progress);
  state.step = 'DONE';
  result.payment = outcome;
  if (state.cancelRequested) result.cancelRequested = true;
  return progress.end(outcome.outcome === 'COMPLETED' ? 'COMPLETED' : 'PAYMENT_NOT_COMPLETED');
}
