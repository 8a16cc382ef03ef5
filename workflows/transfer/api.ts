// The transfer's API (ARCHITECTURE: Workflows): its type name, ID, query, input and result. Pure: imported by the
// workflow and by its callers (src/client, the CLI demo, tests) alike; never loads workflow code.
import { defineQuery } from '@temporalio/workflow';
import type { PaymentOutcome } from '../payment/api';
import type { OnboardCustomerResult } from '../onboard-customer/api';
import type { RegisterAccountResult } from '../register-account/api';

export type { TransferInput } from '../inputs';

/** The workflow type (the function's name in workflows/index.ts). */
export const TRANSFER_WORKFLOW_TYPE = 'transfer';

/** Business key → workflow ID (ARCHITECTURE: Workflows, "IDs are business keys"). */
export const transferWorkflowId = (transferKey: string): string => `transfer:${transferKey}`;

export type TransferStep = 'ONBOARDING' | 'REGISTERING' | 'PAYING' | 'DONE';
export interface TransferState {
  step: TransferStep;
  customerId: string | null;
  accountId: string | null;
  paymentWorkflowId: string | null;
  /** a Temporal cancel came while paying: the payment goes on, the transfer follows it (docs/spec-gaps.md "Cancelling a transfer") */
  cancelRequested?: boolean;
}
/** Where a transfer is: clients (the demo of npm start, backends) follow its steps with it. */
export const transferStateQuery = defineQuery<TransferState>('transferState');

/** How a transfer ended: the transfer workflow's result (awaitTransferOutcome), with each step's result. */
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
   * transfer followed it to its real outcome (docs/spec-gaps.md "Cancelling a transfer").
   */
  cancelRequested?: boolean;
}

/** ApplicationFailure type of a step that already ran under the same key and did not complete. */
export const STEP_NOT_COMPLETED = 'STEP_NOT_COMPLETED';
