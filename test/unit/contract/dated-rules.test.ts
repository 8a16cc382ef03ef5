import {
  DATED_RULES,
  type RuleId,
  type Violation,
  isInForce,
  ruleStart,
  validateAccount,
  validateCustomer,
  validatePaymentRequest,
} from '../../../src/contract';
import { bankAccountBody, businessBody, day, individualBody, justBefore, paymentBody } from './fixtures';

type Check = () => { validate: (asOf: Date) => Violation[]; path: string };

const customer = (patch: (b: Record<string, any>) => void, base = individualBody) => {
  const body = base() as Record<string, any>;
  patch(body);
  return (asOf: Date) => validateCustomer(body, asOf);
};
const account = (patch: (b: Record<string, any>) => void) => {
  const body = bankAccountBody() as Record<string, any>;
  patch(body);
  return (asOf: Date) => validateAccount(body, asOf);
};
const payment = (patch: (b: Record<string, any>) => void) => {
  const body = paymentBody() as Record<string, any>;
  patch(body);
  return (asOf: Date) => validatePaymentRequest(body, asOf);
};

/** For every rule a validator enforces: a body that breaks it, and the path the violation names. */
const VALIDATOR_CASES: Partial<Record<RuleId, Check>> = {
  CRYPTO_RAIL_REMOVED: () => ({
    validate: payment((b) => Object.assign(b.source, { rail: 'CRYPTO', chain: 'POLYGON' })),
    path: 'source.rail',
  }),
  CHAIN_FIELD_REMOVED: () => ({
    validate: payment((b) => (b.destination.chain = 'BASE')),
    path: 'destination.chain',
  }),
  MEMO_REMOVED: () => ({ validate: payment((b) => (b.memo = 'old')), path: 'memo' }),
  STATE_OR_PROVINCE_REMOVED: () => ({
    validate: customer((b) => (b.address.stateOrProvince = 'SP')),
    path: 'address.stateOrProvince',
  }),
  PAYMENT_ACCOUNT_HOLDER_REMOVED: () => ({
    validate: account((b) => (b.paymentAccountHolder = { name: 'x' })),
    path: 'paymentAccountHolder',
  }),
  AGE_18_TO_60: () => ({ validate: customer((b) => (b.birthDate = '1950-01-01')), path: 'birthDate' }),
  REASON_OTHER_REFUSED: () => ({
    validate: payment((b) => (b.paymentReason = 'OTHER')),
    path: 'paymentReason',
  }),
  KYB_DOCUMENTS: () => ({ validate: customer((b) => (b.documents = []), businessBody), path: 'documents' }),
  KYB_FIELDS: () => ({
    validate: customer((b) => delete b.sourceOfFundsDescription, businessBody),
    path: 'sourceOfFundsDescription',
  }),
  BUSINESS_DESCRIPTION_MIN_200: () => ({
    validate: customer((b) => (b.description = 'We sell things.'), businessBody),
    path: 'description',
  }),
  ACCOUNT_PURPOSE_REQUIRED: () => ({
    validate: customer((b) => delete b.accountPurpose),
    path: 'accountPurpose',
  }),
  ASSOCIATED_PERSON_TITLE: () => ({
    validate: customer((b) => delete b.associatedPersons[0].title, businessBody),
    path: 'associatedPersons[0].title',
  }),
  ANNUAL_REVENUE_VALUES: () => ({
    validate: customer((b) => (b.estimatedAnnualRevenueUSD = 'OVER_TWENTY_FIVE_MILLION'), businessBody),
    path: 'estimatedAnnualRevenueUSD',
  }),
  EDD_QUESTIONNAIRE: () => ({
    validate: customer((b) => (b.address.countryCode = 'PA')),
    path: 'eddQuestionnaire',
  }),
  RAILS_ENUM_ENFORCED: () => ({
    validate: payment((b) => (b.destination.rail = 'FPS')),
    path: 'destination.rail',
  }),
  PAYMENT_REASONS_ENUM: () => ({
    validate: payment((b) => (b.paymentReason = 'REMITTANCES')),
    path: 'paymentReason',
  }),
  EUR_GBP_POSTAL_CODE: () => ({
    validate: account((b) => {
      b.currencyCode = 'EUR';
      b.rails = ['LOCAL'];
      delete b.accountHolder.address.postalCode;
    }),
    path: 'accountHolder.address.postalCode',
  }),
  JPY_BRANCH_CODE: () => ({
    validate: account((b) => {
      b.currencyCode = 'JPY';
      b.rails = ['LOCAL'];
      b.bank = { accountNumber: '1', bankCode: '0001' };
    }),
    path: 'bank.branchCode',
  }),
  CAD_BANK_CODE_AND_TRANSIT: () => ({
    validate: account((b) => {
      b.currencyCode = 'CAD';
      b.rails = ['LOCAL'];
      b.bank = { accountNumber: '1', transitNumber: '12345' };
    }),
    path: 'bank.bankCode',
  }),
  HK_SWIFT_CODE: () => ({
    validate: account((b) => {
      b.currencyCode = 'HKD';
      b.rails = ['LOCAL'];
      b.bank = { name: 'HSBC', countryCode: 'HK', accountNumber: '1' };
    }),
    path: 'bank.bicSwift',
  }),
  SWIFT_INDIVIDUAL_ROUTING_NUMBER: () => ({
    validate: account((b) => {
      b.rails = ['SWIFT'];
      b.accountHolder.type = 'INDIVIDUAL';
      delete b.bank.routingNumber;
    }),
    path: 'bank.routingNumber',
  }),
};

/** Rules no validator enforces: where their behaviour is tested instead. */
const ENFORCED_ELSEWHERE: Partial<Record<RuleId, string>> = {
  NEW_ENDPOINTS_ADDED: 'sandbox routes',
  DEPOSITS_REPLACED_BY_PAYIN: 'sandbox (PAYIN payments)',
  SEP_12_FIELDS_ADDED: 'schemas (fields exist at every date)',
  LEGACY_ENDPOINTS_ENDED: 'sandbox routes',
  DEPOSITS_ENDED: 'sandbox routes',
  ENTITY_AND_RECIPIENT_LOOKUPS_REMOVED: 'sandbox routes',
  CONFIGURATION_CORRIDORS_POST_REMOVED: 'sandbox routes',
  FAILURE_CODES_IN_USE: 'sandbox state machine',
  RATE_LIMIT_ENFORCED: 'sandbox rate limiter',
  PAYLOAD_STEP_TWO:
    'sandbox payload shape (toTransitionalPayment before the date); documentReference in requests is accepted at every date (validators.test.ts)',
  AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS:
    'sandbox state machine with addBusinessDays (business-days.test.ts)',
  IP_WHITELIST_ENFORCED: 'sandbox auth',
  COUNTRY_RISK_LISTS: 'countries.test.ts and the country cases below',
  REQUIREMENTS_RESPONSE_UNIFORM: 'sandbox requirements route',
  WALLET_CURRENCY_CODE: 'never in force (null date), tested below',
  LIQUIDATION_INFORMATION_REMOVED: 'never in force (null date), tested below',
  LB_PS_PROHIBITED: 'always in force, tested below',
  HIGH_RISK_PERSON_SELFIE:
    'always in force (undated sentence), tested in spec-fidelity.test.ts with the dated risk lists',
};

describe('DATED_RULES table', () => {
  test('ids are unique, dates are real YYYY-MM-DD or null, targets known', () => {
    const ids = DATED_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of DATED_RULES) {
      if (r.effective !== null) {
        expect(r.effective).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(new Date(`${r.effective}T00:00:00Z`).toISOString().slice(0, 10)).toBe(r.effective);
      }
      expect(['customer', 'account', 'payment', 'service']).toContain(r.appliesTo);
      expect(r.summary.length).toBeGreaterThan(10);
    }
  });

  test('every dated change named in the spec has a row on its date', () => {
    const expected: Record<string, string | null> = {
      CRYPTO_RAIL_REMOVED: '2026-03-04',
      FAILURE_CODES_IN_USE: '2026-03-15',
      RATE_LIMIT_ENFORCED: '2026-03-15',
      AGE_18_TO_60: '2026-03-30',
      REASON_OTHER_REFUSED: '2026-03-30',
      PAYLOAD_STEP_TWO: '2026-03-30',
      AWAITING_FUNDS_EXPIRES_AFTER_3_BUSINESS_DAYS: '2026-03-30',
      IP_WHITELIST_ENFORCED: '2026-03-30',
      KYB_FIELDS: '2026-07-31',
      KYB_DOCUMENTS: '2026-07-31',
      BUSINESS_DESCRIPTION_MIN_200: '2026-07-31',
      ACCOUNT_PURPOSE_REQUIRED: '2026-07-31',
      ASSOCIATED_PERSON_TITLE: '2026-07-31',
      RAILS_ENUM_ENFORCED: '2026-07-31',
      // ANNUAL_REVENUE_VALUES: undated clause of a dated cell, in force at every date (docs/spec-gaps.md, Contract)
      PAYMENT_REASONS_ENUM: '2026-07-31',
      ANNUAL_REVENUE_VALUES: '1970-01-01',
      EUR_GBP_POSTAL_CODE: '2026-07-31',
      JPY_BRANCH_CODE: '2026-07-31',
      CAD_BANK_CODE_AND_TRANSIT: '2026-07-31',
      HK_SWIFT_CODE: '2026-07-31',
      SWIFT_INDIVIDUAL_ROUTING_NUMBER: '2026-07-31',
      COUNTRY_RISK_LISTS: '2026-07-31',
      EDD_QUESTIONNAIRE: '2026-07-31',
      REQUIREMENTS_RESPONSE_UNIFORM: '2026-07-31',
      LEGACY_ENDPOINTS_ENDED: '2025-09-30',
      WALLET_CURRENCY_CODE: null,
    };
    for (const [id, effective] of Object.entries(expected)) {
      expect({ id, effective: DATED_RULES.find((r) => r.id === id)?.effective }).toEqual({ id, effective });
    }
  });

  test('every rule is covered by a validator case or named as enforced elsewhere', () => {
    for (const r of DATED_RULES) {
      expect({ id: r.id, covered: r.id in VALIDATOR_CASES || r.id in ENFORCED_ELSEWHERE }).toEqual({
        id: r.id,
        covered: true,
      });
    }
  });

  const dated = DATED_RULES.filter((r) => r.effective !== null);
  test.each(dated.map((r) => [r.id, r.effective as string]))(
    '%s: not in force the millisecond before %s, in force from its UTC midnight',
    (id, effective) => {
      expect(isInForce(id as RuleId, justBefore(effective))).toBe(false);
      expect(isInForce(id as RuleId, day(effective))).toBe(true);
      expect(ruleStart(id as RuleId)?.toISOString()).toBe(`${effective}T00:00:00.000Z`);
    },
  );

  test('rules without a date are never in force', () => {
    for (const id of ['WALLET_CURRENCY_CODE', 'LIQUIDATION_INFORMATION_REMOVED'] as const) {
      expect(isInForce(id, new Date('2100-01-01T00:00:00Z'))).toBe(false);
      expect(ruleStart(id)).toBeNull();
    }
  });
});

describe.each(Object.entries(VALIDATOR_CASES))('rule %s on each side of its date', (id, check) => {
  const effective = DATED_RULES.find((r) => r.id === id)!.effective!;
  const { validate, path } = check!();

  test('the day before: no violation of this rule', () => {
    expect(validate(justBefore(effective)).filter((v) => v.rule === id)).toEqual([]);
  });

  test('from the date: a violation of this rule naming the path, with a message that says what to do', () => {
    const found = validate(day(effective)).filter((v) => v.rule === id);
    expect(found.map((v) => v.path)).toContain(path);
    for (const v of found) expect(v.message.length).toBeGreaterThan(15);
  });
});

describe('undated and "immediate" rules', () => {
  test('wallet without currencyCode is accepted at every date (enforcement postponed)', () => {
    const body = {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      walletAddress: '0xabc',
      accountHolder: { address: { countryCode: 'US' } },
    };
    expect(validateAccount(body, new Date('2030-01-01T00:00:00Z'))).toEqual([]);
  });

  test('liquidationInformation is accepted at every date (removal postponed)', () => {
    const body = {
      ...bankAccountBody(),
      type: 'VIRTUAL_BANK_ACCOUNT',
      liquidationInformation: { chain: 'POLYGON' },
    };
    expect(validateAccount(body, new Date('2030-01-01T00:00:00Z'))).toEqual([]);
  });

  test.each([['LB'], ['PS']])('a customer in %s is refused at every date (LB_PS_PROHIBITED)', (code) => {
    for (const asOf of [new Date('2025-01-01T00:00:00Z'), day('2026-07-31')]) {
      const body = individualBody() as Record<string, any>;
      body.address.countryCode = code;
      expect(validateCustomer(body, asOf).map((v) => [v.path, v.rule])).toContainEqual([
        'address.countryCode',
        'LB_PS_PROHIBITED',
      ]);
    }
  });

  test('a business in Mali: prohibited before 2026-07-31, high risk (EDD questionnaire) from it', () => {
    const body = businessBody() as Record<string, any>;
    body.address.countryCode = 'ML';
    const before = validateCustomer(body, justBefore('2026-07-31')).map((v) => v.rule);
    expect(before).toContain('PROHIBITED_COUNTRY');
    expect(before).not.toContain('EDD_QUESTIONNAIRE');
    const after = validateCustomer(body, day('2026-07-31')).map((v) => v.rule);
    expect(after).not.toContain('PROHIBITED_COUNTRY');
    expect(after).toContain('EDD_QUESTIONNAIRE');
    body.eddQuestionnaire = { sourceOfWealth: 'trade' };
    expect(validateCustomer(body, day('2026-07-31'))).toEqual([]);
  });
});
