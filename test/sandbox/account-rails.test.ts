// Rails of accounts through the sandbox's HTTP API (spec: Account, rails and liquidationAccountId /
// liquidationInformation; Rail values — LOCAL; Payment rule 2; Account requirement item; Account rule 3):
// conversions take the liquidation account's own rails, payments are checked against the account's rails.
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  unfundedPayment,
  usdBank,
} from './harness';

const running: Running[] = [];
afterAll(async () => {
  await Promise.all(running.map((sb) => sb.close()));
});

async function world(asOf: string) {
  const sb = await sandbox({ asOf });
  running.push(sb);
  const c = client(sb);
  const customerId = await approvedCustomer(sb);
  return { sb, c, customerId };
}

// Every item GET /accounts/requirements lists is required: the US holder's state, accountType until 2026-07-31.
const holder = (countryCode: string) => ({
  type: 'INDIVIDUAL',
  firstName: 'Ana',
  lastName: 'Lima',
  address: {
    line1: '1 St',
    countryCode,
    postalCode: '12345',
    ...(countryCode === 'US' ? { stateRegionOrProvince: 'NY' } : {}),
  },
});
const rules = (res: { body: any }) =>
  (res.body.error?.fields ?? []).map((f: { path: string; rule: string }) => `${f.path} ${f.rule}`);
const external = (
  customerId: string,
  currencyCode: string,
  countryCode: string,
  bank: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  type: 'EXTERNAL_BANK_ACCOUNT',
  accountType: 'CHECKING',
  customerId,
  currencyCode,
  bank: { name: 'Bank', countryCode, ...bank },
  accountHolder: holder(countryCode),
  ...extra,
});
const virtual = (customerId: string, currencyCode: string, extra: Record<string, unknown> = {}) => ({
  type: 'VIRTUAL_BANK_ACCOUNT',
  customerId,
  currencyCode,
  accountHolder: holder('US'),
  ...extra,
});
const gbUsd = (customerId: string, extra: Record<string, unknown> = {}) =>
  external(
    customerId,
    'USD',
    'GB',
    { accountNumber: '31926819', sortCode: '601613', bicSwift: 'BARCGB22', routingNumber: '021000021' },
    extra,
  );

// Undated rules: checked on several dates (before and after every dated change that touches rails).
const DATES = ['2025-10-01T10:00:00.000Z', '2026-04-01T10:00:00.000Z', '2026-08-03T10:00:00.000Z'];

describe('automatic conversion takes the liquidation account own rails, never a rail picked by currency', () => {
  it.each(DATES)(
    'at %s a USD account at a British bank without rails is refused as liquidation account (no served rail): no ACH payout to a British bank',
    async (asOf) => {
      const w = await world(asOf);
      const gb = await account(w.sb, gbUsd(w.customerId));
      const res = await w.c.post('/v1/accounts', virtual(w.customerId, 'EUR', { liquidationAccountId: gb }));
      expect([res.status, rules(res)]).toEqual([400, ['liquidationAccountId LIQUIDATION_ACCOUNT_NO_RAIL']]);
      const viaInfo = await w.c.post(
        '/v1/accounts',
        virtual(w.customerId, 'EUR', { liquidationInformation: { liquidationAccountId: gb } }),
      );
      expect([viaInfo.status, rules(viaInfo)]).toEqual([
        400,
        ['liquidationInformation LIQUIDATION_ACCOUNT_NO_RAIL'],
      ]);
    },
  );

  it.each(DATES)('at %s the same account registered on SWIFT converts on SWIFT', async (asOf) => {
    const w = await world(asOf);
    const gb = await account(w.sb, gbUsd(w.customerId, { rails: ['SWIFT'] }));
    const eur = await account(w.sb, virtual(w.customerId, 'EUR', { liquidationAccountId: gb }));
    const res = await w.c.post(`/sandbox/accounts/${eur}/deposit`, { amount: 1000 });
    expect(res.body.conversion).toMatchObject({
      type: 'PAYOUT',
      source: { accountId: eur, currencyCode: 'EUR', rail: 'LOCAL' },
      destination: { accountId: gb, currencyCode: 'USD', rail: 'SWIFT' },
    });
  });

  it('a wallet without rails has no usable chain: refused as liquidation account', async () => {
    const w = await world(DATES[1]!);
    const wallet = await account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      walletAddress: '0x5555555555555555555555555555555555555555',
      accountHolder: holder('US'),
    });
    const res = await w.c.post(
      '/v1/accounts',
      virtual(w.customerId, 'USD', { liquidationAccountId: wallet }),
    );
    expect([res.status, rules(res)]).toEqual([400, ['liquidationAccountId LIQUIDATION_ACCOUNT_NO_RAIL']]);
  });

  it('conversions to non-US external accounts: GBP at a GB bank on LOCAL, EUR at a DE bank on LOCAL, BRL at a BR bank on its default TED', async () => {
    const w = await world(DATES[1]!);
    const gbp = await account(
      w.sb,
      external(
        w.customerId,
        'GBP',
        'GB',
        { accountNumber: '31926819', sortCode: '601613' },
        { rails: ['LOCAL'] },
      ),
    );
    const eur = await account(
      w.sb,
      external(w.customerId, 'EUR', 'DE', { iban: 'DE89370400440532013000', bicSwift: 'DEUTDEFF' }),
    );
    const brl = await account(
      w.sb,
      external(w.customerId, 'BRL', 'BR', {
        accountNumber: '123456789',
        bankCode: '341',
        branchCode: '0001',
      }),
    );
    const cases: Array<[string, string, string]> = [
      ['EUR', gbp, 'LOCAL'],
      ['USD', eur, 'LOCAL'],
      ['USD', brl, 'TED'],
    ];
    for (const [from, to, rail] of cases) {
      const v = await account(w.sb, virtual(w.customerId, from, { liquidationAccountId: to }));
      const res = await w.c.post(`/sandbox/accounts/${v}/deposit`, { amount: 1000 });
      expect({ to, conversion: res.body.conversion }).toMatchObject({
        to,
        conversion: {
          type: 'PAYOUT',
          paymentReason: 'AUTO_LIQUIDATION',
          destination: { accountId: to, rail },
        },
      });
      expect(res.body.conversion.destination.amount).toBeGreaterThan(0);
    }
  });
});

describe('liquidationInformation given as wallet details is refused naming the field, never stored to be ignored', () => {
  it.each(DATES)(
    'at %s: {walletAddress, currencyCode, chain} → 400 on liquidationInformation; on an external account → 400 too',
    async (asOf) => {
      const w = await world(asOf);
      const details = {
        walletAddress: '0x6666666666666666666666666666666666666666',
        currencyCode: 'USDC',
        chain: 'POLYGON',
      };
      const res = await w.c.post(
        '/v1/accounts',
        virtual(w.customerId, 'USD', { liquidationInformation: details }),
      );
      expect([res.status, rules(res)]).toEqual([
        400,
        ['liquidationInformation LIQUIDATION_INFORMATION_UNSUPPORTED'],
      ]);
      expect(res.body.error.fields[0].message).toContain('liquidationAccountId');
      const onExternal = await w.c.post('/v1/accounts', {
        ...usdBank(w.customerId),
        liquidationInformation: details,
      });
      expect([onExternal.status, rules(onExternal)]).toEqual([
        400,
        ['liquidationInformation LIQUIDATION_ACCOUNT_VIRTUAL_ONLY'],
      ]);
      // nothing was stored
      expect(((await w.c.get('/v1/accounts')).body.data as unknown[]).length).toBe(0);
    },
  );
});

describe("a payment's rail is checked against the destination account's rails (from 2025-08-25)", () => {
  const brlTedOnly = (customerId: string) =>
    external(
      customerId,
      'BRL',
      'BR',
      { accountNumber: '123456789', bankCode: '341', branchCode: '0001' },
      { rails: ['TED'] },
    );
  const toBrl = (id: string, rail: string) =>
    unfundedPayment(id, { destination: { currencyCode: 'BRL', rail, accountId: id } });

  it('PIX to an account registered on TED only (no pixCode): accepted the day before, 400 RAIL_NOT_ON_ACCOUNT from 2025-08-25; TED and LOCAL accepted', async () => {
    const w = await world('2025-08-24T10:00:00.000Z');
    const ted = await account(w.sb, brlTedOnly(w.customerId));
    const before = await w.c.post('/v1/payments', toBrl(ted, 'PIX'));
    expect(before.status).toBe(201);
    await w.c.setNow('2025-08-25T00:00:00.000Z');
    const after = await w.c.post('/v1/payments', toBrl(ted, 'PIX'));
    expect([after.status, rules(after)]).toEqual([400, ['destination.rail RAIL_NOT_ON_ACCOUNT']]);
    expect((await w.c.post('/v1/payments', toBrl(ted, 'TED'))).status).toBe(201);
    const local = await w.c.post('/v1/payments', toBrl(ted, 'LOCAL'));
    expect([local.status, local.body.destination.rail]).toEqual([201, 'TED']);
  });

  it('an account with no rails takes any rail a corridor serves; a US account (default ACH, ACH_SAME_DAY, DOMESTIC_WIRE) is not paid on SWIFT', async () => {
    const w = await world(DATES[1]!);
    const de = await account(
      w.sb,
      external(w.customerId, 'EUR', 'DE', { iban: 'DE89370400440532013000', bicSwift: 'DEUTDEFF' }),
    );
    for (const rail of ['LOCAL', 'SWIFT'])
      expect(
        (
          await w.c.post(
            '/v1/payments',
            unfundedPayment(de, { destination: { currencyCode: 'EUR', rail, accountId: de } }),
          )
        ).status,
      ).toBe(201);
    const us = await account(w.sb, usdBank(w.customerId));
    const swift = await w.c.post(
      '/v1/payments',
      unfundedPayment(us, { destination: { currencyCode: 'USD', rail: 'SWIFT', accountId: us } }),
    );
    expect([swift.status, rules(swift)]).toEqual([400, ['destination.rail RAIL_NOT_ON_ACCOUNT']]);
    expect(
      (
        await w.c.post(
          '/v1/payments',
          unfundedPayment(us, { destination: { currencyCode: 'USD', rail: 'DOMESTIC_WIRE', accountId: us } }),
        )
      ).status,
    ).toBe(201);
  });
});

describe('LOCAL in POST /payments is the country default rail (spec: Rail values)', () => {
  it.each(DATES)(
    'at %s: LOCAL → ACH for a US account, TED for a BR account, IMPS for an IN account',
    async (asOf) => {
      const w = await world(asOf);
      const us = await account(w.sb, usdBank(w.customerId));
      const br = await account(
        w.sb,
        external(w.customerId, 'BRL', 'BR', {
          accountNumber: '123456789',
          bankCode: '341',
          branchCode: '0001',
        }),
      );
      const inr = await account(
        w.sb,
        external(w.customerId, 'INR', 'IN', { accountNumber: '50100012345678', ifscCode: 'HDFC0000123' }),
      );
      for (const [id, currencyCode, rail] of [
        [us, 'USD', 'ACH'],
        [br, 'BRL', 'TED'],
        [inr, 'INR', 'IMPS'],
      ] as const) {
        const res = await w.c.post(
          '/v1/payments',
          unfundedPayment(id, { destination: { currencyCode, rail: 'LOCAL', accountId: id } }),
        );
        expect({ currencyCode, status: res.status, rail: res.body.destination?.rail }).toEqual({
          currencyCode,
          status: 201,
          rail,
        });
      }
    },
  );
});

describe('GET /accounts/requirements: Hong Kong SWIFT code and the SWIFT routing number of individuals (Account rule 3, 2026-07-31)', () => {
  const items = async (c: ReturnType<typeof client>, country: string, currency: string) =>
    (await c.get(`/v1/accounts/requirements?bankCountryCode=${country}&currencyCode=${currency}`))
      .body as Array<{ variableName: string; rails: string[]; accountHolderTypes: string[]; enum: string[] }>;

  it('HK: a bank name chosen from a list before the date, the bank SWIFT code (bank.bicSwift) from it', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const before = await items(w.c, 'HK', 'HKD');
    expect(before.find((i) => i.variableName === 'bank.name')?.enum.length).toBeGreaterThan(0);
    expect(before.map((i) => i.variableName)).not.toContain('bank.bicSwift');
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const after = await items(w.c, 'HK', 'HKD');
    expect(after.map((i) => i.variableName)).toContain('bank.bicSwift');
    expect(after.map((i) => i.variableName)).not.toContain('bank.name');
  });

  it('bank.routingNumber for SWIFT to individuals from the date (PH, GB, HK), never for US', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    for (const [country, currency] of [
      ['PH', 'PHP'],
      ['GB', 'GBP'],
      ['HK', 'HKD'],
    ]) {
      expect((await items(w.c, country!, currency!)).map((i) => i.variableName)).not.toContain(
        'bank.routingNumber',
      );
    }
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    for (const [country, currency] of [
      ['PH', 'PHP'],
      ['GB', 'GBP'],
      ['HK', 'HKD'],
    ]) {
      const routing = (await items(w.c, country!, currency!)).find(
        (i) => i.variableName === 'bank.routingNumber',
      );
      expect({ country, routing }).toMatchObject({
        country,
        routing: { rails: ['SWIFT'], accountHolderTypes: ['INDIVIDUAL'] },
      });
    }
    expect(
      (await items(w.c, 'US', 'USD'))
        .filter((i) => i.variableName === 'bank.routingNumber')
        .every((i) => !i.rails.includes('SWIFT')),
    ).toBe(true);
  });
});
