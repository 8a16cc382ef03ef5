// Step 1 of a transfer: the sender. A customerId given by the caller skips onboarding.
import { executeChild } from '@temporalio/workflow';
import { onboardCustomerWorkflowId } from '../../onboard-customer/api';
import { onboardCustomer } from '../../onboard-customer/workflow';
import type { TransferInput } from '../api';
import type { TransferProgress } from '../state';
import { runStep } from './run-step';

/** The approved customer's id, or null when the review did not approve it (the result says how). */
export async function onboardStep(input: TransferInput, progress: TransferProgress): Promise<string | null> {
  if ('customerId' in input.customer) return input.customer.customerId;
  const { customerKey, body, reviewTimeoutMs } = input.customer;
  const onboarded = await runStep(onboardCustomerWorkflowId(customerKey), (options) =>
    executeChild(onboardCustomer, {
      ...options,
      args: [{ customerKey, customer: body, reviewTimeoutMs }],
      staticSummary: `onboard customer ${customerKey} (transfer ${input.transferKey})`,
    }),
  );
  progress.result.customer = onboarded;
  return onboarded.outcome === 'APPROVED' ? onboarded.customer.id : null;
}
