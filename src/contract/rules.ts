// spec: Versioning 3 and every dated sentence of the spec: one row per dated change.
// A rule is in force from 00:00:00 UTC of its `effective` date (inclusive). `effective: null` = date
// postponed / not announced: never in force until a date is set here.

export type RuleTarget = 'customer' | 'account' | 'payment' | 'service';

export interface DatedRule {
  readonly id: string;
  readonly effective: string | null;
  readonly summary: string;
  readonly appliesTo: RuleTarget;
  /** Where in the spec the rule comes from. */
  readonly spec: string;
}

/** "Immediately" (spec: Customer, country risk lists) = in force at every asOf we can be asked about. */
export const ALWAYS = '1970-01-01';

/** One row per dated change of the spec: its id, the date it is in force from (null: postponed), what it says. */
export const DATED_RULES = [
  // 2025
  {
    id: 'NEW_ENDPOINTS_ADDED',
    effective: '2025-08-25',
    appliesTo: 'service',
    spec: 'Versioning 3, Aug 25 2025',
    summary:
      'GET /payments/corridors, GET /accounts/requirements and GET /payments/rate added; rail-specific POST /payments and POST /accounts rails',
  },
  {
    id: 'DEPOSITS_REPLACED_BY_PAYIN',
    effective: '2025-09-08',
    appliesTo: 'payment',
    spec: 'Versioning 3, Sep 8 2025',
    summary: 'deposits replaced by payments of type PAYIN',
  },
  {
    id: 'SEP_12_FIELDS_ADDED',
    effective: '2025-09-12',
    appliesTo: 'service',
    spec: 'Versioning 3, Sep 12 2025',
    summary:
      'wallet currency code, liquidationAccountId, reference over memo, returnAddress, accountHolder over paymentAccountHolder available',
  },
  {
    id: 'LEGACY_ENDPOINTS_ENDED',
    effective: '2025-09-30',
    appliesTo: 'service',
    spec: 'Endpoints; Versioning 3, Sep 30 2025',
    summary:
      'GET /configurations/corridors, GET /payments/rate/service and GET /accounts/requirements/external-bank-accounts ended',
  },
  {
    id: 'DEPOSITS_ENDED',
    effective: '2025-09-30',
    appliesTo: 'service',
    spec: 'Deposit (deprecated)',
    summary: 'deposits fully deprecated; existing ones moved into PAYIN payments',
  },
  // Mar 4, 2026
  {
    id: 'CRYPTO_RAIL_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'payment',
    spec: 'Rail values; Versioning 3, Mar 4 2026',
    summary: 'rail CRYPTO refused: use the blockchain name (POLYGON, ETHEREUM, …)',
  },
  {
    id: 'CHAIN_FIELD_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'payment',
    spec: 'POST /payments body; Versioning 3, Mar 4 2026',
    summary: 'source.chain / destination.chain refused in requests: put the blockchain name in rail',
  },
  {
    id: 'MEMO_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'payment',
    spec: 'POST /payments body; Versioning 3, Mar 4 2026',
    summary: 'memo refused in requests: use reference',
  },
  {
    id: 'STATE_OR_PROVINCE_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'customer',
    spec: 'Customer; Account rule 4; Versioning 3, Mar 4 2026',
    summary: 'stateOrProvince refused: use stateRegionOrProvince',
  },
  {
    id: 'PAYMENT_ACCOUNT_HOLDER_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'account',
    spec: 'Account rule 5; Versioning 3, Mar 4 2026',
    summary: 'paymentAccountHolder refused: use accountHolder',
  },
  {
    id: 'ENTITY_AND_RECIPIENT_LOOKUPS_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'service',
    spec: 'Endpoints; Versioning 3, Mar 4 2026',
    summary:
      'GET /payments/entity/:entityId and GET /payment/recipient/:recipient removed: use GET /payments/customer/:customerId',
  },
  {
    id: 'CONFIGURATION_CORRIDORS_POST_REMOVED',
    effective: '2026-03-04',
    appliesTo: 'service',
    spec: 'Endpoints; Versioning 3, Mar 4 2026',
    summary: 'POST /configuration/corridors removed: use POST /payments/corridors',
  },
  // Mar 15, 2026
  {
    id: 'FAILURE_CODES_IN_USE',
    effective: '2026-03-15',
    appliesTo: 'payment',
    spec: 'Errors 3',
    summary: 'payment failure and refund codes (FAILURE_CODES) in use',
  },
  {
    id: 'RATE_LIMIT_ENFORCED',
    effective: '2026-03-15',
    appliesTo: 'service',
    spec: 'Limits; Versioning 3, Mar 15 2026',
    summary: 'rate limit enforced (429)',
  },
  // Mar 30, 2026
  {
    id: 'AGE_18_TO_60',
    effective: '2026-03-30',
    appliesTo: 'customer',
    spec: 'Errors 4; Limits',
    summary: 'individual customers must be 18 to 60 years old (birthDate required)',
  },
  {
    id: 'REASON_OTHER_REFUSED',
    effective: '2026-03-30',
    appliesTo: 'payment',
    spec: 'Payment reason values',
    summary: 'paymentReason OTHER refused',
  },
  {
    id: 'PAYLOAD_STEP_TWO',
    effective: '2026-03-30',
    appliesTo: 'payment',
    spec: 'Payment fields present only until March 30, 2026',
    summary:
      'old payment fields removed from responses and events (documentReference in requests is accepted and ignored at every date: the spec gives it no date)',
  },
  {
    id: 'AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS',
    effective: '2026-03-30',
    appliesTo: 'payment',
    spec: 'States and transitions, row 1; Limits',
    summary:
      'AWAITING_FUNDS → EXPIRED after 3 business days without funds; quote expiry no longer expires a payment',
  },
  {
    id: 'IP_WHITELIST_ENFORCED',
    effective: '2026-03-30',
    appliesTo: 'service',
    spec: 'Authentication 5',
    summary: 'IP whitelist of an API key enforced',
  },
  // Jul 31, 2026
  {
    id: 'KYB_DOCUMENTS',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, supporting documents',
    summary:
      'business needs proof of nature of business, proof of address, proof of source of funds (and proof of verification with a reliance agreement)',
  },
  {
    id: 'KYB_FIELDS',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, table',
    summary:
      'business needs estimatedAnnualRevenueUSD, expectedMonthlyPaymentsUSD, operatesInProhibitedCountries, highRiskActivities, conductsMoneyServices, actingAsIntermediary, sourceOfFundsDescription',
  },
  {
    id: 'BUSINESS_DESCRIPTION_MIN_200',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, description; Limits',
    summary: 'business description at least 200 characters',
  },
  {
    id: 'ACCOUNT_PURPOSE_REQUIRED',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, accountPurpose',
    summary: 'accountPurpose required for all customers',
  },
  {
    id: 'ASSOCIATED_PERSON_TITLE',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, associated persons',
    summary: 'each associated person needs a title',
  },
  {
    id: 'COUNTRY_RISK_LISTS',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, country risk lists',
    summary: 'CF, GN, ML prohibited → high risk; 48 countries added to high risk; 7 removed',
  },
  {
    id: 'EDD_QUESTIONNAIRE',
    effective: '2026-07-31',
    appliesTo: 'customer',
    spec: 'Customer, country risk lists',
    summary: 'customers in high-risk countries need an enhanced due diligence questionnaire',
  },
  {
    id: 'RAILS_ENUM_ENFORCED',
    effective: '2026-07-31',
    appliesTo: 'payment',
    spec: 'Rail values; POST /payments body; Errors 2',
    summary: 'a rail outside the enumerated list (RAILS) gives HTTP 400 (WIRE, CRYPTO, FPS included)',
  },
  {
    id: 'PAYMENT_REASONS_ENUM',
    effective: '2026-07-31',
    appliesTo: 'payment',
    spec: 'Payment reason values',
    summary: 'paymentReason must be one of the 17 accepted values',
  },
  {
    id: 'EUR_GBP_POSTAL_CODE',
    effective: '2026-07-31',
    appliesTo: 'account',
    spec: 'Account rule 3',
    summary: 'EUR and GBP external accounts need accountHolder.address.postalCode',
  },
  {
    id: 'JPY_BRANCH_CODE',
    effective: '2026-07-31',
    appliesTo: 'account',
    spec: 'Account rule 3',
    summary: 'JPY accounts need bank.bankCode and bank.branchCode',
  },
  {
    id: 'CAD_BANK_CODE_AND_TRANSIT',
    effective: '2026-07-31',
    appliesTo: 'account',
    spec: 'Account rule 3',
    summary: 'CAD accounts need bank.bankCode and bank.transitNumber',
  },
  {
    id: 'HK_SWIFT_CODE',
    effective: '2026-07-31',
    appliesTo: 'account',
    spec: 'Account rule 3',
    summary: 'Hong Kong accounts give the bank SWIFT code (bank.bicSwift) instead of a bank name choice',
  },
  {
    id: 'SWIFT_INDIVIDUAL_ROUTING_NUMBER',
    effective: '2026-07-31',
    appliesTo: 'account',
    spec: 'Account rule 3',
    summary:
      'a SWIFT account of an individual needs the US correspondent bank ABA routing number in bank.routingNumber',
  },
  {
    id: 'REQUIREMENTS_RESPONSE_UNIFORM',
    effective: '2026-07-31',
    appliesTo: 'service',
    spec: 'Account requirement item',
    summary:
      'requirements no longer include holder first/last/business name, account type and bank country code',
  },
  // Postponed
  {
    id: 'WALLET_CURRENCY_CODE',
    effective: null,
    appliesTo: 'account',
    spec: 'Account, currencyCode; Errors 4',
    summary: 'external digital asset wallets need currencyCode (enforcement date postponed)',
  },
  {
    id: 'LIQUIDATION_INFORMATION_REMOVED',
    effective: null,
    appliesTo: 'account',
    spec: 'Account, liquidationInformation',
    summary: 'liquidationInformation removed: use liquidationAccountId (removal date postponed)',
  },
  // Immediately
  // The selfie sentence has no date of its own (the title rule in the same cell has): undated = always in
  // force (docs/spec-gaps.md, Contract). Which countries are high risk still depends on the date.
  // One reading for a date in a table cell: it binds only its own clause (docs/spec-gaps.md, Contract). The
  // revenue cell dates "required" (KYB_FIELDS); its replacement of the faulty values has no date of its own.
  {
    id: 'ANNUAL_REVENUE_VALUES',
    effective: ALWAYS,
    appliesTo: 'customer',
    spec: 'Customer, estimatedAnnualRevenueUSD',
    summary:
      'faulty values FIFTY_MILLION_TO_TWENTY_FIVE_MILLION and OVER_TWENTY_FIVE_MILLION refused (undated clause)',
  },
  {
    id: 'HIGH_RISK_PERSON_SELFIE',
    effective: ALWAYS,
    appliesTo: 'customer',
    spec: 'Customer, associated persons',
    summary: 'associated persons from high-risk countries (by the risk lists in force) need a selfie',
  },
  {
    id: 'LB_PS_PROHIBITED',
    effective: ALWAYS,
    appliesTo: 'customer',
    spec: 'Customer, country risk lists',
    summary: 'Lebanon (LB) and West Bank (PS) prohibited, immediately',
  },
] as const satisfies readonly DatedRule[];

/** The id of a DATED_RULES row (a typo does not compile). */
export type RuleId = (typeof DATED_RULES)[number]['id'];

const BY_ID: ReadonlyMap<string, DatedRule> = new Map(DATED_RULES.map((r) => [r.id, r]));

export function getRule(id: RuleId): DatedRule {
  const rule = BY_ID.get(id);
  if (!rule) throw new RangeError(`unknown rule id ${id}`);
  return rule;
}

/** Start of the rule (UTC midnight of `effective`), or null when not dated. */
export function ruleStart(id: RuleId): Date | null {
  const { effective } = getRule(id);
  return effective === null ? null : new Date(`${effective}T00:00:00.000Z`);
}

/** True when asOf is on or after the rule's effective date (UTC). A rule without a date is never in force. */
export function isInForce(id: RuleId, asOf: Date): boolean {
  const start = ruleStart(id);
  return start !== null && asOf.getTime() >= start.getTime();
}
