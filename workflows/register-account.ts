// registerAccount: contract account rules → GET /accounts/requirements (external bank accounts) → check
// every requirement → POST /accounts (key `<workflowId>:create`). ID `account:<accountKey>`.
import { workflowInfo } from '@temporalio/workflow';
import type { CreateAccountRequest, Violation } from '../src/contract';
import { validateAccount } from '../src/contract/validate-account';
import { createActivities, readActivities } from './activity-options';
import { requirementViolations } from './account-requirements';
import { applicationFailureOf, failureViolation, providerViolations, parseWorkflowInput } from './failures';
import type { RegisterAccountInput, RegisterAccountInputSchema } from './inputs';
import { RegisterAccountInputShape } from './input-shapes';
import type { RegisterAccountResult } from './types';

function requirementsQueryOf(input: ReturnType<typeof RegisterAccountInputSchema.parse>) {
  if (input.requirementsQuery) return input.requirementsQuery;
  const body = input.account as {
    currencyCode?: string;
    bank?: { countryCode?: string };
    accountHolder?: { address?: { countryCode?: string } };
  };
  const bankCountryCode = body.bank?.countryCode ?? body.accountHolder?.address?.countryCode;
  return bankCountryCode && body.currencyCode ? { bankCountryCode, currencyCode: body.currencyCode } : null;
}

export async function registerAccount(rawInput: RegisterAccountInput): Promise<RegisterAccountResult> {
  const input = parseWorkflowInput(RegisterAccountInputShape, rawInput);
  const workflowId = workflowInfo().workflowId;
  const violations: Violation[] = [...validateAccount(input.account, new Date())];

  // spec: Endpoints, GET /accounts/requirements — bank country and currency; bank accounts only
  if (input.account.type === 'EXTERNAL_BANK_ACCOUNT') {
    const query = requirementsQueryOf(input);
    if (!query) {
      violations.push({
        path: 'requirementsQuery',
        rule: 'REQUIREMENTS_QUERY_UNKNOWN',
        message:
          'give requirementsQuery (bankCountryCode, currencyCode) or bank.countryCode and currencyCode',
      });
    } else {
      try {
        const requirements = await readActivities.getAccountRequirements(query);
        violations.push(...requirementViolations(input.account, requirements, input.accountHolderType));
      } catch (err) {
        violations.push(failureViolation('requirements', err, 'REQUIREMENTS_UNAVAILABLE'));
      }
    }
  }
  if (violations.length > 0) return { outcome: 'REJECTED', violations };

  try {
    const account = await createActivities.createAccount(
      input.account as CreateAccountRequest,
      `${workflowId}:create`,
    );
    return { outcome: 'REGISTERED', account };
  } catch (err) {
    const app = applicationFailureOf(err);
    if (app?.nonRetryable) return { outcome: 'REJECTED', violations: providerViolations(app) };
    throw err;
  }
}
