// The contract's customer and account rules, loaded on first use. They still run zod (their request and
// response schemas are large; not yet written as plain schemas like the payment's: docs/performance.md), so
// they are `require`d lazily: webpack keeps them in the bundle but evaluates them only in a workflow that calls
// them (onboardCustomer, registerAccount, providerCustomer). Every other workflow — payment, providerPayment,
// transfer, … — evaluates no zod module (test/unit/workflow-modules-zod-free.test.ts). Import nothing from zod
// or src/contract here but types.
import type * as CustomerModule from '../src/contract/customer';
import type * as ValidateAccountModule from '../src/contract/validate-account';
import type * as ValidateCustomerModule from '../src/contract/validate-customer';

/* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose: evaluated only when called */
export const customerContract = (): typeof CustomerModule & typeof ValidateCustomerModule => ({
  ...(require('../src/contract/customer') as typeof CustomerModule),
  ...(require('../src/contract/validate-customer') as typeof ValidateCustomerModule),
});

export const accountContract = (): typeof ValidateAccountModule =>
  require('../src/contract/validate-account') as typeof ValidateAccountModule;
/* eslint-enable @typescript-eslint/no-require-imports */
