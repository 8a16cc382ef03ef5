// registerAccount: the contract's account rules (a local activity, spec: Account rules 1–5) → GET
// /accounts/requirements (external bank accounts) → check every requirement → POST /accounts (key
// `<workflowId>:create`). ID `account:<accountKey>`; the input is already parsed by its caller (zod at the edge).
// PINNED: a change ships as a new build, never a patch.
import { workflowInfo } from '@temporalio/workflow';
import { contractActivities } from '../activity-options';
import { refuseInputOfAnotherWorkflow } from '../workflow-id-check';
import { registerAccountWorkflowId, type RegisterAccountInput, type RegisterAccountResult } from './api';
import { checkRequirements } from './steps/check-requirements';
import { createAccount } from './steps/create';

export async function registerAccount(input: RegisterAccountInput): Promise<RegisterAccountResult> {
  refuseInputOfAnotherWorkflow(registerAccountWorkflowId(input.accountKey), workflowInfo().workflowId); // workflow-id-check.ts
  const asOf = new Date(Date.now()).toISOString();
  const violations = [
    ...(await contractActivities.validateAccountBody(input.account, asOf)),
    ...(await checkRequirements(input)),
  ];
  if (violations.length > 0) return { outcome: 'REJECTED', violations };
  return createAccount(input.account, workflowInfo().workflowId);
}
