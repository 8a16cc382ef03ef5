// The contract's rules as activities (ARCHITECTURE: "zod at the edges"): a workflow gets its input already parsed
// by its caller, and what it must check at workflow time (the dated KYC/KYB and account rules, spec: Customer;
// Account) runs here, where zod may run, never in the workflow bundle (docs/performance.md). No I/O: the workflows
// run them as local activities, and pass their own clock (`asOf`) so a replay or a retry judges the same day.
import type { Violation } from '../src/contract';
import { validateAccount } from '../src/contract/validate-account';
import { validateCustomer } from '../src/contract/validate-customer';

export interface ContractActivities {
  /** Every violation of a POST /customers body at `asOf` (ISO 8601, workflow time). [] = valid. */
  validateCustomerBody(body: unknown, asOf: string): Promise<Violation[]>;
  /** Every violation of a POST /accounts body at `asOf` (ISO 8601, workflow time). [] = valid. */
  validateAccountBody(body: unknown, asOf: string): Promise<Violation[]>;
}

export function createContractActivities(): ContractActivities {
  return {
    validateCustomerBody: async (body, asOf) => validateCustomer(body, new Date(asOf)),
    validateAccountBody: async (body, asOf) => validateAccount(body, new Date(asOf)),
  };
}
