// spec: Account — CreateAccountRequestSchema (account.ts) written with the plain schemas (plain-schema.ts), so
// that validateAccount runs in the registerAccount workflow without zod (docs/performance.md). Same accept/reject,
// output and messages as the zod schema: test/unit/plain-schema.test.ts.
import type { CreateAccountRequest } from './account';
import { countryCode } from './customer-shape';
import { ACCOUNT_TYPES, CUSTOMER_TYPES } from './enums';
import { array, boolean, literalEnum, object, optional, record, string, type PlainSchema } from './plain-schema';

const loose = { loose: true } as const;
const opt = optional(string());

const BANK_FIELDS = [
  'name', 'accountNumber', 'routingNumber', 'iban', 'bicSwift', 'ifscCode', 'sortCode', 'bsbNumber', 'nccNumber',
  'transitNumber', 'bankCode', 'clabeNumber', 'routingCode', 'branchCode', 'clearingCode', 'cnapsCode', 'nubanCode', 'pixCode',
] as const;
// BankSchema's key order: name, countryCode, then the identification fields (zod reports issues in that order)
const bank = object(
  Object.fromEntries([
    ['name', opt],
    ['countryCode', optional(countryCode)],
    ...BANK_FIELDS.filter((f) => f !== 'name').map((f) => [f, opt] as const),
  ]),
  loose,
);

const accountHolder = object(
  {
    type: optional(literalEnum(CUSTOMER_TYPES)),
    name: opt,
    firstName: opt,
    lastName: opt,
    businessName: opt,
    email: opt,
    address: object({ line1: opt, city: opt, countryCode, stateRegionOrProvince: opt, postalCode: opt }, loose),
  },
  loose,
);

export const CreateAccountRequestShape = object(
  {
    type: literalEnum(ACCOUNT_TYPES),
    customerId: optional(string({ min: 1 })),
    currencyCode: optional(string({ min: 3, max: 5 })),
    isThirdParty: optional(boolean()),
    rails: optional(array(string())),
    bank: optional(bank),
    accountHolder: optional(accountHolder),
    walletAddress: opt,
    liquidationAccountId: opt,
    liquidationInformation: optional(record()),
  },
  loose,
) as PlainSchema<CreateAccountRequest>;
