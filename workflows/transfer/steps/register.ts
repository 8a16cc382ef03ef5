// Step 2 of a transfer: the destination account of the customer. An accountId given by the caller skips it.
import { executeChild } from '@temporalio/workflow';
import { registerAccountWorkflowId } from '../../register-account/api';
import { registerAccount } from '../../register-account/workflow';
import type { TransferInput } from '../api';
import type { TransferProgress } from '../state';
import { runStep } from './run-step';

/** The registered account's id, or null when it was refused (the result says why). */
export async function registerStep(
  input: TransferInput,
  customerId: string,
  progress: TransferProgress,
): Promise<string | null> {
  if ('accountId' in input.account) return input.account.accountId;
  const { accountKey, body, requirementsQuery, accountHolderType } = input.account;
  const registered = await runStep(registerAccountWorkflowId(accountKey), (options) =>
    executeChild(registerAccount, {
      ...options,
      args: [{ accountKey, account: { customerId, ...body }, requirementsQuery, accountHolderType }],
      staticSummary: `register account ${accountKey} (transfer ${input.transferKey})`,
    }),
  );
  progress.result.account = registered;
  return registered.outcome === 'REGISTERED' ? registered.account.id : null;
}
