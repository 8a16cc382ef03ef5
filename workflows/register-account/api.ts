// The registerAccount API: its type name, ID, input and result (spec: Account, Account requirement item).
// Pure: imported by the workflow and by its callers alike; never loads workflow code.
import type { Account, Violation } from '../../src/contract';

export type { RegisterAccountInput } from '../inputs';

/** The workflow type (the function's name in workflows/index.ts). */
export const REGISTER_ACCOUNT_WORKFLOW_TYPE = 'registerAccount';

/** Business key → workflow ID (chosen by the caller; never personal data, src/codec/identifiers.ts). */
export const registerAccountWorkflowId = (accountKey: string): string => `account:${accountKey}`;

export type RegisterAccountResult =
  | { outcome: 'REGISTERED'; account: Account }
  | { outcome: 'REJECTED'; violations: Violation[] };
