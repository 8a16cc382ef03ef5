// Spec fidelity, round four: account requirements applied, deprecated rails stored on accounts, corridors by
// country and by rail pair, funding notices judged one by one, conversions of every arrival, LOCAL on the
// funding side, legacy fees in USD. Each rule through the sandbox's HTTP API on both sides of any date it has.
import { requirementViolations } from '../../workflows/register-account/requirements';
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  unfundedPayment,
  usdBank,
  usdVirtual,
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
  const bankId = await account(sb, usdBank(customerId));
  const get = async (id: string) => (await c.get(`/v1/payments/${id}`)).body;
  /** Moves the sandbox clock by steps of 2 s and fires what is due, so payments run their steps. */
  const settle = async (steps = 6) => {
    for (let i = 0; i < steps; i++) {
      await c.advance('PT2S');
      sb.runDue();
    }
  };
  const allPayments = async () => (await c.get('/v1/payments?limit=100')).body.data as any[];
  return { sb, c, customerId, bankId, get, settle, allPayments };
}

const rules = (res: { body: any }) =>
  (res.body.error?.fields ?? []).map((f: { path: string; rule: string }) => `${f.path}:${f.rule}`);
const BEFORE_JUL_31 = '2025-09-01T12:00:00.000Z';
const AFTER_JUL_31 = '2026-08-03T12:00:00.000Z';

function setPath(target: Record<string, any>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let cur = target;
  for (const k of keys.slice(0, -1)) cur = cur[k] ??= {};
  cur[keys[keys.length - 1]!] = value;
}
function deletePath(target: Record<string, any>, dotted: string): void {
  const keys = dotted.split('.');
  let cur = target;
  for (const k of keys.slice(0, -1)) cur = cur?.[k];
  if (cur) delete cur[keys[keys.length - 1]!];
}

const PAIRS = [
  'US/USD',
  'GB/GBP',
  'BR/BRL',
  'IN/INR',
  'MX/MXN',
  'PH/PHP',
  'JP/JPY',
  'CA/CAD',
  'HK/HKD',
  'AU/AUD',
  'DE/EUR',
  'FR/EUR',
  'ES/EUR',
  'NL/EUR',
  'IT/EUR',
];

describe('1. POST /accounts checks the items GET /accounts/requirements lists (and registerAccount agrees)', () => {
  it.each([BEFORE_JUL_31, AFTER_JUL_31])(
    'at %s: for every pair and rail, a body with every item is created and a body missing any one applicable item is refused on its path',
    async (asOf) => {
      const w = await world(asOf);
      for (const pair of PAIRS) {
        const [country, currency] = pair.split('/') as [string, string];
        const items = (
          await w.c.get(`/v1/accounts/requirements?bankCountryCode=${country}&currencyCode=${currency}`)
        ).body as any[];
        const rails = [...new Set(items.flatMap((i) => i.rails as string[]))];
        for (const rail of rails) {
          const full: Record<string, any> = {
            type: 'EXTERNAL_BANK_ACCOUNT',
            customerId: w.customerId,
            currencyCode: currency,
            rails: [rail],
            bank: { name: 'Bank', countryCode: country },
            accountHolder: {
              type: 'INDIVIDUAL',
              address: { line1: '1 St', city: 'City', countryCode: country },
            },
          };
          for (const item of items)
            setPath(full, item.variableName, item.enum.length > 0 ? item.enum[0] : item.example);
          const ok = await w.c.post('/v1/accounts', full);
          expect([pair, rail, ok.status, rules(ok)]).toEqual([pair, rail, 201, []]);
          expect(requirementViolations(full, items)).toEqual([]);
          const applicable = items.filter(
            (i) =>
              (i.rails.length === 0 || i.rails.includes(rail)) && i.accountHolderTypes.includes('INDIVIDUAL'),
          );
          for (const item of applicable) {
            const body = structuredClone(full);
            deletePath(body, item.variableName);
            const refused = await w.c.post('/v1/accounts', body);
            expect([pair, rail, item.variableName, refused.status]).toEqual([
              pair,
              rail,
              item.variableName,
              400,
            ]);
            // REQUIRED_BY_REQUIREMENTS, or the dated rule of Account rule 3 that asks for the same field
            expect(rules(refused).map((r: string) => r.split(':')[0])).toContain(item.variableName);
            // the workflow's own check (registerAccount) refuses the same body on the same path
            expect(requirementViolations(body, items).map((v) => v.path)).toContain(item.variableName);
          }
        }
      }
    },
  );

  it.each([BEFORE_JUL_31, AFTER_JUL_31])(
    'at %s: a Brazilian PIX account without bank.pixCode and a US account without account or routing number are refused, so no PIX payment reaches them',
    async (asOf) => {
      const w = await world(asOf);
      const holder = {
        type: 'INDIVIDUAL',
        firstName: 'Ana',
        lastName: 'Lima',
        address: { line1: '1 St', countryCode: 'BR', postalCode: '01000-000' },
      };
      const pix = await w.c.post('/v1/accounts', {
        type: 'EXTERNAL_BANK_ACCOUNT',
        accountType: 'CHECKING',
        customerId: w.customerId,
        currencyCode: 'BRL',
        rails: ['PIX'],
        bank: { name: 'Itau', countryCode: 'BR' },
        accountHolder: holder,
      });
      expect([pix.status, rules(pix)]).toEqual([400, ['bank.pixCode:REQUIRED_BY_REQUIREMENTS']]);
      const us = usdBank(w.customerId) as Record<string, any>;
      us.bank = { name: 'Chase', countryCode: 'US' };
      const noNumbers = await w.c.post('/v1/accounts', us);
      expect([noNumbers.status, rules(noNumbers)]).toEqual([
        400,
        ['bank.accountNumber:REQUIRED_BY_REQUIREMENTS', 'bank.routingNumber:REQUIRED_BY_REQUIREMENTS'],
      ]);
    },
  );

  it.each([BEFORE_JUL_31, AFTER_JUL_31])(
    'at %s: a body without rails is checked for its country default (BR: TED, so no bank.pixCode), and the holder type comes from accountHolder.type — in the sandbox and in registerAccount alike',
    async (asOf) => {
      const w = await world(asOf);
      const items = (await w.c.get('/v1/accounts/requirements?bankCountryCode=BR&currencyCode=BRL')).body;
      const body = {
        type: 'EXTERNAL_BANK_ACCOUNT',
        accountType: 'CHECKING',
        customerId: w.customerId,
        currencyCode: 'BRL',
        bank: {
          name: 'Itau',
          countryCode: 'BR',
          accountNumber: '123456789',
          bankCode: '341',
          branchCode: '0001',
        },
        accountHolder: {
          type: 'INDIVIDUAL',
          firstName: 'Ana',
          lastName: 'Lima',
          address: { line1: '1 St', countryCode: 'BR' },
        },
      };
      const created = await w.c.post('/v1/accounts', body);
      expect([created.status, created.body.rails]).toEqual([201, ['TED']]);
      expect(requirementViolations(body, items)).toEqual([]);
      if (asOf === BEFORE_JUL_31) {
        // the individual's names are listed for INDIVIDUAL holders until 2026-07-31: read from accountHolder.type
        const nameless = {
          ...body,
          accountHolder: { type: 'INDIVIDUAL', address: { line1: '1 St', countryCode: 'BR' } },
        };
        const refused = await w.c.post('/v1/accounts', nameless);
        expect(rules(refused)).toEqual([
          'accountHolder.firstName:REQUIRED_BY_REQUIREMENTS',
          'accountHolder.lastName:REQUIRED_BY_REQUIREMENTS',
        ]);
        expect(requirementViolations(nameless, items).map((v) => `${v.path}:${v.rule}`)).toEqual(
          rules(refused),
        );
      }
    },
  );

  it('before 2026-07-31 the five items the response lists until then are required too; from the date they are not', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const body: Record<string, any> = usdBank(w.customerId);
    delete body.accountType;
    const before = await w.c.post('/v1/accounts', body);
    expect([before.status, rules(before)]).toEqual([400, ['accountType:REQUIRED_BY_REQUIREMENTS']]);
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    expect((await w.c.post('/v1/accounts', body)).status).toBe(201);
  });
});

describe('2. an account stored with a deprecated rail while it was accepted stays payable', () => {
  const business = (countryCode: string) => ({
    type: 'BUSINESS',
    businessName: 'Acme GmbH',
    address: { line1: '1 St', countryCode, postalCode: '10115' },
  });

  it('rails ["WIRE"] (before 2026-07-31) is SWIFT: paid with WIRE and SWIFT before the date, with SWIFT after it', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const wire = await w.c.post('/v1/accounts', {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: w.customerId,
      currencyCode: 'EUR',
      rails: ['WIRE'],
      bank: { name: 'DB', countryCode: 'DE', iban: 'DE89370400440532013000', bicSwift: 'DEUTDEFF' },
      accountHolder: business('DE'),
    });
    expect(wire.status).toBe(201);
    const pay = (rail: string) =>
      w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 500, rail: 'ACH' },
        destination: { currencyCode: 'EUR', rail, accountId: wire.body.id },
        paymentReason: 'PURCHASE_OF_GOODS',
      });
    for (const rail of ['WIRE', 'SWIFT']) {
      const res = await pay(rail);
      expect([rail, res.status, rules(res), res.body.destination?.rail]).toEqual([rail, 201, [], 'SWIFT']);
    }
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const after = await pay('SWIFT');
    expect([after.status, after.body.destination?.rail]).toEqual([201, 'SWIFT']);
  });

  it('rails ["CRYPTO"] (before 2026-03-04) is every chain: paid on POLYGON and with CRYPTO + chain before the date, on POLYGON after it', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const wallet = await w.c.post('/v1/accounts', {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['CRYPTO'],
      walletAddress: '0x3333333333333333333333333333333333333333',
      accountHolder: business('US'),
    });
    expect(wallet.status).toBe(201);
    const pay = (destination: Record<string, unknown>) =>
      w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 100, rail: 'ACH' },
        destination: { currencyCode: 'USDC', accountId: wallet.body.id, ...destination },
        paymentReason: 'GIFTS',
      });
    const polygon = await pay({ rail: 'POLYGON' });
    expect([polygon.status, rules(polygon)]).toEqual([201, []]);
    const crypto = await pay({ rail: 'CRYPTO', chain: 'BASE' });
    expect([crypto.status, crypto.body.destination?.rail]).toEqual([201, 'BASE']);
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    expect((await pay({ rail: 'POLYGON' })).status).toBe(201);
  });

  it('the requirements of a GBP account registered with rails ["WIRE"] are the SWIFT items, in the sandbox and in registerAccount', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const body = {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: w.customerId,
      currencyCode: 'GBP',
      rails: ['WIRE'],
      bank: { name: 'NatWest', countryCode: 'GB', accountNumber: '31926819', sortCode: '601613' },
      accountHolder: business('GB'),
    };
    const items = (await w.c.get('/v1/accounts/requirements?bankCountryCode=GB&currencyCode=GBP')).body;
    const res = await w.c.post('/v1/accounts', body);
    expect([res.status, rules(res)]).toEqual([
      400,
      ['bank.iban:REQUIRED_BY_REQUIREMENTS', 'bank.bicSwift:REQUIRED_BY_REQUIREMENTS'],
    ]);
    expect(requirementViolations(body, items).map((v) => `${v.path}:${v.rule}`)).toEqual(rules(res));
  });
});

describe('3. a conversion pays the fee of its own rail pair', () => {
  it.each(['2025-09-01T12:00:00.000Z', AFTER_JUL_31])(
    'at %s: DOMESTIC_WIRE → POLYGON is charged what POST /payments and GET /payments/rate charge for that pair',
    async (asOf) => {
      const w = await world(asOf);
      const wallet = await account(w.sb, {
        type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
        customerId: w.customerId,
        currencyCode: 'USDC',
        rails: ['POLYGON'],
        walletAddress: '0x4444444444444444444444444444444444444444',
        accountHolder: {
          type: 'INDIVIDUAL',
          firstName: 'Ana',
          lastName: 'Lima',
          address: { line1: '1 St', countryCode: 'US' },
        },
      });
      const virtual = await account(
        w.sb,
        usdVirtual(w.customerId, { rails: ['DOMESTIC_WIRE'], liquidationAccountId: wallet }),
      );
      const dep = await w.c.post(`/sandbox/accounts/${virtual}/deposit`, { amount: 1000 });
      expect(dep.status).toBe(201);
      const conversion = dep.body.conversion;
      expect([conversion.source.rail, conversion.destination.rail]).toEqual(['DOMESTIC_WIRE', 'POLYGON']);
      const rate = await w.c.get(
        `/v1/payments/rate?${new URLSearchParams({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'USDC', sourceRail: 'DOMESTIC_WIRE', destinationRail: 'POLYGON', sourceAmount: '1000' })}`,
      );
      expect(rate.body.calculatedAmount.totalFeeInSourceCurrency).toBe(9.98);
      expect(conversion.fee).toBe(9.98);
    },
  );
});

describe('4. each funding notice is judged by its own sentAt, also after a late one was refunded', () => {
  it('from 2026-03-30: a late transfer refunded, then one sent before quote.expiresAt moves the payment to PENDING and on to COMPLETED', async () => {
    const w = await world('2026-08-03T12:00:00.000Z');
    const created = await w.c.post('/v1/payments', unfundedPayment(w.bankId));
    const id = created.body.id as string;
    const createdAt = Date.parse(created.body.lifecycle.createdAt);
    await w.c.advance('PT20M');
    w.sb.runDue();
    const late = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 16 * 60_000).toISOString(),
    });
    expect([late.body.status, late.body.error?.code, late.body.lifecycle.refundedAt !== null]).toEqual([
      'AWAITING_FUNDS',
      'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
      true,
    ]);
    const onTime = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 5 * 60_000).toISOString(),
    });
    expect([onTime.status, onTime.body.status, onTime.body.error, onTime.body.lifecycle.refundedAt]).toEqual([
      200,
      'PENDING',
      null,
      null,
    ]);
    await w.settle();
    expect((await w.get(id)).status).toBe('COMPLETED');
    // a second late transfer after that is still refunded… only while the payment waits; here it has moved on
  });

  it('from 2026-03-30: two late transfers are both refunded (refundedAt moves, the status stays)', async () => {
    const w = await world('2026-08-03T12:00:00.000Z');
    const created = await w.c.post('/v1/payments', unfundedPayment(w.bankId));
    const id = created.body.id as string;
    const createdAt = Date.parse(created.body.lifecycle.createdAt);
    await w.c.advance('PT20M');
    const first = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 16 * 60_000).toISOString(),
    });
    await w.c.advance('PT1M');
    const second = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 17 * 60_000).toISOString(),
    });
    expect([second.body.status, second.body.error?.code]).toEqual([
      'AWAITING_FUNDS',
      'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED',
    ]);
    expect(Date.parse(second.body.lifecycle.refundedAt)).toBeGreaterThan(
      Date.parse(first.body.lifecycle.refundedAt),
    );
  });

  it('before 2026-03-30: after a late transfer to the EXPIRED payment was refunded, one sent before the deadline still goes SENT, then COMPLETED (row 5)', async () => {
    const w = await world('2026-03-02T12:00:00.000Z');
    const created = await w.c.post('/v1/payments', unfundedPayment(w.bankId));
    const id = created.body.id as string;
    const createdAt = Date.parse(created.body.lifecycle.createdAt);
    await w.c.advance('PT20M');
    w.sb.runDue();
    expect((await w.get(id)).status).toBe('EXPIRED');
    const late = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 16 * 60_000).toISOString(),
    });
    expect([late.body.status, late.body.error?.code]).toEqual(['EXPIRED', 'UNSPECIFIED']);
    const onTime = await w.c.post(`/sandbox/payments/${id}/fund`, {
      sentAt: new Date(createdAt + 5 * 60_000).toISOString(),
    });
    expect([onTime.body.status, onTime.body.error, onTime.body.lifecycle.refundedAt]).toEqual([
      'SENT',
      null,
      null,
    ]);
    await w.settle();
    expect((await w.get(id)).status).toBe('COMPLETED');
  });
});

describe('5. funds arriving at a virtual account with automatic conversion are converted however they arrive', () => {
  it.each(['2025-09-01T12:00:00.000Z', AFTER_JUL_31])(
    'at %s: a PAYIN made with POST /payments and an INTERNAL transfer are each followed by a conversion when they complete',
    async (asOf) => {
      const w = await world(asOf);
      const wallet = await account(w.sb, {
        type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
        customerId: w.customerId,
        currencyCode: 'USDC',
        rails: ['POLYGON'],
        walletAddress: '0x5555555555555555555555555555555555555555',
        accountHolder: {
          type: 'INDIVIDUAL',
          firstName: 'Ana',
          lastName: 'Lima',
          address: { line1: '1 St', countryCode: 'US' },
        },
      });
      const auto = await account(w.sb, usdVirtual(w.customerId, { liquidationAccountId: wallet }));
      const conversionsOf = async () =>
        (await w.allPayments()).filter(
          (p) => p.paymentReason === 'AUTO_LIQUIDATION' && p.source.accountId === auto,
        );

      const payin = await w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 200, rail: 'ACH' },
        destination: { currencyCode: 'USD', rail: 'ACH', accountId: auto },
        paymentReason: 'PERSONAL_TRANSFERS',
      });
      expect([payin.status, payin.body.type]).toEqual([201, 'PAYIN']);
      await w.c.post(`/sandbox/payments/${payin.body.id}/fund`, {});
      await w.settle();
      expect((await w.get(payin.body.id)).status).toBe('COMPLETED');
      const afterPayin = await conversionsOf();
      expect(afterPayin.map((p) => [p.type, p.destination.accountId, p.source.amount])).toEqual([
        ['PAYOUT', wallet, (await w.get(payin.body.id)).destination.amount],
      ]);

      const other = await account(w.sb, usdVirtual(w.customerId));
      await w.c.post(`/sandbox/accounts/${other}/deposit`, { amount: 500 });
      const internal = await w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 100, rail: 'ACH', accountId: other },
        destination: { currencyCode: 'USD', rail: 'ACH', accountId: auto },
        paymentReason: 'PERSONAL_TRANSFERS',
      });
      expect([internal.status, internal.body.type]).toEqual([201, 'INTERNAL']);
      await w.settle();
      expect((await w.get(internal.body.id)).status).toBe('COMPLETED');
      expect((await conversionsOf()).length).toBe(2);
    },
  );
});

describe('6. the destination country is checked against the corridors', () => {
  const eurAccount = (customerId: string, countryCode: string, iban: string) => ({
    type: 'EXTERNAL_BANK_ACCOUNT',
    accountType: 'CHECKING',
    customerId,
    currencyCode: 'EUR',
    rails: ['LOCAL'],
    bank: { name: 'Bank', countryCode, iban, bicSwift: 'GEBABEBB' },
    accountHolder: {
      type: 'BUSINESS',
      businessName: 'Acme SA',
      address: { line1: '1 Rue', countryCode, postalCode: '1000' },
    },
  });

  it.each([BEFORE_JUL_31, AFTER_JUL_31])(
    'at %s: a payment to a Belgian EUR account (no corridor lists BE) is refused on destination.accountId; the same to a German one is created',
    async (asOf) => {
      const w = await world(asOf);
      const be = await account(w.sb, eurAccount(w.customerId, 'BE', 'BE68539007547034'));
      const de = await account(w.sb, eurAccount(w.customerId, 'DE', 'DE89370400440532013000'));
      const pay = (accountId: string) =>
        w.c.post('/v1/payments', {
          source: { currencyCode: 'USD', amount: 500, rail: 'ACH' },
          destination: { currencyCode: 'EUR', rail: 'LOCAL', accountId },
          paymentReason: 'PURCHASE_OF_GOODS',
        });
      const refused = await pay(be);
      expect([refused.status, rules(refused)]).toEqual([400, ['destination.accountId:CORRIDOR_UNSUPPORTED']]);
      expect((await pay(de)).status).toBe(201);
      // registerAccount reads GET /accounts/requirements first: none for BE/EUR, so it refuses the account itself
      expect((await w.c.get('/v1/accounts/requirements?bankCountryCode=BE&currencyCode=EUR')).status).toBe(
        404,
      );
    },
  );

  it('every country and currency a fiat corridor reaches has account requirements, and no other pair has (registerAccount refuses what no corridor reaches)', async () => {
    const w = await world(AFTER_JUL_31);
    const corridors = (await w.c.get('/v1/payments/corridors')).body.data as any[];
    const reached = new Set(
      corridors
        .filter((c) => !['POLYGON', 'ETHEREUM', 'BASE', 'SOLANA', 'TRON'].includes(c.destination.rails[0]))
        .map((c) => `${c.destination.countryCode}/${c.destination.currencyCodes[0]}`),
    );
    expect([...reached].sort()).toEqual([...PAIRS].sort());
  });
});

describe('7. legacy corridor fees are in USD', () => {
  it('before 2025-09-30 fixedFeeInUSD is the source-currency fee at the sandbox rate (GBP and EUR sources); from the date the endpoint is gone', async () => {
    const w = await world('2025-09-29T12:00:00.000Z');
    const legacy = (await w.c.get('/v1/configurations/corridors')).body.data as any[];
    for (const [currency, rate] of [
      ['GBP', 1 / 0.79],
      ['EUR', 1 / 0.92],
      ['USD', 1],
    ] as const) {
      const row = legacy.find(
        (r) => r.source.currencyCode === currency && r.destination.currencyCode === 'USD',
      );
      const current = (
        await w.c.get(`/v1/payments/corridors?sourceCurrencyCode=${currency}&destinationCurrencyCode=USD`)
      ).body.data.find(
        (c: any) =>
          c.destination.rails[0] === 'ACH' && c.source.rails[0] === (currency === 'USD' ? 'ACH' : 'LOCAL'),
      );
      expect([currency, row.fees.LOCAL.fixedFeeInUSD]).toEqual([
        currency,
        Math.round(current.fees.fixed * rate * 100) / 100,
      ]);
    }
    await w.c.setNow('2025-09-30T00:00:00.000Z');
    expect((await w.c.get('/v1/configurations/corridors')).status).toBe(410);
  });
});

describe('8. LOCAL on the funding side is the country default rail', () => {
  it.each([BEFORE_JUL_31, AFTER_JUL_31])(
    'at %s: USD funding with source.rail LOCAL is ACH in POST /payments and GET /payments/rate; an unserved source names source.rail',
    async (asOf) => {
      const w = await world(asOf);
      const created = await w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 100, rail: 'LOCAL' },
        destination: { currencyCode: 'USD', rail: 'ACH', accountId: w.bankId },
        paymentReason: 'GIFTS',
      });
      expect([created.status, rules(created), created.body.source?.rail]).toEqual([201, [], 'ACH']);
      const rate = await w.c.get(
        `/v1/payments/rate?${new URLSearchParams({ sourceCurrencyCode: 'USD', destinationCurrencyCode: 'USD', sourceRail: 'LOCAL', destinationRail: 'ACH', sourceAmount: '100' })}`,
      );
      expect([rate.status, rate.body.calculatedAmount?.description]).toEqual([
        200,
        expect.stringContaining('via ACH'),
      ]);
      const unserved = await w.c.post('/v1/payments', {
        source: { currencyCode: 'USD', amount: 100, rail: 'PIX' },
        destination: { currencyCode: 'USD', rail: 'ACH', accountId: w.bankId },
        paymentReason: 'GIFTS',
      });
      expect([unserved.status, rules(unserved)]).toEqual([400, ['source.rail:CORRIDOR_UNSUPPORTED']]);
    },
  );
});

describe('schemathesis findings', () => {
  it('/openapi.json does not offer the faulty estimatedAnnualRevenueUSD values the sandbox refuses at every date', async () => {
    const w = await world(AFTER_JUL_31);
    const text = JSON.stringify((await w.c.get('/openapi.json')).body);
    expect(text).toContain('FIFTY_MILLION_TO_TWO_HUNDRED_AND_FIFTY_MILLION');
    expect(text).not.toContain('FIFTY_MILLION_TO_TWENTY_FIVE_MILLION');
    expect(text).not.toContain('OVER_TWENTY_FIVE_MILLION');
  });

  it('POST /configuration/corridors (before 2026-03-04) and POST /payments/corridors with the body null answer 400, left out 200', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    for (const path of ['/v1/configuration/corridors', '/v1/payments/corridors']) {
      const res = await w.c.call('POST', path, 'null');
      expect([path, res.status, rules(res)]).toEqual([path, 400, [':NOT_AN_OBJECT']]);
      expect((await w.c.call('POST', path)).status).toBe(200);
    }
  });
});
