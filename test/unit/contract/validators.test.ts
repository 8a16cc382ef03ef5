import fc from 'fast-check';
import {
  ageAt,
  isTeamAliasEmail,
  validateAccount,
  validateCustomer,
  validatePaymentRequest,
} from '../../../src/contract';
import { bankAccountBody, businessBody, day, individualBody, paymentBody } from './fixtures';

const AFTER_ALL = day('2026-08-01');
const pairs = (vs: { path: string; rule: string }[]) => vs.map((v) => `${v.path} ${v.rule}`).sort();

describe('validateCustomer', () => {
  test('valid individual and business bodies give [] after every change', () => {
    expect(validateCustomer(individualBody(), AFTER_ALL)).toEqual([]);
    expect(validateCustomer(businessBody(), AFTER_ALL, { teamEmail: 'ops@acme.com' })).toEqual([]);
  });

  test('returns every violation at once, schema and dated rules together', () => {
    const body = businessBody() as Record<string, any>;
    delete body.phone; // schema
    body.description = 'too short'; // BUSINESS_DESCRIPTION_MIN_200
    delete body.accountPurpose; // ACCOUNT_PURPOSE_REQUIRED
    delete body.conductsMoneyServices; // KYB_FIELDS
    body.documents = [body.documents[0]]; // KYB_DOCUMENTS ×2
    body.associatedPersons = [{ firstName: 'A', lastName: 'B', countryCode: 'LB' }]; // title + LB
    body.email = 'ops+acme-client@acme.com'; // team alias
    const vs = validateCustomer(body, AFTER_ALL, { teamEmail: 'ops@acme.com' });
    expect(pairs(vs)).toEqual(
      [
        'phone SCHEMA',
        'description BUSINESS_DESCRIPTION_MIN_200',
        'accountPurpose ACCOUNT_PURPOSE_REQUIRED',
        'conductsMoneyServices KYB_FIELDS',
        'documents KYB_DOCUMENTS',
        'documents KYB_DOCUMENTS',
        'associatedPersons[0].title ASSOCIATED_PERSON_TITLE',
        'associatedPersons[0].countryCode LB_PS_PROHIBITED',
        'email TEAM_ALIAS_EMAIL',
      ].sort(),
    );
    expect(vs.find((v) => v.path === 'phone')!.message).toBe('phone is required: add it');
  });

  test('reliance agreement (option or body field) requires a proof of verification', () => {
    const body = businessBody();
    expect(pairs(validateCustomer(body, AFTER_ALL, { relianceAgreement: true }))).toEqual([
      'documents KYB_DOCUMENTS',
    ]);
    expect(pairs(validateCustomer({ ...body, relianceAgreement: true }, AFTER_ALL))).toEqual([
      'documents KYB_DOCUMENTS',
    ]);
    const withProof = {
      ...body,
      relianceAgreement: true,
      documents: [...(body.documents as object[]), { type: 'PROOF_OF_VERIFICATION', fileUrl: 'f' }],
    };
    expect(validateCustomer(withProof, AFTER_ALL)).toEqual([]);
  });

  test('a bank statement is not required', () => {
    const body = businessBody();
    expect((body.documents as { type: string }[]).some((d) => d.type === 'BANK_STATEMENT')).toBe(false);
    expect(validateCustomer(body, AFTER_ALL)).toEqual([]);
  });

  test('age: 18th birthday and the last day aged 60 are accepted; a day earlier / 61 are refused', () => {
    const asOf = day('2026-04-10');
    const check = (birthDate: string) =>
      validateCustomer({ ...individualBody(), birthDate }, asOf).map((v) => v.rule);
    expect(check('2008-04-10')).toEqual([]); // turns 18 today
    expect(check('2008-04-11')).toEqual(['AGE_18_TO_60']); // 17
    expect(check('1965-04-11')).toEqual([]); // 60, turns 61 tomorrow
    expect(check('1965-04-10')).toEqual(['AGE_18_TO_60']); // 61 today
    expect(validateCustomer({ ...individualBody(), birthDate: undefined }, asOf).map((v) => v.path)).toEqual([
      'birthDate',
    ]);
  });

  test('ageAt counts completed years in UTC; Feb 29 birthdays turn a year older on Mar 1', () => {
    expect(ageAt('2000-02-29', day('2018-02-28'))).toBe(17);
    expect(ageAt('2000-02-29', day('2018-03-01'))).toBe(18);
    expect(ageAt('1990-12-31', new Date('2026-12-30T23:59:59Z'))).toBe(35);
  });

  test('not an object', () => {
    expect(validateCustomer('x', AFTER_ALL)).toEqual([
      { path: '', rule: 'NOT_AN_OBJECT', message: 'send the customer as a JSON object' },
    ]);
  });
});

describe('team-alias emails', () => {
  test.each([
    ['ops+alice@acme.com', true],
    ['OPS+Alice@ACME.com', true],
    ['ops@acme.com', true],
    // Colleagues and other mailboxes are genuine addresses (only addresses built from the team's own).
    ['bob@acme.com', false],
    ['bob@eu.acme.com', false],
    ['ops@eu.acme.com', false],
    ['ops.x@acme.com', false],
    ['alice@example.com', false],
    ['ops@acme.com.evil.io', false],
    ['ops@notacme.com', false],
  ])('team ops@acme.com: %s → %s', (email, refused) => {
    expect(isTeamAliasEmail(email, ['ops@acme.com'])).toBe(refused);
  });

  test.each([
    ['team.ops+c1@gmail.com', true],
    ['teamops+c2@gmail.com', true],
    ['team.ops@gmail.com', true],
    ['alice@gmail.com', false],
    ['alice+x@gmail.com', false],
  ])('team at a public provider (team.ops@gmail.com): %s → %s', (email, refused) => {
    expect(isTeamAliasEmail(email, ['team.ops@gmail.com'])).toBe(refused);
  });

  test('without a team email nothing is refused', () => {
    expect(validateCustomer({ ...individualBody(), email: 'ops+1@acme.com' }, AFTER_ALL)).toEqual([]);
  });
});

describe('validateAccount', () => {
  test('a valid US bank account gives []', () => {
    expect(validateAccount(bankAccountBody(), AFTER_ALL)).toEqual([]);
  });

  test('every violation at once', () => {
    const body = {
      type: 'EXTERNAL_BANK_ACCOUNT',
      currencyCode: 'JPY',
      rails: ['LOCAL', 'WIRE', 'CRYPTO'],
      bank: { accountNumber: '1' },
      paymentAccountHolder: {},
      liquidationAccountId: 'acc_liq',
      accountHolder: { address: { countryCode: 'JP', stateOrProvince: 'Tokyo' } },
    };
    expect(pairs(validateAccount(body, AFTER_ALL))).toEqual(
      [
        'rails[1] RAILS_ENUM_ENFORCED',
        'rails[2] CRYPTO_RAIL_REMOVED',
        'bank.bankCode JPY_BRANCH_CODE',
        'bank.branchCode JPY_BRANCH_CODE',
        'paymentAccountHolder PAYMENT_ACCOUNT_HOLDER_REMOVED',
        'liquidationAccountId LIQUIDATION_ACCOUNT_VIRTUAL_ONLY',
        'accountHolder.address.stateOrProvince STATE_OR_PROVINCE_REMOVED',
      ].sort(),
    );
  });

  test('"DOMESTIC WIRE" (spec spelling) is read as DOMESTIC_WIRE; an unknown type fails the schema', () => {
    expect(validateAccount({ ...bankAccountBody(), rails: ['DOMESTIC WIRE'] }, AFTER_ALL)).toEqual([]);
    expect(pairs(validateAccount({ ...bankAccountBody(), type: 'SAVINGS' }, AFTER_ALL))).toEqual([
      'type SCHEMA',
    ]);
  });

  test('a virtual bank account may have a liquidationAccountId', () => {
    expect(
      validateAccount(
        { ...bankAccountBody(), type: 'VIRTUAL_BANK_ACCOUNT', liquidationAccountId: 'acc_l' },
        AFTER_ALL,
      ),
    ).toEqual([]);
  });
});

describe('validatePaymentRequest', () => {
  test('a valid body gives [] at every date', () => {
    for (const d of ['2025-10-01', '2026-03-04', '2026-03-30', '2026-07-31'])
      expect(validatePaymentRequest(paymentBody(), day(d))).toEqual([]);
  });

  test('every violation at once', () => {
    const body = {
      source: { currencyCode: 'USDC', rail: 'CRYPTO', chain: 'POLYGON' },
      destination: { currencyCode: 'GBP', rail: 'FPS' },
      memo: 'x',
      documentReference: 'y',
      paymentReason: 'OTHER',
    };
    expect(pairs(validatePaymentRequest(body, AFTER_ALL))).toEqual(
      [
        'source.amount SCHEMA',
        'destination.accountId SCHEMA',
        'source.rail CRYPTO_RAIL_REMOVED',
        'source.chain CHAIN_FIELD_REMOVED',
        'destination.rail RAILS_ENUM_ENFORCED',
        'memo MEMO_REMOVED',
        'paymentReason REASON_OTHER_REFUSED',
      ].sort(),
    );
  });

  test('documentReference (a legacy request field with no date) is accepted and ignored at every date', () => {
    for (const d of ['2025-10-01', '2026-03-29', '2026-03-30', '2026-07-31']) {
      expect(validatePaymentRequest({ ...paymentBody(), documentReference: 'doc-1' }, day(d))).toEqual([]);
    }
  });

  test('before 2026-03-04 a CRYPTO rail is accepted with a chain and refused without', () => {
    const before = day('2026-03-03');
    const withChain = {
      ...paymentBody(),
      source: { currencyCode: 'USDC', amount: 5, rail: 'CRYPTO', chain: 'POLYGON' },
    };
    expect(validatePaymentRequest(withChain, before)).toEqual([]);
    const noChain = { ...paymentBody(), source: { currencyCode: 'USDC', amount: 5, rail: 'CRYPTO' } };
    expect(pairs(validatePaymentRequest(noChain, before))).toEqual(['source.chain CRYPTO_NEEDS_CHAIN']);
    // destination.chain is not a request field of the spec: never required (the account's chain is used)
    const noDestinationChain = {
      ...paymentBody(),
      destination: { currencyCode: 'USDC', rail: 'CRYPTO', accountId: 'acc_w' },
    };
    expect(validatePaymentRequest(noDestinationChain, before)).toEqual([]);
  });

  test('WIRE is accepted before 2026-07-31 and refused from it with a hint to use SWIFT', () => {
    const body = { ...paymentBody(), destination: { currencyCode: 'EUR', rail: 'WIRE', accountId: 'a' } };
    expect(validatePaymentRequest(body, day('2026-07-30'))).toEqual([]);
    const [v] = validatePaymentRequest(body, day('2026-07-31'));
    expect(v.rule).toBe('RAILS_ENUM_ENFORCED');
    expect(v.message).toContain('use SWIFT');
  });

  test('reasons: any string before 2026-03-30, any but OTHER until 2026-07-31, the list from then; AUTO_LIQUIDATION refused from then', () => {
    const r = (reason: string, d: string) =>
      validatePaymentRequest({ ...paymentBody(), paymentReason: reason }, day(d)).map((v) => v.rule);
    expect(r('OTHER', '2026-03-29')).toEqual([]);
    expect(r('OTHER', '2026-03-30')).toEqual(['REASON_OTHER_REFUSED']);
    expect(r('AUTO_LIQUIDATION', '2026-07-30')).toEqual([]);
    expect(r('AUTO_LIQUIDATION', '2026-07-31')).toEqual(['PAYMENT_REASONS_ENUM']);
    expect(r('GIFTS', '2026-07-31')).toEqual([]);
  });
});

describe('validators never throw, whatever they are given', () => {
  const dates = fc.date({
    min: new Date('2025-01-01T00:00:00Z'),
    max: new Date('2027-01-01T00:00:00Z'),
    noInvalidDate: true,
  });
  // Objects that look like the real bodies, with any value in any field.
  const bodyLike = fc.oneof(
    fc.anything(),
    fc.record(
      {
        type: fc.constantFrom('INDIVIDUAL', 'BUSINESS', 'EXTERNAL_BANK_ACCOUNT', 'X'),
        email: fc.anything(),
        address: fc.anything(),
        associatedPersons: fc.anything(),
        documents: fc.anything(),
        birthDate: fc.anything(),
        rails: fc.anything(),
        bank: fc.anything(),
        currencyCode: fc.anything(),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({
      source: fc.anything(),
      destination: fc.anything(),
      paymentReason: fc.anything(),
      memo: fc.anything(),
    }),
  );

  test('returns an array of { path, rule, message } for any input', () => {
    fc.assert(
      fc.property(bodyLike, dates, (body, asOf) => {
        for (const vs of [
          validateCustomer(body, asOf, { teamEmail: 'ops@acme.com' }),
          validateAccount(body, asOf),
          validatePaymentRequest(body, asOf),
        ]) {
          expect(Array.isArray(vs)).toBe(true);
          for (const v of vs) {
            expect(typeof v.path).toBe('string');
            expect(typeof v.rule).toBe('string');
            expect(v.message.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
