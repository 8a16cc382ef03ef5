// Spec fidelity: each rule on both sides of its date, through the sandbox's HTTP API.
import { PaymentSchema } from '../../src/contract';
import {
  account,
  approvedCustomer,
  client,
  individual,
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

async function world(asOf: string, customer: Record<string, unknown> = {}) {
  const sb = await sandbox({ asOf });
  running.push(sb);
  const c = client(sb);
  const customerId = await approvedCustomer(sb, customer);
  const bankId = await account(sb, usdBank(customerId));
  const status = async (id: string) => (await c.get(`/v1/payments/${id}`)).body;
  return { sb, c, customerId, bankId, status };
}

const holder = (countryCode: string, extra: Record<string, unknown> = {}) => ({
  type: 'INDIVIDUAL',
  firstName: 'Ana',
  lastName: 'Lima',
  address: { line1: '1 St', countryCode, postalCode: '12345', ...extra },
});
const rules = (res: { body: any }) => (res.body.error?.fields ?? []).map((f: { rule: string }) => f.rule);
const rateQuery = (q: Record<string, string>) =>
  `/v1/payments/rate?${new URLSearchParams({ sourceAmount: '100', ...q })}`;

describe('GET /payments/rate maps the deprecated rails as POST /payments does', () => {
  it('WIRE → SWIFT until 2026-07-31, then 400 RAILS_ENUM_ENFORCED', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const q = rateQuery({
      sourceCurrencyCode: 'USD',
      destinationCurrencyCode: 'EUR',
      sourceRail: 'ACH',
      destinationRail: 'WIRE',
    });
    const before = await w.c.get(q);
    expect(before.status).toBe(200);
    expect(before.body.serviceFee.fixed).toBe(25); // the SWIFT corridor's fee
    expect(before.body.calculatedAmount.description).toContain('via SWIFT');
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const after = await w.c.get(q);
    expect([after.status, rules(after)]).toEqual([400, ['RAILS_ENUM_ENFORCED']]);
  });

  it('CRYPTO → the chain given before 2026-03-04 (either side); without a chain priced as one bucket (no chain parameter in the spec); from the date 400 CRYPTO_RAIL_REMOVED', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const source = rateQuery({
      sourceCurrencyCode: 'USDC',
      destinationCurrencyCode: 'USD',
      sourceRail: 'CRYPTO',
      sourceChain: 'BASE',
      destinationRail: 'ACH',
    });
    const destination = rateQuery({
      sourceCurrencyCode: 'USD',
      destinationCurrencyCode: 'USDC',
      sourceRail: 'ACH',
      destinationRail: 'CRYPTO',
      destinationChain: 'POLYGON',
    });
    const s = await w.c.get(source);
    expect(s.status).toBe(200);
    expect(s.body.calculatedAmount.description).toContain('via BASE');
    const d = await w.c.get(destination);
    expect(d.status).toBe(200);
    expect(d.body.calculatedAmount.description).toContain('via POLYGON');
    const noChain = await w.c.get(
      rateQuery({
        sourceCurrencyCode: 'USDC',
        destinationCurrencyCode: 'USD',
        sourceRail: 'CRYPTO',
        destinationRail: 'ACH',
      }),
    );
    expect([noChain.status, noChain.body.calculatedAmount.description]).toEqual([
      200,
      expect.stringContaining('via CRYPTO'),
    ]);
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    for (const q of [source, destination]) {
      const after = await w.c.get(q);
      expect([after.status, rules(after)]).toEqual([400, ['CRYPTO_RAIL_REMOVED']]);
    }
  });
});

describe('destination.rail CRYPTO with destination.chain', () => {
  it('before 2026-03-04 the chain replaces the rail (201, rail BASE); from the date 400', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const wallet = await account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['BASE'],
      walletAddress: '0x2222222222222222222222222222222222222222',
      accountHolder: holder('US'),
    });
    const body = unfundedPayment(wallet, {
      destination: { currencyCode: 'USDC', rail: 'CRYPTO', chain: 'BASE', accountId: wallet },
    });
    const before = await w.c.post('/v1/payments', body);
    expect(before.status).toBe(201);
    expect(before.body.destination.rail).toBe('BASE');
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    const after = await w.c.post('/v1/payments', body);
    expect(after.status).toBe(400);
    expect(rules(after)).toEqual(expect.arrayContaining(['CRYPTO_RAIL_REMOVED', 'CHAIN_FIELD_REMOVED']));
  });
});

describe('one-sided test: paymentAccountHolder (Account rule 5, Events 4)', () => {
  it('before 2026-03-04 an account created with paymentAccountHolder only gets it as accountHolder (GET and webhook)', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const body: Record<string, unknown> = {
      ...usdBank(w.customerId),
      paymentAccountHolder: holder('US', { stateRegionOrProvince: 'NY' }),
    };
    delete body.accountHolder;
    const created = await w.c.post('/v1/accounts', body);
    expect(created.status).toBe(201);
    expect(created.body.accountHolder).toEqual(holder('US', { stateRegionOrProvince: 'NY' }));
    const got = await w.c.get(`/v1/accounts/${created.body.id}`);
    expect(got.body.accountHolder).toEqual(holder('US', { stateRegionOrProvince: 'NY' }));
    expect(got.body.paymentAccountHolder).toEqual(holder('US', { stateRegionOrProvince: 'NY' })); // the old copy, until 2026-03-04
    const event = w.sb.state.recentEvents.find(
      (e) => e.type === 'account.created' && e.data.id === created.body.id,
    )!;
    expect(event.data.accountHolder).toEqual(holder('US', { stateRegionOrProvince: 'NY' }));
    expect(event.data).not.toHaveProperty('paymentAccountHolder');
  });

  it('from 2026-03-04 GET /accounts and GET /accounts/:id carry accountHolder and no paymentAccountHolder', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    expect((await w.c.get(`/v1/accounts/${w.bankId}`)).body.paymentAccountHolder).toBeDefined();
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    const one = (await w.c.get(`/v1/accounts/${w.bankId}`)).body;
    expect(one.accountHolder).toBeDefined();
    expect(one).not.toHaveProperty('paymentAccountHolder');
    const list = (await w.c.get('/v1/accounts')).body.data as Array<Record<string, unknown>>;
    expect(list.length).toBeGreaterThan(0);
    for (const a of list) expect(a).not.toHaveProperty('paymentAccountHolder');
  });
});

describe('SWIFT payment to an individual needs bank.routingNumber at payment time (2026-07-31)', () => {
  it('accepted the day before, refused from the date when the account does not list SWIFT; accepted with routingNumber', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const php = (routingNumber?: string) => ({
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: w.customerId,
      currencyCode: 'PHP',
      bank: {
        name: 'BPI',
        countryCode: 'PH',
        accountNumber: '001234567890',
        bicSwift: 'BOPIPHMM',
        ...(routingNumber ? { routingNumber } : {}),
      },
      accountHolder: holder('PH'),
    });
    const bare = await account(w.sb, php());
    const withAba = await account(w.sb, php('021000021'));
    const pay = (id: string) =>
      unfundedPayment(id, { destination: { currencyCode: 'PHP', rail: 'SWIFT', accountId: id } });
    expect((await w.c.post('/v1/payments', pay(bare))).status).toBe(201);
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const refused = await w.c.post('/v1/payments', pay(bare));
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields).toEqual([
      expect.objectContaining({ path: 'destination.accountId', rule: 'SWIFT_INDIVIDUAL_ROUTING_NUMBER' }),
    ]);
    expect((await w.c.post('/v1/payments', pay(withAba))).status).toBe(201);
    // LOCAL to the same account is not SWIFT: accepted
    expect(
      (
        await w.c.post(
          '/v1/payments',
          unfundedPayment(bare, { destination: { currencyCode: 'PHP', rail: 'LOCAL', accountId: bare } }),
        )
      ).status,
    ).toBe(201);
  });
});

describe('account requirements by date', () => {
  it('EUR and GBP list the holder postal code from 2026-07-31 only', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const names = async (country: string, currency: string) =>
      (
        (await w.c.get(`/v1/accounts/requirements?bankCountryCode=${country}&currencyCode=${currency}`))
          .body as Array<{ variableName: string }>
      ).map((i) => i.variableName);
    expect(await names('DE', 'EUR')).not.toContain('accountHolder.address.postalCode');
    expect(await names('GB', 'GBP')).not.toContain('accountHolder.address.postalCode');
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    expect(await names('DE', 'EUR')).toContain('accountHolder.address.postalCode');
    expect(await names('GB', 'GBP')).toContain('accountHolder.address.postalCode');
  });

  it('CAD: before 2026-07-31 transitNumber in either form (8 digits old, 5 digits split) and no required bankCode; from it the split form', async () => {
    const w = await world('2026-07-30T12:00:00.000Z');
    const items = async () =>
      (await w.c.get('/v1/accounts/requirements?bankCountryCode=CA&currencyCode=CAD')).body as Array<{
        variableName: string;
        regex: string;
      }>;
    const before = await items();
    const transit = before.find((i) => i.variableName === 'bank.transitNumber')!;
    expect(new RegExp(transit.regex).test('00012004')).toBe(true);
    expect(new RegExp(transit.regex).test('00012')).toBe(true);
    expect(before.map((i) => i.variableName)).not.toContain('bank.bankCode');
    await w.c.setNow('2026-07-31T00:00:00.000Z');
    const after = await items();
    expect(after.map((i) => i.variableName)).toEqual(
      expect.arrayContaining(['bank.transitNumber', 'bank.bankCode']),
    );
    expect(
      new RegExp(after.find((i) => i.variableName === 'bank.transitNumber')!.regex).test('00012004'),
    ).toBe(false);
  });
});

describe('default rails by the bank country (spec: Account, rails)', () => {
  it('a USD account at a non-US bank gets no ACH rails; a US bank gets ACH, ACH_SAME_DAY, DOMESTIC_WIRE; a BR bank TED', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const gb = await w.c.post('/v1/accounts', {
      ...usdBank(w.customerId),
      bank: { name: 'Barclays', countryCode: 'GB', accountNumber: '31926819', sortCode: '601613' },
    });
    expect(gb.status).toBe(201);
    expect(gb.body.rails).toBeUndefined();
    expect((await w.c.get(`/v1/accounts/${w.bankId}`)).body.rails).toEqual([
      'ACH',
      'ACH_SAME_DAY',
      'DOMESTIC_WIRE',
    ]);
    const br = await w.c.post('/v1/accounts', {
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
      accountHolder: holder('BR'),
    });
    expect(br.body.rails).toEqual(['TED']);
  });
});

describe('deposits moved into PAYIN payments on 2025-09-30 (DEPOSITS_ENDED)', () => {
  it('a deposit made before 2025-09-08 is not a payment before 2025-09-30 and is a COMPLETED PAYIN (same id) from it, with no webhook', async () => {
    const w = await world('2025-09-07T12:00:00.000Z');
    const virtualId = await account(w.sb, usdVirtual(w.customerId));
    const dep = (await w.c.post(`/sandbox/accounts/${virtualId}/deposit`, { amount: 10 })).body.deposit;
    expect(dep).toMatchObject({ accountId: virtualId, amount: 10 });
    await w.c.setNow('2025-09-29T23:59:59.000Z');
    expect((await w.c.get(`/v1/payments/${dep.id}`)).status).toBe(404);
    expect((await w.c.get('/v1/payments?type=PAYIN')).body.data).toEqual([]);
    const eventsBefore = w.sb.state.recentEvents.length;
    await w.c.setNow('2025-09-30T00:00:00.000Z');
    const moved = await w.c.get(`/v1/payments/${dep.id}`);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      id: dep.id,
      type: 'PAYIN',
      status: 'COMPLETED',
      customerId: w.customerId,
      destination: { accountId: virtualId, amount: 10, currencyCode: 'USD' },
    });
    expect(moved.body.lifecycle.createdAt).toBe(dep.createdAt);
    expect((await w.c.get('/v1/payments?type=PAYIN')).body.data.map((p: { id: string }) => p.id)).toEqual([
      dep.id,
    ]);
    expect(w.sb.state.recentEvents.length).toBe(eventsBefore);
    // the balance was credited once, at the deposit
    expect(w.sb.state.data.balances[virtualId]).toBe(10);
  });
});

describe('customer capabilities (spec: Customer)', () => {
  const eurWallet = async (w: Awaited<ReturnType<typeof world>>) =>
    account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['POLYGON'],
      walletAddress: '0x3333333333333333333333333333333333333333',
      accountHolder: holder('DE'),
    });
  const eurBank = async (w: Awaited<ReturnType<typeof world>>) =>
    account(w.sb, {
      type: 'EXTERNAL_BANK_ACCOUNT',
      accountType: 'CHECKING',
      customerId: w.customerId,
      currencyCode: 'EUR',
      bank: { name: 'DB', countryCode: 'DE', iban: 'DE89370400440532013000', bicSwift: 'DEUTDEFF' },
      accountHolder: holder('DE'),
    });
  const toUsd = (w: Awaited<ReturnType<typeof world>>) => unfundedPayment(w.bankId);
  const toEur = (id: string) =>
    unfundedPayment(id, { destination: { currencyCode: 'EUR', rail: 'LOCAL', accountId: id } });
  const eurOnramp = (id: string) => ({
    source: { currencyCode: 'EUR', amount: 100, rail: 'LOCAL' },
    destination: { currencyCode: 'USDC', rail: 'POLYGON', accountId: id },
    paymentReason: 'GIFTS',
  });

  it('["OTHER"] must not reach USD corridors; other corridors and EUR onramps are open', async () => {
    const w = await world('2026-04-01T10:00:00.000Z', { capabilities: ['OTHER'] });
    const refused = await w.c.post('/v1/payments', toUsd(w));
    expect([refused.status, rules(refused)]).toEqual([400, ['CAPABILITY_MISSING']]);
    expect((await w.c.post('/v1/payments', toEur(await eurBank(w)))).status).toBe(201);
    expect((await w.c.post('/v1/payments', eurOnramp(await eurWallet(w)))).status).toBe(201);
  });

  it('["USD"] covers USD corridors and EUR onramps, not other corridors', async () => {
    const w = await world('2026-04-01T10:00:00.000Z', { capabilities: ['USD'] });
    expect((await w.c.post('/v1/payments', toUsd(w))).status).toBe(201);
    expect((await w.c.post('/v1/payments', eurOnramp(await eurWallet(w)))).status).toBe(201);
    const refused = await w.c.post('/v1/payments', toEur(await eurBank(w)));
    expect([refused.status, rules(refused)]).toEqual([400, ['CAPABILITY_MISSING']]);
  });

  it.each([[undefined], [['USD', 'OTHER']]])('capabilities %j → every corridor', async (capabilities) => {
    const w = await world('2026-04-01T10:00:00.000Z', capabilities ? { capabilities } : {});
    expect((await w.c.post('/v1/payments', toUsd(w))).status).toBe(201);
    expect((await w.c.post('/v1/payments', toEur(await eurBank(w)))).status).toBe(201);
  });
});

describe('liquidationInformation (deprecated, removal postponed) still converts', () => {
  it('a deposit to a virtual account with liquidationInformation naming the liquidation account → PAYIN + conversion; an unknown account → 400', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const wallet = await account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['POLYGON'],
      walletAddress: '0x4444444444444444444444444444444444444444',
      accountHolder: holder('US'),
    });
    const auto = await account(
      w.sb,
      usdVirtual(w.customerId, { liquidationInformation: { liquidationAccountId: wallet } }),
    );
    const res = await w.c.post(`/sandbox/accounts/${auto}/deposit`, { amount: 50 });
    expect(res.body.payin).toMatchObject({ type: 'PAYIN' });
    expect(res.body.conversion).toMatchObject({
      type: 'PAYOUT',
      paymentReason: 'AUTO_LIQUIDATION',
      destination: { accountId: wallet, currencyCode: 'USDC' },
    });
    const unknown = await w.c.post(
      '/v1/accounts',
      usdVirtual(w.customerId, { liquidationInformation: { accountId: 'acc_nope' } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields[0]).toMatchObject({
      path: 'liquidationInformation',
      rule: 'ACCOUNT_NOT_FOUND',
    });
  });
});

describe('Decisions revisited', () => {
  it('team-alias emails: the team address and its plus-aliases are refused, a colleague at the same domain is not', async () => {
    const sb = await sandbox({ asOf: '2026-04-01T10:00:00.000Z', teamEmail: 'team@xborder.test' });
    running.push(sb);
    const c = client(sb);
    const alias = await c.post('/v1/customers', individual({ email: 'Team+c1@xborder.test' }));
    expect([alias.status, rules(alias)]).toEqual([400, ['TEAM_ALIAS_EMAIL']]);
    expect((await c.post('/v1/customers', individual({ email: 'alice@xborder.test' }))).status).toBe(201);
  });

  it('POST /payments/corridors honours the idempotency key the client sends (replay; other body → 409) and needs none', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const filter = { destination: { currencyCode: 'BRL' } };
    const first = await w.c.post('/v1/payments/corridors', filter, { 'x-idempotency-key': 'corr-1' });
    const again = await w.c.post('/v1/payments/corridors', filter, { 'x-idempotency-key': 'corr-1' });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await w.c.post(
      '/v1/payments/corridors',
      { destination: { currencyCode: 'INR' } },
      { 'x-idempotency-key': 'corr-1' },
    );
    expect(other.status).toBe(409);
    const res = await fetch(`${w.sb.url}/v1/payments/corridors`, {
      method: 'POST',
      headers: { 'x-api-key': w.sb.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(filter),
    });
    expect(res.status).toBe(200);
    // an empty key is not "no key"
    expect((await w.c.post('/v1/payments/corridors', filter, { 'x-idempotency-key': '' })).status).toBe(400);
  });
});

describe('one-sided tests completed', () => {
  it('late funding notice from 2026-03-30 for funds sent before quote expiry, after the payment EXPIRED (3 business days): stays EXPIRED, refunded (row 4), unlike row 5 before the date', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const p = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body;
    await w.c.advance('P6D');
    expect((await w.status(p.id)).status).toBe('EXPIRED');
    const sentAt = new Date(Date.parse(p.quote.expiresAt) - 60_000).toISOString();
    const res = await w.c.post(`/sandbox/payments/${p.id}/fund`, { sentAt });
    expect(res.body).toMatchObject({
      status: 'EXPIRED',
      error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' },
    });
    expect(res.body.lifecycle.refundedAt).not.toBeNull();
    expect(res.body.lifecycle.sentAt).toBeNull();
  });

  it('payment webhooks from 2026-03-30 carry exactly the current fields (no old field at any level)', async () => {
    const w = await world('2026-03-30T00:00:00.000Z');
    const p = (await w.c.post('/v1/payments', unfundedPayment(w.bankId, { reference: 'r-1' }))).body;
    await w.c.post(`/sandbox/payments/${p.id}/fund`, {});
    await w.c.advance('PT10S');
    const events = w.sb.state.recentEvents.filter((e) => e.type.startsWith('payment.') && e.data.id === p.id);
    expect(events.map((e) => e.data.status)).toEqual([
      'AWAITING_FUNDS',
      'PENDING',
      'PROCESSING',
      'SENT',
      'COMPLETED',
    ]);
    const keys = (o: unknown) => Object.keys(o as object).sort();
    for (const { data } of events) {
      PaymentSchema.parse(data);
      expect(keys(data)).toEqual([
        'comment',
        'configurations',
        'customerId',
        'destination',
        'developerFee',
        'error',
        'fee',
        'files',
        'fundingInstructions',
        'id',
        'lifecycle',
        'paymentReason',
        'quote',
        'reference',
        'returnAddress',
        'source',
        'status',
        'statusReasons',
        'tracking',
        'type',
      ]);
      expect(keys(data.lifecycle)).toEqual(['completedAt', 'createdAt', 'expiredAt', 'refundedAt', 'sentAt']);
      expect(keys(data.source)).toEqual([
        'accountId',
        'amount',
        'currencyCode',
        'fromAccountNumber',
        'fromAddress',
        'rail',
        'transactionHash',
      ]);
      expect(keys(data.destination)).toEqual([
        'accountId',
        'amount',
        'currencyCode',
        'rail',
        'transactionHash',
      ]);
      expect(keys(data.fundingInstructions)).toEqual([
        'amount',
        'currencyCode',
        'fromAddress',
        'rail',
        'toAddress',
      ]);
      expect(keys(data.tracking)).toEqual(['certificate', 'imad', 'omad', 'traceNumber', 'uetr']);
      expect(keys(data.quote)).toEqual(['exchangeRate', 'expiresAt']);
      expect(keys(data.developerFee)).toEqual(['fixed', 'total', 'variable']);
      expect(keys(data.configurations)).toEqual(['expiredQuoteBehavior']);
    }
  });
});

describe('HTTP: 405 with Allow, HEAD, the OpenAPI document', () => {
  it('a known path with another method → 405 METHOD_NOT_ALLOWED with Allow; HEAD is answered like GET without a body', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const del = await w.c.call('DELETE', '/v1/payments');
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(del.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const trace = await w.c.call('PUT', '/sandbox/clock');
    expect(trace.status).toBe(405);
    expect(trace.headers.get('allow')).toContain('POST');
    const head = await fetch(`${w.sb.url}/v1/payments/corridors`, {
      method: 'HEAD',
      headers: { 'x-api-key': w.sb.apiKey },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect((await fetch(`${w.sb.url}/v1/payments/corridors`, { method: 'HEAD' })).status).toBe(401);
  });

  it('the OpenAPI document names the query parameters and a response schema for every route', async () => {
    const w = await world('2026-04-01T10:00:00.000Z');
    const doc = (await w.c.get('/openapi.json')).body;
    const query = (path: string) =>
      (doc.paths[path].get.parameters as Array<{ in: string; name: string; required: boolean }>).filter(
        (p) => p.in === 'query',
      );
    expect(
      query('/v1/payments/rate')
        .filter((p) => p.required)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['destinationCurrencyCode', 'destinationRail', 'sourceCurrencyCode', 'sourceRail']);
    expect(query('/v1/payments/rate').map((p) => p.name)).toEqual(
      expect.arrayContaining(['sourceAmount', 'destinationAmount', 'sourceChain', 'destinationChain']),
    );
    expect(query('/v1/accounts/requirements').map((p) => [p.name, p.required])).toEqual([
      ['bankCountryCode', true],
      ['currencyCode', true],
    ]);
    for (const path of [
      '/v1/payments',
      '/v1/customers',
      '/v1/accounts',
      '/v1/payments/customer/{customerId}',
    ]) {
      expect(query(path).map((p) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor']));
    }
    for (const [path, ops] of Object.entries(
      doc.paths as Record<
        string,
        Record<
          string,
          { responses: Record<string, { content: { 'application/json': { schema: unknown } } }> }
        >
      >,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        const ok = Object.entries(op.responses).find(([code]) => code.startsWith('2'))!;
        expect({ route: `${method} ${path}`, schema: ok[1].content['application/json'].schema }).toEqual({
          route: `${method} ${path}`,
          schema: { $ref: expect.stringMatching(/^#\/components\/schemas\//) },
        });
      }
    }
    expect(doc.servers[0].url).toBe(w.sb.url); // paths carry /v1 themselves
    expect(doc.paths['/v1/configurations/corridors'].get.deprecated).toBe(true);
    expect(doc.paths['/v1/payments/corridors'].post.requestBody.required).toBe(false);
    expect(doc.paths['/v1/payments'].post.responses['201'].links.GetPayment).toEqual({
      operationId: 'GET_v1_payments_id',
      parameters: { id: '$response.body#/id' },
    });
  });
});
