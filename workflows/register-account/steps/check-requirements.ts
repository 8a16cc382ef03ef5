// Step 2 of a registration (spec: Endpoints, GET /accounts/requirements — bank country and currency; external bank
// accounts only): read the requirements and check every applicable item against the body.
import type { Violation } from '../../../src/contract';
import { readActivities } from '../../activity-options';
import { failureViolation } from '../../activity-failures';
import type { RegisterAccountInput } from '../api';
import { requirementViolations } from '../requirements';

/** The query the caller gave, else the bank's (or the holder's) country and the account's currency. */
export function requirementsQueryOf(
  input: RegisterAccountInput,
): { bankCountryCode: string; currencyCode: string } | null {
  if (input.requirementsQuery) return input.requirementsQuery;
  const body = input.account as {
    currencyCode?: string;
    bank?: { countryCode?: string };
    accountHolder?: { address?: { countryCode?: string } };
  };
  const bankCountryCode = body.bank?.countryCode ?? body.accountHolder?.address?.countryCode;
  return bankCountryCode && body.currencyCode ? { bankCountryCode, currencyCode: body.currencyCode } : null;
}

export async function checkRequirements(input: RegisterAccountInput): Promise<Violation[]> {
  if (input.account.type !== 'EXTERNAL_BANK_ACCOUNT') return [];
  const query = requirementsQueryOf(input);
  if (!query)
    return [
      {
        path: 'requirementsQuery',
        rule: 'REQUIREMENTS_QUERY_UNKNOWN',
        message:
          'give requirementsQuery (bankCountryCode, currencyCode) or bank.countryCode and currencyCode',
      },
    ];
  try {
    const requirements = await readActivities.getAccountRequirements(query);
    return requirementViolations(input.account, requirements, input.accountHolderType);
  } catch (err) {
    return [failureViolation('requirements', err, 'REQUIREMENTS_UNAVAILABLE')];
  }
}
