import {
  AccountRequirementSchema,
  AccountSchema,
  CorridorSchema,
  CustomerSchema,
  LegacyAccountRequirementsSchema,
  LegacyCorridorSchema,
  LegacyRateSchema,
  RateSchema,
} from '../../src/contract';
import { DEMO_CUSTOMERS } from '../../src/sandbox/demo-data';
import { ADDRESS, client, individual, type Running, sandbox, uid } from './harness';

const running: Running[] = [];
async function start(options: Parameters<typeof sandbox>[0] = {}): Promise<Running> {
  const sb = await sandbox(options);
  running.push(sb);
  return sb;
}
afterAll(async () => {
  await Promise.all(running.map((sb) => sb.close()));
});

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00.000Z`) - 60_000).toISOString();
const business = (overrides: Record<string, unknown> = {}) => ({
  ...structuredClone(DEMO_CUSTOMERS[1]!.body),
  email: `biz.${uid('e')}@example.com`,
  ...overrides,
});
const holder = (countryCode: string, extra: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL',
  firstName: 'Ana',
  lastName: 'Lima',
  address: { line1: '1 St', countryCode, ...extra },
});
// Every item GET /accounts/requirements lists is required (accountType until 2026-07-31, the US holder's state).
const bank = (
  currencyCode: string,
  countryCode: string,
  fields: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  type: 'EXTERNAL_BANK_ACCOUNT',
  accountType: 'CHECKING',
  currencyCode,
  bank: { name: 'Bank', countryCode, ...fields },
  accountHolder: holder(countryCode, {
    postalCode: '12345',
    ...(countryCode === 'US' ? { stateRegionOrProvince: 'NY' } : {}),
  }),
  ...extra,
});

/** [rule id, effective date, endpoint, a body that breaks only that rule] */
const DATED_BODY_RULES: Array<
  [string, string, '/v1/customers' | '/v1/accounts', () => Record<string, unknown>]
> = [
  [
    'STATE_OR_PROVINCE_REMOVED',
    '2026-03-04',
    '/v1/customers',
    () => individual({ address: { ...ADDRESS, stateOrProvince: 'NY' } }),
  ],
  ['AGE_18_TO_60', '2026-03-30', '/v1/customers', () => individual({ birthDate: '1950-01-01' })],
  [
    'ACCOUNT_PURPOSE_REQUIRED',
    '2026-07-31',
    '/v1/customers',
    () => {
      const b = individual();
      delete b.accountPurpose;
      return b;
    },
  ],
  [
    'BUSINESS_DESCRIPTION_MIN_200',
    '2026-07-31',
    '/v1/customers',
    () => business({ description: 'Too short.' }),
  ],
  [
    'KYB_FIELDS',
    '2026-07-31',
    '/v1/customers',
    () => {
      const b = business();
      delete (b as Record<string, unknown>).expectedMonthlyPaymentsUSD;
      return b;
    },
  ],
  ['KYB_DOCUMENTS', '2026-07-31', '/v1/customers', () => business({ documents: [] })],
  [
    'ASSOCIATED_PERSON_TITLE',
    '2026-07-31',
    '/v1/customers',
    () => business({ associatedPersons: [{ firstName: 'John', lastName: 'Smith', countryCode: 'US' }] }),
  ],
  [
    'HIGH_RISK_PERSON_SELFIE',
    '2026-07-31',
    '/v1/customers',
    () =>
      business({
        associatedPersons: [{ firstName: 'Somchai', lastName: 'K', title: 'CFO', countryCode: 'TH' }],
      }),
  ],
  // ANNUAL_REVENUE_VALUES is undated (refused at every date): undated-clauses-and-legacy-fields.test.ts
  [
    'EDD_QUESTIONNAIRE',
    '2026-07-31',
    '/v1/customers',
    () => individual({ address: { ...ADDRESS, stateRegionOrProvince: undefined, countryCode: 'TH' } }),
  ],
  [
    'PAYMENT_ACCOUNT_HOLDER_REMOVED',
    '2026-03-04',
    '/v1/accounts',
    () => ({
      ...bank('USD', 'US', { accountNumber: '123456789', routingNumber: '021000021' }),
      paymentAccountHolder: { name: 'Ana' },
    }),
  ],
  [
    'STATE_OR_PROVINCE_REMOVED',
    '2026-03-04',
    '/v1/accounts',
    () => ({
      ...bank('USD', 'US', { accountNumber: '123456789', routingNumber: '021000021' }),
      accountHolder: holder('US', { stateOrProvince: 'NY' }),
    }),
  ],
  [
    'CRYPTO_RAIL_REMOVED',
    '2026-03-04',
    '/v1/accounts',
    () => ({
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      currencyCode: 'USDC',
      rails: ['CRYPTO'],
      walletAddress: '0x3',
      accountHolder: holder('US'),
    }),
  ],
  [
    'RAILS_ENUM_ENFORCED',
    '2026-07-31',
    '/v1/accounts',
    () => bank('GBP', 'GB', { accountNumber: '31926819', sortCode: '601613' }, { rails: ['FPS'] }),
  ],
  [
    'EUR_GBP_POSTAL_CODE',
    '2026-07-31',
    '/v1/accounts',
    () => ({
      ...bank('EUR', 'DE', { iban: 'DE89370400440532013000', bicSwift: 'DEUTDEFF' }),
      accountHolder: holder('DE'),
    }),
  ],
  [
    'JPY_BRANCH_CODE',
    '2026-07-31',
    '/v1/accounts',
    () => bank('JPY', 'JP', { accountNumber: '1234567', bankCode: '0001001' }),
  ],
  [
    'CAD_BANK_CODE_AND_TRANSIT',
    '2026-07-31',
    '/v1/accounts',
    () => bank('CAD', 'CA', { accountNumber: '1234567', transitNumber: '00012004' }),
  ],
  [
    'HK_SWIFT_CODE',
    '2026-07-31',
    '/v1/accounts',
    () => bank('HKD', 'HK', { accountNumber: '123456789', name: 'HSBC' }),
  ],
  [
    'SWIFT_INDIVIDUAL_ROUTING_NUMBER',
    '2026-07-31',
    '/v1/accounts',
    () => bank('PHP', 'PH', { accountNumber: '001234567890', bicSwift: 'BOPIPHMM' }, { rails: ['SWIFT'] }),
  ],
];

describe('dated rules of customers and accounts, both sides of each date (via the clock)', () => {
  it.each(DATED_BODY_RULES)(
    '%s (%s) on %s: accepted the minute before, refused with that rule from the date',
    async (rule, date, path, body) => {
      const sb = await start({ asOf: dayBefore(date) });
      const c = client(sb);
      const before = await c.post(path, body());
      expect([before.status, before.body.error?.fields]).toEqual([201, undefined]);
      await c.setNow(`${date}T00:00:00.000Z`);
      const after = await c.post(path, body());
      expect(after.status).toBe(400);
      expect(after.body.error.code).toBe('VALIDATION_ERROR');
      expect(after.body.error.fields.map((f: { rule: string }) => f.rule)).toContain(rule);
    },
  );

  it('COUNTRY_RISK_LISTS (2026-07-31): Mali is prohibited before the date and high risk (with questionnaire) from it', async () => {
    const sb = await start({ asOf: dayBefore('2026-07-31') });
    const c = client(sb);
    const mali = () =>
      individual({
        address: { line1: '1 St', countryCode: 'ML' },
        eddQuestionnaire: { sourceOfWealth: 'salary' },
      });
    const before = await c.post('/v1/customers', mali());
    expect(before.status).toBe(400);
    expect(before.body.error.fields[0].path).toBe('address.countryCode');
    await c.setNow('2026-07-31T00:00:00.000Z');
    expect((await c.post('/v1/customers', mali())).status).toBe(201);
  });

  it('undated rules: Lebanon prohibited and team-alias emails refused at any date; wallet currency code not enforced (postponed)', async () => {
    const sb = await start({ asOf: '2025-01-01T00:00:00.000Z' });
    const c = client(sb);
    const lb = await c.post('/v1/customers', individual({ address: { countryCode: 'LB' } }));
    expect(lb.body.error.fields[0].rule).toBe('LB_PS_PROHIBITED');
    const alias = await c.post('/v1/customers', individual({ email: 'team+alice@xborder.test' }));
    expect(alias.body.error.fields[0].rule).toBe('TEAM_ALIAS_EMAIL');
    await c.setNow('2030-01-01T00:00:00.000Z');
    expect(
      (
        await c.post('/v1/accounts', {
          type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
          rails: ['POLYGON'],
          walletAddress: '0x4',
          accountHolder: holder('US'),
        })
      ).status,
    ).toBe(201);
  });
});

describe('customers (review status: docs/spec-gaps.md)', () => {
  it('PENDING_REVIEW → APPROVED after the review delay; lastName Review stays; Reject is rejected; events customer.created/updated', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const c = client(sb);
    const ok = await c.post('/v1/customers', individual());
    const stays = await c.post('/v1/customers', individual({ lastName: 'Review' }));
    const rejected = await c.post('/v1/customers', individual({ lastName: 'Reject' }));
    expect(ok.status).toBe(201);
    expect(CustomerSchema.parse(ok.body).status).toBe('PENDING_REVIEW');
    await c.advance('PT2S');
    expect((await c.get(`/v1/customers/${ok.body.id}`)).body.status).toBe('APPROVED');
    expect((await c.get(`/v1/customers/${stays.body.id}`)).body.status).toBe('PENDING_REVIEW');
    expect((await c.get(`/v1/customers/${rejected.body.id}`)).body.status).toBe('REJECTED');
    const reviewed = await c.post(`/sandbox/customers/${stays.body.id}/review`, { outcome: 'REJECTED' });
    expect(reviewed.body.status).toBe('REJECTED');
    expect((await c.post(`/sandbox/customers/${stays.body.id}/review`, { outcome: 'APPROVED' })).status).toBe(
      409,
    );
    expect(
      sb.state.recentEvents
        .filter((e) => e.data.id === ok.body.id)
        .map((e) => `${e.type}:${String(e.data.status)}`),
    ).toEqual(['customer.created:PENDING_REVIEW', 'customer.updated:APPROVED']);
    expect((await c.get('/v1/customers?limit=2')).body.data).toHaveLength(2);
    expect((await c.get('/v1/customers/cus_nope')).status).toBe(404);
  });
});

describe('accounts', () => {
  it('creates, lists with paging and filters, gets one with accountHolder; virtual accounts get bank details and a balance', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const c = client(sb);
    const customer = (await c.post('/v1/customers', individual())).body.id;
    const us = await c.post('/v1/accounts', {
      ...bank('USD', 'US', { accountNumber: '123456789', routingNumber: '021000021' }),
      customerId: customer,
    });
    expect(us.status).toBe(201);
    expect(AccountSchema.parse(us.body).rails).toEqual(['ACH', 'ACH_SAME_DAY', 'DOMESTIC_WIRE']); // spec: Account, rails default
    const br = await c.post(
      '/v1/accounts',
      bank('BRL', 'BR', {
        pixCode: 'x@y.br',
        accountNumber: '123456789',
        bankCode: '341',
        branchCode: '0001',
      }),
    );
    expect(br.body.rails).toEqual(['TED']);
    const virtual = await c.post('/v1/accounts', {
      type: 'VIRTUAL_BANK_ACCOUNT',
      customerId: customer,
      currencyCode: 'USD',
    });
    expect(virtual.body.bank.accountNumber).toMatch(/^8\d{9}$/);
    expect(sb.state.data.balances[virtual.body.id]).toBe(0);
    const one = await c.get(`/v1/accounts/${us.body.id}`);
    expect(one.body.accountHolder.firstName).toBe('Ana');
    expect(one.body).not.toHaveProperty('paymentAccountHolder');
    expect((await c.get('/v1/accounts')).body.data).toHaveLength(3);
    expect((await c.get(`/v1/accounts?customerId=${customer}`)).body.data).toHaveLength(2);
    expect((await c.get('/v1/accounts?type=VIRTUAL_BANK_ACCOUNT')).body.data).toHaveLength(1);
    expect(
      sb.state.recentEvents.find((e) => e.type === 'account.created' && e.data.id === us.body.id)!.data
        .accountHolder,
    ).toBeDefined();
  });

  it('refuses unknown references, a virtual account without customer, and liquidationAccountId outside virtual bank accounts', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const c = client(sb);
    const res = await c.post('/v1/accounts', {
      type: 'VIRTUAL_BANK_ACCOUNT',
      currencyCode: 'USD',
      liquidationAccountId: 'acc_missing',
    });
    expect(res.body.error.fields.map((f: { rule: string }) => f.rule)).toEqual(
      expect.arrayContaining(['CUSTOMER_REQUIRED', 'ACCOUNT_NOT_FOUND']),
    );
    const ext = await c.post('/v1/accounts', {
      ...bank('USD', 'US', { accountNumber: '1' }),
      liquidationAccountId: 'x',
    });
    expect(ext.body.error.fields[0].rule).toBe('LIQUIDATION_ACCOUNT_VIRTUAL_ONLY');
  });

  it('before 2026-03-04 GET responses also carry paymentAccountHolder (spec: Account rule 5)', async () => {
    const sb = await start({ asOf: '2026-03-03T00:00:00.000Z' });
    const c = client(sb);
    const id = (
      await c.post(
        '/v1/accounts',
        bank('USD', 'US', { accountNumber: '123456789', routingNumber: '021000021' }),
      )
    ).body.id;
    expect((await c.get(`/v1/accounts/${id}`)).body.paymentAccountHolder.firstName).toBe('Ana');
  });
});

describe('reference data: corridors, rates, requirements', () => {
  it('GET and POST /v1/payments/corridors return { data: Corridor[] }, filterable', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const c = client(sb);
    const all = await c.get('/v1/payments/corridors');
    expect(all.body.data.length).toBeGreaterThan(100);
    for (const corridor of all.body.data.slice(0, 20)) CorridorSchema.parse(corridor);
    const brl = await c.post('/v1/payments/corridors', {
      source: { currencyCode: 'USDC' },
      destination: { currencyCode: 'BRL', rail: 'PIX' },
    });
    expect(brl.status).toBe(200);
    expect(brl.body.data.length).toBe(5); // one per chain
    expect(
      brl.body.data.every((x: { destination: { rails: string[] } }) => x.destination.rails[0] === 'PIX'),
    ).toBe(true);
    expect(
      (await c.get('/v1/payments/corridors?destinationCountryCode=IN')).body.data.every(
        (x: { destination: { currencyCodes: string[] } }) => x.destination.currencyCodes[0] === 'INR',
      ),
    ).toBe(true);
  });

  it('GET /v1/payments/rate follows the spec formula both ways', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const c = client(sb);
    const r = RateSchema.parse(
      (
        await c.get(
          '/v1/payments/rate?sourceCurrencyCode=USD&destinationCurrencyCode=BRL&sourceRail=ACH&destinationRail=PIX&sourceAmount=1000&developerFeeFixed=2&developerFeeVariable=0.01',
        )
      ).body,
    );
    const { fixed: sF, variable: sV } = r.serviceFee;
    const D = ((1000 - sF) * (1 - sV) - 2) * r.midMarketRate * (1 - 0.01);
    expect(r.calculatedAmount.destinationAmount).toBeCloseTo(D, 2);
    expect(r.invertedMidMarketRate).toBeCloseTo(1 / r.midMarketRate, 6);
    const back = (
      await c.get(
        `/v1/payments/rate?sourceCurrency=USD&destinationCurrency=BRL&sourceRail=ACH&destinationRail=PIX&destinationAmount=${r.calculatedAmount.destinationAmount}&developerFeeFixed=2&developerFeeVariable=0.01`,
      )
    ).body;
    expect(back.calculatedAmount.sourceAmount).toBeCloseTo(1000, 1);
    const missing = await c.get('/v1/payments/rate?sourceCurrencyCode=USD');
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields.length).toBeGreaterThanOrEqual(3);
    const tooSmall = await c.get(
      '/v1/payments/rate?sourceCurrencyCode=USD&destinationCurrencyCode=USD&sourceRail=SWIFT&destinationRail=SWIFT&sourceAmount=10',
    );
    expect(tooSmall.body.error.fields[0].rule).toBe('AMOUNT_BELOW_FEES');
  });

  it('rates are deterministic and optionally drift with the clock', async () => {
    const fixed = await start({ asOf: '2026-04-01T00:00:00.000Z' });
    const drifting = await start({ asOf: '2026-04-01T00:00:00.000Z', rateDriftBps: 100 });
    const q =
      '/v1/payments/rate?sourceCurrencyCode=USD&destinationCurrencyCode=EUR&sourceRail=SWIFT&destinationRail=SWIFT&sourceAmount=1000';
    expect((await client(fixed).get(q)).body.midMarketRate).toBe(0.92);
    await client(drifting).advance('PT15M');
    const m = (await client(drifting).get(q)).body.midMarketRate;
    expect(m).not.toBe(0.92);
    expect(Math.abs(m / 0.92 - 1)).toBeLessThanOrEqual(0.0101);
  });

  it('rails outside the enumerated list in a rate query: 400 CORRIDOR_UNSUPPORTED before 2026-07-31, RAILS_ENUM_ENFORCED from it', async () => {
    const sb = await start({ asOf: dayBefore('2026-07-31') });
    const c = client(sb);
    const q =
      '/v1/payments/rate?sourceCurrencyCode=GBP&destinationCurrencyCode=GBP&sourceRail=LOCAL&destinationRail=FPS&sourceAmount=100';
    expect((await c.get(q)).body.error.fields[0].rule).toBe('CORRIDOR_UNSUPPORTED');
    await c.setNow('2026-07-31T00:00:00.000Z');
    expect((await c.get(q)).body.error.fields[0].rule).toBe('RAILS_ENUM_ENFORCED');
  });

  it('REQUIREMENTS_RESPONSE_UNIFORM and JPY split (2026-07-31): holder names etc. listed before, not from the date', async () => {
    const sb = await start({ asOf: dayBefore('2026-07-31') });
    const c = client(sb);
    const names = async (q: string) => {
      const res = await c.get(`/v1/accounts/requirements?${q}`);
      for (const item of res.body) AccountRequirementSchema.parse(item);
      return res.body.map((i: { variableName: string }) => i.variableName);
    };
    expect(await names('bankCountryCode=US&currencyCode=USD')).toEqual(
      expect.arrayContaining([
        'bank.accountNumber',
        'bank.routingNumber',
        'accountHolder.firstName',
        'accountType',
        'bank.countryCode',
      ]),
    );
    expect(await names('bankCountryCode=JP&currencyCode=JPY')).not.toContain('bank.branchCode');
    await c.setNow('2026-07-31T00:00:00.000Z');
    const after = await names('bankCountryCode=US&currencyCode=USD');
    expect(after).toEqual(expect.arrayContaining(['bank.accountNumber', 'bank.routingNumber']));
    for (const gone of [
      'accountHolder.firstName',
      'accountHolder.lastName',
      'accountHolder.businessName',
      'accountType',
      'bank.countryCode',
    ])
      expect(after).not.toContain(gone);
    expect(await names('bankCountryCode=JP&currencyCode=JPY')).toContain('bank.branchCode');
    const de = (await c.get('/v1/accounts/requirements?bankCountryCode=DE&currencyCode=EUR')).body;
    expect(de.find((i: { variableName: string }) => i.variableName === 'bank.iban').regex).toBe(
      '^DE\\d{20}$',
    );
    expect((await c.get('/v1/accounts/requirements?bankCountryCode=ZZ&currencyCode=USD')).status).toBe(404);
    expect((await c.get('/v1/accounts/requirements')).status).toBe(400);
  });

  it('LEGACY_ENDPOINTS_ENDED (2025-09-30): legacy corridors, rate and requirements answer before, 410 from the date', async () => {
    const sb = await start({ asOf: dayBefore('2025-09-30') });
    const c = client(sb);
    const paths = [
      '/v1/configurations/corridors',
      '/v1/payments/rate/service?sourceCurrency=USD&destinationCurrency=EUR&amount=100',
      '/v1/accounts/requirements/external-bank-accounts?bankCountryCode=US&currencyCode=USD',
    ];
    const [corridors, rate, requirements] = await Promise.all(paths.map((p) => c.get(p)));
    LegacyCorridorSchema.parse(corridors!.body.data[0]);
    LegacyRateSchema.parse(rate!.body);
    RateSchema.parse(rate!.body.rate); // the new endpoint's result is appended
    LegacyAccountRequirementsSchema.parse(requirements!.body);
    await c.setNow('2025-09-30T00:00:00.000Z');
    for (const p of paths) {
      const res = await c.get(p);
      expect(res.status).toBe(410);
      expect(res.body.error.code).toBe('ENDPOINT_REMOVED');
    }
  });

  it('NEW_ENDPOINTS_ADDED (2025-08-25): corridors, rate and requirements do not exist before the date', async () => {
    const sb = await start({ asOf: dayBefore('2025-08-25') });
    const c = client(sb);
    const paths = [
      '/v1/payments/corridors',
      '/v1/payments/rate?sourceCurrencyCode=USD&destinationCurrencyCode=EUR&sourceRail=ACH&destinationRail=SWIFT&sourceAmount=100',
      '/v1/accounts/requirements?bankCountryCode=US&currencyCode=USD',
    ];
    for (const p of paths) expect((await c.get(p)).status).toBe(404);
    await c.setNow('2025-08-25T00:00:00.000Z');
    for (const p of paths) expect((await c.get(p)).status).toBe(200);
  });

  it('CONFIGURATION_CORRIDORS_POST_REMOVED (2026-03-04)', async () => {
    const sb = await start({ asOf: dayBefore('2026-03-04') });
    const c = client(sb);
    expect((await c.post('/v1/configuration/corridors', {})).status).toBe(200);
    await c.setNow('2026-03-04T00:00:00.000Z');
    const res = await c.post('/v1/configuration/corridors', {});
    expect(res.status).toBe(410);
    expect(res.body.error.message).toContain('POST /v1/payments/corridors');
  });
});

describe('demo data and seed', () => {
  it('--demo-data: approved customers and accounts of each kind, listed by GET /sandbox/fixtures, usable at once', async () => {
    const sb = await start({ asOf: '2026-08-15T00:00:00.000Z', demoData: true });
    const c = client(sb);
    const fixtures = (await c.get('/sandbox/fixtures')).body.data;
    expect(fixtures.filter((f: { kind: string }) => f.kind === 'customer')).toHaveLength(2);
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    expect((await c.get('/v1/customers/cus_demo_business')).body.status).toBe('APPROVED');
    const pay = await c.post('/v1/payments', {
      source: { currencyCode: 'USD', amount: 100, rail: 'ACH', accountId: 'acc_demo_usd_virtual' },
      destination: { currencyCode: 'MXN', rail: 'LOCAL', accountId: 'acc_demo_mxn_bank' },
      paymentReason: 'PURCHASE_OF_GOODS',
    });
    expect(pay.status).toBe(201);
    expect((await c.get('/sandbox/balances')).body.data.acc_demo_usd_virtual).toBe(99_900);
  });

  it('seed: customers (approved by default), accounts and balances with fixed ids', async () => {
    const sb = await start({
      asOf: '2026-04-01T00:00:00.000Z',
      seed: {
        customers: [{ id: 'cus_seed', ...individual() }],
        accounts: [
          { id: 'acc_seed', type: 'VIRTUAL_BANK_ACCOUNT', customerId: 'cus_seed', currencyCode: 'USD' },
        ],
        balances: { acc_seed: 42 },
      },
    });
    const c = client(sb);
    expect((await c.get('/v1/customers/cus_seed')).body.status).toBe('APPROVED');
    expect((await c.get('/sandbox/balances')).body.data.acc_seed).toBe(42);
  });
});
