// Enumerations of the payments service, copied from the spec lists verbatim.
// Counts are checked against the spec text in test/unit/contract/enums.test.ts.

// spec: Rail values — the enumerated list accepted from 2026-07-31 (see rules.ts RAILS_ENUM_ENFORCED).
export const BLOCKCHAIN_RAILS = ['POLYGON', 'ETHEREUM', 'BASE', 'SOLANA', 'TRON'] as const;
export const FIAT_RAILS = [
  'LOCAL',
  'SWIFT',
  'ACH',
  'ACH_SAME_DAY',
  'DOMESTIC_WIRE',
  'TED',
  'PIX',
  'IMPS',
  'IMPS_WITH_FIRC',
] as const;
/** The rails accepted from 2026-07-31: fiat rails, then blockchain rails. */
export const RAILS = [...FIAT_RAILS, ...BLOCKCHAIN_RAILS] as const;
/** One of RAILS. */
export type Rail = (typeof RAILS)[number];
export type BlockchainRail = (typeof BLOCKCHAIN_RAILS)[number];

// spec: Rail values — deprecated values and their replacement ('CHAIN' = use the blockchain name).
export const DEPRECATED_RAILS = { WIRE: 'SWIFT', CRYPTO: 'CHAIN' } as const;
export type DeprecatedRail = keyof typeof DEPRECATED_RAILS;
// spec: Rail values — FPS is not accepted today and is refused from 2026-07-31 (not in RAILS).
export const FPS_RAIL = 'FPS';

export function isRail(value: unknown): value is Rail {
  return typeof value === 'string' && (RAILS as readonly string[]).includes(value);
}
export function isBlockchainRail(value: unknown): value is BlockchainRail {
  return typeof value === 'string' && (BLOCKCHAIN_RAILS as readonly string[]).includes(value);
}

// spec: Rail values — "Currency codes seen".
/** The stablecoins the spec names (USDC, USDT, EURC). */
export const STABLECOINS = ['USDC', 'USDT', 'EURC'] as const;
// The spec names USD … PHP "and others"; the tail (MXN …) is our choice of common corridors.
/** The fiat currencies the contract knows. */
export const FIAT_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'BRL',
  'INR',
  'PHP',
  'MXN',
  'HKD',
  'AUD',
  'CHF',
  'SGD',
  'CNY',
  'COP',
  'ARS',
  'CLP',
  'NGN',
  'KES',
  'ZAR',
] as const;
/** One of STABLECOINS. */
export type Stablecoin = (typeof STABLECOINS)[number];
export function isStablecoin(code: string): code is Stablecoin {
  return (STABLECOINS as readonly string[]).includes(code);
}

// spec: Rail values — "Currencies with several rail choices".
export const CURRENCY_RAILS: Readonly<Record<string, readonly Rail[]>> = {
  USD: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'],
  BRL: ['TED', 'PIX'],
  INR: ['IMPS', 'IMPS_WITH_FIRC'],
};

// spec: Account, rails — "US accounts: ACH, ACH_SAME_DAY, DOMESTIC WIRE (default all three); BR accounts:
// TED, PIX (default TED)". Keyed by the bank's country (ISO alpha-2).
export const DEFAULT_ACCOUNT_RAILS: Readonly<Record<string, readonly Rail[]>> = {
  US: ['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE'],
  BR: ['TED'],
};

// spec: Payment, rule 1.
export const PAYMENT_TYPES = ['INTERNAL', 'PAYIN', 'PAYOUT', 'EXTERNAL'] as const;
export type PaymentType = (typeof PAYMENT_TYPES)[number];

// spec: States and transitions. FAILED and REFUNDED are our gap decision (docs/spec-gaps.md).
/** A provider payment's statuses (spec: States and transitions; FAILED and REFUNDED: docs/spec-gaps.md). */
export const PAYMENT_STATUSES = [
  'AWAITING_FUNDS',
  'PENDING',
  'PROCESSING',
  'SENT',
  'COMPLETED',
  'EXPIRED',
  'FAILED',
  'REFUNDED',
] as const;
/** One of PAYMENT_STATUSES. */
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** The statuses a provider payment ends in. */
export const TERMINAL_STATUSES: readonly PaymentStatus[] = ['COMPLETED', 'FAILED', 'REFUNDED'];

// Forward order used to ignore a status that goes backwards (events may arrive out of order).
// EXPIRED ranks just after AWAITING_FUNDS: before 2026-03-30 a late funding notice moves EXPIRED → SENT →
// COMPLETED (spec: States and transitions, last row), and an EXPIRED payment can still be REFUNDED
// (row 4). COMPLETED and FAILED share a rank: neither may replace the other.
const STATUS_RANK: Record<PaymentStatus, number> = {
  AWAITING_FUNDS: 0,
  EXPIRED: 1,
  PENDING: 2,
  PROCESSING: 3,
  SENT: 4,
  COMPLETED: 5,
  FAILED: 5,
  REFUNDED: 6,
};
/** Higher = further along. A move to a lower rank is "backwards" and should be ignored. */
export function statusRank(status: PaymentStatus): number {
  return STATUS_RANK[status];
}
/** True for COMPLETED, FAILED and REFUNDED (TERMINAL_STATUSES). */
export function isTerminalStatus(status: PaymentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

// spec: Errors 3 (in use from 2026-03-15).
/** The failure and refund codes of payments (spec: Errors 3, in use from 2026-03-15). */
export const FAILURE_CODES = [
  'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
  'INVALID_EXTERNAL_ACCOUNT_NUMBER',
  'INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME',
  'INVALID_EXTERNAL_ACCOUNT_HOLDER_ADDRESS',
  'FUNDS_RETURNED_BY_RECEIVING_BANK',
  'EXTERNAL_ACCOUNT_HOLDER_ADDRESS_IS_PMB_OR_PO_BOX',
  'RFI_NOT_ANSWERED_IN_TIME',
  'EXTERNAL_ACCOUNT_DEPOSIT_LIMIT_EXCEEDED',
] as const;
/** One of FAILURE_CODES. */
export type FailureCode = (typeof FAILURE_CODES)[number];

// spec: Payment reason values — accepted from 2026-07-31.
/** The payment reasons accepted from 2026-07-31 (spec: Payment reason values). */
export const PAYMENT_REASONS = [
  'CHARITABLE_CONTRIBUTIONS',
  'EDUCATION_FEES',
  'EMPLOYEE_SALARIES_OR_WAGES',
  'FAMILY_AND_FRIENDS_SUPPORT',
  'GIFTS',
  'INSURANCE',
  'INTERCOMPANY_TRANSFER',
  'INVESTMENTS',
  'LOANS',
  'PERSONAL_TRANSFERS',
  'PURCHASE_OF_GOODS',
  'PURCHASE_OF_SERVICES',
  'REAL_ESTATE',
  'RENT',
  'TAXES',
  'TRAVEL',
  'UTILITY_BILLS',
] as const;
/** One of PAYMENT_REASONS. */
export type PaymentReason = (typeof PAYMENT_REASONS)[number];
// spec: Payment reason values — removed by the 2026-07-31 change.
export const REMOVED_PAYMENT_REASONS = [
  'REMITTANCE',
  'CAPITAL_CONTRIBUTIONS',
  'CONSULTING_FEES',
  'CORPORATE_TAX_PAYMENTS',
  'DOWN_PAYMENTS_FOR_REAL_ESTATE',
  'EXPENSES_REIMBURSEMENT',
  'GOVERNMENT_GRANTS',
  'INCOME_TAX_PAYMENTS',
  'INHERITANCE_PAYMENTS',
  'INSURANCE_CLAIM_PAYOUTS',
  'INSURANCE_PREMIUM_PAYMENTS',
  'LOAN_ADVANCES',
  'MORTGAGE_PAYMENTS',
  'OTHER',
  'PAYMENT_FOR_GOODS_AND_SERVICES',
  'REAL_ESTATE_PURCHASES',
  'REMITTANCES',
  'ROYALTIES',
  'TRUST_FUND_DISTRIBUTIONS',
  'WELFARE_OR_BENEFITS',
  'WINNINGS_AND_PRIZES',
  'REPAYMENT_OF_LOANS',
] as const;
// spec: Payment reason values — added by the 2026-07-31 change.
export const ADDED_PAYMENT_REASONS = [
  'FAMILY_AND_FRIENDS_SUPPORT',
  'INSURANCE',
  'INTERCOMPANY_TRANSFER',
  'REAL_ESTATE',
  'TAXES',
  'TRAVEL',
  'LOANS',
] as const;
// spec: Payment reason values — in neither list; the service uses it for automatic conversions.
export const AUTO_LIQUIDATION = 'AUTO_LIQUIDATION';
// spec: Payment reason values — refused from 2026-03-30.
export const OTHER_REASON = 'OTHER';
export function isPaymentReason(value: unknown): value is PaymentReason {
  return typeof value === 'string' && (PAYMENT_REASONS as readonly string[]).includes(value);
}

// spec: Customer, estimatedAnnualRevenueUSD. Only the two replacement values are named; the lower
// bands are our gap decision (docs/spec-gaps.md).
export const ESTIMATED_ANNUAL_REVENUE_USD = [
  'UNDER_ONE_MILLION',
  'ONE_MILLION_TO_TEN_MILLION',
  'TEN_MILLION_TO_FIFTY_MILLION',
  'FIFTY_MILLION_TO_TWO_HUNDRED_AND_FIFTY_MILLION',
  'OVER_TWO_HUNDRED_AND_FIFTY_MILLION',
] as const;
export type EstimatedAnnualRevenueUSD = (typeof ESTIMATED_ANNUAL_REVENUE_USD)[number];
// spec: Customer — the faulty values replaced on 2026-07-31.
export const FAULTY_ANNUAL_REVENUE_USD = {
  FIFTY_MILLION_TO_TWENTY_FIVE_MILLION: 'FIFTY_MILLION_TO_TWO_HUNDRED_AND_FIFTY_MILLION',
  OVER_TWENTY_FIVE_MILLION: 'OVER_TWO_HUNDRED_AND_FIFTY_MILLION',
} as const;

// spec: Customer, type and capabilities.
export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];
export const CUSTOMER_CAPABILITIES = ['USD', 'OTHER'] as const;
// Gap decision: review outcome of a customer (docs/spec-gaps.md, Wire decisions).
export const CUSTOMER_STATUSES = ['PENDING_REVIEW', 'APPROVED', 'REJECTED'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

// spec: Account, type ("other kinds exist").
export const ACCOUNT_TYPES = [
  'EXTERNAL_BANK_ACCOUNT',
  'EXTERNAL_DIGITAL_ASSET_WALLET',
  'VIRTUAL_BANK_ACCOUNT',
  'VIRTUAL_DIGITAL_ASSET_WALLET',
] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

// spec: Account — "Bank identification fields".
export const BANK_FIELDS = [
  'accountNumber',
  'routingNumber',
  'iban',
  'bicSwift',
  'ifscCode',
  'sortCode',
  'bsbNumber',
  'nccNumber',
  'transitNumber',
  'bankCode',
  'clabeNumber',
  'routingCode',
  'branchCode',
  'clearingCode',
  'cnapsCode',
  'nubanCode',
  'pixCode',
] as const;
export type BankField = (typeof BANK_FIELDS)[number];

// spec: Payment, configurations.
export const EXPIRED_QUOTE_BEHAVIORS = ['REFUND_PAYMENT'] as const;

// Supporting documents (spec: Customer, supporting documents). Names are our gap decision.
export const DOCUMENT_TYPES = [
  'PROOF_OF_NATURE_OF_BUSINESS',
  'PROOF_OF_ADDRESS',
  'PROOF_OF_SOURCE_OF_FUNDS',
  'PROOF_OF_VERIFICATION',
  'BANK_STATEMENT',
  'IDENTITY_DOCUMENT',
  'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
