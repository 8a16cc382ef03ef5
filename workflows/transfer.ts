// transfer: onboard → register → pay for a first-time sender, as child workflows with business-key IDs
// (ARCHITECTURE: Workflows). A step whose result the caller already has (customerId, accountId) is skipped;
// a step re-run under the same key re-sends its creating call with the same idempotency key, so the
// service answers with the record it already made.
import { parseWorkflowInput } from './failures';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { executeChild, ParentClosePolicy, setHandler } from '@temporalio/workflow';
import { TransferInputSchema, type TransferInput } from './inputs';
import {
  transferStateQuery,
  type TransferState,
  onboardCustomerWorkflowId,
  paymentWorkflowId,
  registerAccountWorkflowId,
  type PaymentOutcome,
} from './messages';
import type { OnboardCustomerResult, RegisterAccountResult } from './types';
import { onboardCustomer } from './onboard-customer';
import { registerAccount } from './register-account';
import { payment } from './payment';

export interface TransferResult {
  outcome: 'COMPLETED' | 'CUSTOMER_NOT_APPROVED' | 'ACCOUNT_REJECTED' | 'PAYMENT_NOT_COMPLETED';
  customerId: string | null;
  accountId: string | null;
  customer: OnboardCustomerResult | null;
  account: RegisterAccountResult | null;
  payment: PaymentOutcome | null;
  paymentWorkflowId: string | null;
}

export async function transfer(rawInput: TransferInput): Promise<TransferResult> {
  const input = parseWorkflowInput(TransferInputSchema, rawInput);
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

  // 1. customer
  if ('customerId' in input.customer) {
    state.customerId = input.customer.customerId;
  } else {
    const onboarded = await executeChild(onboardCustomer, {
      workflowId: onboardCustomerWorkflowId(input.customer.customerKey),
      args: [
        {
          customerKey: input.customer.customerKey,
          customer: input.customer.body,
          reviewTimeoutMs: input.customer.reviewTimeoutMs,
        },
      ],
      staticSummary: `onboard customer ${input.customer.customerKey} (transfer ${input.transferKey})`,
    });
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
    const registered = await executeChild(registerAccount, {
      workflowId: registerAccountWorkflowId(input.account.accountKey),
      args: [
        {
          accountKey: input.account.accountKey,
          account: body,
          requirementsQuery: input.account.requirementsQuery,
          accountHolderType: input.account.accountHolderType,
        },
      ],
      staticSummary: `register account ${input.account.accountKey} (transfer ${input.transferKey})`,
    });
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
  const outcome = await executeChild(payment, {
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
    ],
    staticSummary: `payment ${paymentKey} (transfer ${input.transferKey})`,
    // A payment runs once: a closed payment:<key> is never started again (that would POST /payments again),
    // and it outlives its transfer (terminating a transfer must not stop following a funded payment).
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
  state.step = 'DONE';
  result.payment = outcome;
  return { ...result, outcome: outcome.outcome === 'COMPLETED' ? 'COMPLETED' : 'PAYMENT_NOT_COMPLETED' };
}
