// The onboardCustomer API: its type name, ID, query, input and result (spec: Customer; ARCHITECTURE: Workflows).
// Pure: imported by the workflow and by its callers alike; never loads workflow code.
import { defineQuery } from '@temporalio/workflow';
import type { Customer, Violation } from '../../src/contract';

export type { OnboardCustomerInput } from '../inputs';

/** The workflow type (the function's name in workflows/index.ts). */
export const ONBOARD_CUSTOMER_WORKFLOW_TYPE = 'onboardCustomer';

/** Business key → workflow ID (chosen by the caller; never personal data, src/codec/identifiers.ts). */
export const onboardCustomerWorkflowId = (customerKey: string): string => `customer:${customerKey}`;

export type OnboardCustomerResult =
  | { outcome: 'APPROVED'; customer: Customer }
  | { outcome: 'REJECTED'; violations: Violation[]; customer: null }
  | { outcome: 'REVIEW_REJECTED'; customer: Customer }
  | { outcome: 'REVIEW_TIMEOUT'; customer: Customer };

export interface OnboardState {
  customer: Customer | null;
  /** what the last customerChanged signal carried: `ok <status>`, or why it did not parse */
  lastSignal: string | null;
}
export const onboardStateQuery = defineQuery<OnboardState>('onboardState');
