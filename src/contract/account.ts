import { z } from 'zod';
import { ACCOUNT_TYPES, CUSTOMER_TYPES } from './enums';
import { AnyObject, CountryCode, CurrencyCode, isRecord, Timestamp } from './primitives';

// spec: Account. "The complete list of account fields and which are required: not shown." Dated
// requirements (postal code, JPY/CAD codes, HK SWIFT, wallet currency) are in validateAccount.

// spec: Account — "Bank identification fields" (all 17, each an optional string) plus name.
export const BankSchema = z.looseObject({
  name: z.string().optional(),
  /** Country of the bank (the requirements endpoint is keyed by it). */
  countryCode: CountryCode.optional(),
  accountNumber: z.string().optional(),
  routingNumber: z.string().optional(),
  iban: z.string().optional(),
  bicSwift: z.string().optional(),
  ifscCode: z.string().optional(),
  sortCode: z.string().optional(),
  bsbNumber: z.string().optional(),
  nccNumber: z.string().optional(),
  transitNumber: z.string().optional(),
  bankCode: z.string().optional(),
  clabeNumber: z.string().optional(),
  routingCode: z.string().optional(),
  branchCode: z.string().optional(),
  clearingCode: z.string().optional(),
  cnapsCode: z.string().optional(),
  nubanCode: z.string().optional(),
  pixCode: z.string().optional(),
});
export type Bank = z.infer<typeof BankSchema>;

// spec: Account, accountHolder — holder name, address (countryCode, stateRegionOrProvince, postal code).
// Rule 2: email is not required.
export const AccountHolderSchema = z.looseObject({
  type: z.enum(CUSTOMER_TYPES).optional(),
  name: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  businessName: z.string().optional(),
  email: z.string().optional(),
  address: z.looseObject({
    line1: z.string().optional(),
    city: z.string().optional(),
    // Rule 1: for an external digital asset wallet this is where the user lives.
    countryCode: CountryCode,
    stateRegionOrProvince: z.string().optional(),
    postalCode: z.string().optional(),
  }),
});
export type AccountHolder = z.infer<typeof AccountHolderSchema>;

/** The POST /accounts body (spec: Account); validateAccount checks the dated rules besides. */
export const CreateAccountRequestSchema = z.looseObject({
  type: z.enum(ACCOUNT_TYPES),
  customerId: z.string().min(1).optional(),
  // Required for external digital asset wallets once a date is announced (rule WALLET_CURRENCY_CODE).
  currencyCode: CurrencyCode.optional(),
  isThirdParty: z.boolean().optional(),
  // Strings, not the enum: which rails are accepted depends on the date (validate-account.ts).
  rails: z.array(z.string()).optional(),
  bank: BankSchema.optional(),
  accountHolder: AccountHolderSchema.optional(),
  /** Wallet address of a digital asset wallet (name is our gap decision). */
  walletAddress: z.string().optional(),
  // spec: Account — for a virtual bank account; replaces liquidationInformation.
  liquidationAccountId: z.string().optional(),
  /** Deprecated (removal date postponed); kept as an opaque object. */
  liquidationInformation: AnyObject.optional(),
});
/** The POST /accounts body (CreateAccountRequestSchema). */
export type CreateAccountRequest = z.infer<typeof CreateAccountRequestSchema>;

/** An account as the service answers it: the request's fields plus `id` and `createdAt` (spec: Account). */
export const AccountSchema = CreateAccountRequestSchema.extend({
  id: z.string().min(1),
  createdAt: Timestamp,
});
/** An account as the service answers it (AccountSchema). */
export type Account = z.infer<typeof AccountSchema>;

/**
 * An account from the service → AccountSchema, with `accountHolder` filled from the former
 * `paymentAccountHolder` when only that one is present (spec: Account — accountHolder replaces
 * paymentAccountHolder; rule 5; Events 4). The old object is kept as an extra field.
 */
export function normalizeAccount(raw: unknown): Account {
  if (isRecord(raw) && raw.accountHolder === undefined && isRecord(raw.paymentAccountHolder)) {
    return AccountSchema.parse({ ...raw, accountHolder: raw.paymentAccountHolder });
  }
  return AccountSchema.parse(raw);
}
