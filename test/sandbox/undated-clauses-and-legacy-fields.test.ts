// Rules the spec gives no date of their own, through the sandbox's HTTP API: they hold on both sides of the
// dates they used to borrow (spec: Customer, estimatedAnnualRevenueUSD; POST /payments body, legacy fields;
// Rate, legacy shape; States and transitions row 4).
import { DEMO_CUSTOMERS } from '../../src/sandbox/demo-data';
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  uid,
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
  const bankId = await account(sb, usdBank(customerId));
  return { sb, c, customerId, bankId };
}

const rules = (res: { body: any }) => (res.body.error?.fields ?? []).map((f: { rule: string }) => f.rule);
const business = (overrides: Record<string, unknown> = {}) => ({
  ...structuredClone(DEMO_CUSTOMERS[1]!.body),
  email: `biz.${uid('e')}@example.com`,
  ...overrides,
});

describe('one reading of a date in a table cell: it binds only its own clause', () => {
  it.each(['2025-10-01T10:00:00.000Z', '2026-07-30T23:59:00.000Z', '2026-07-31T00:00:00.000Z'])(
    'at %s the faulty annual-revenue values are refused (naming the replacement) and the replacements accepted',
    async (asOf) => {
      const w = await world(asOf);
      for (const [faulty, replacement] of [
        ['OVER_TWENTY_FIVE_MILLION', 'OVER_TWO_HUNDRED_AND_FIFTY_MILLION'],
        ['FIFTY_MILLION_TO_TWENTY_FIVE_MILLION', 'FIFTY_MILLION_TO_TWO_HUNDRED_AND_FIFTY_MILLION'],
      ]) {
        const refused = await w.c.post('/v1/customers', business({ estimatedAnnualRevenueUSD: faulty }));
        expect([refused.status, rules(refused)]).toEqual([400, ['ANNUAL_REVENUE_VALUES']]);
        expect(refused.body.error.fields[0].message).toContain(replacement);
        expect(
          (await w.c.post('/v1/customers', business({ estimatedAnnualRevenueUSD: replacement }))).status,
        ).toBe(201);
      }
    },
  );

  it.each(['2025-10-01T10:00:00.000Z', '2026-08-03T10:00:00.000Z'])(
    'at %s a person from a country high risk at that date needs a selfie (the same reading)',
    async (asOf) => {
      const w = await world(asOf);
      // Albania is high risk until 2026-07-31, Thailand from it (spec: Customer, country risk lists).
      const country = asOf < '2026-07-31' ? 'AL' : 'TH';
      const res = await w.c.post(
        '/v1/customers',
        business({
          associatedPersons: [{ firstName: 'P', lastName: 'Q', title: 'CFO', countryCode: country }],
        }),
      );
      expect([res.status, rules(res)]).toEqual([400, ['HIGH_RISK_PERSON_SELFIE']]);
    },
  );
});

describe('documentReference in a POST /payments body: a legacy field with no date, accepted and ignored at every date', () => {
  it('accepted the day before 2026-03-30, on it and after 2026-07-31; never echoed', async () => {
    const w = await world('2026-03-29T12:00:00.000Z');
    const body = unfundedPayment(w.bankId, { documentReference: 'doc-7' });
    const before = await w.c.post('/v1/payments', body);
    expect(before.status).toBe(201);
    expect((await w.c.get(`/v1/payments/${before.body.id}`)).body.documentReference).toBeNull(); // transitional field, empty
    for (const now of ['2026-03-30T00:00:00.000Z', '2026-08-03T10:00:00.000Z']) {
      await w.c.setNow(now);
      const res = await w.c.post('/v1/payments', body);
      expect({ now, status: res.status, fields: res.body.error?.fields }).toEqual({
        now,
        status: 201,
        fields: undefined,
      });
      expect(res.body).not.toHaveProperty('documentReference');
    }
  });
});

describe('GET /payments/rate: the legacy rail CRYPTO needs no chain parameter (the spec shows none)', () => {
  const rate = (q: Record<string, string>) =>
    `/v1/payments/rate?${new URLSearchParams({ sourceAmount: '100', ...q })}`;
  const source = rate({
    sourceCurrencyCode: 'USDC',
    destinationCurrencyCode: 'USD',
    sourceRail: 'CRYPTO',
    destinationRail: 'ACH',
  });
  const destination = rate({
    sourceCurrencyCode: 'USD',
    destinationCurrencyCode: 'USDC',
    sourceRail: 'ACH',
    destinationRail: 'CRYPTO',
  });

  it('before 2026-03-04 CRYPTO without a chain is priced as one bucket (same fees as a named chain); from the date 400 CRYPTO_RAIL_REMOVED', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    for (const q of [source, destination]) {
      const res = await w.c.get(q);
      expect([res.status, res.body.error]).toEqual([200, undefined]);
      expect(res.body.calculatedAmount.description).toContain('via CRYPTO');
      const named = await w.c.get(`${q}&${q === source ? 'sourceChain' : 'destinationChain'}=POLYGON`);
      expect(res.body.serviceFee).toEqual(named.body.serviceFee);
      expect(res.body.calculatedAmount.destinationAmount).toBe(named.body.calculatedAmount.destinationAmount);
    }
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    for (const q of [source, destination]) {
      const res = await w.c.get(q);
      expect([res.status, rules(res)]).toEqual([400, ['CRYPTO_RAIL_REMOVED']]);
    }
  });
});

describe('POST /payments: destination.rail CRYPTO needs no destination.chain (not among the spec request fields)', () => {
  it('before 2026-03-04 the destination wallet own chain is used; from the date 400 CRYPTO_RAIL_REMOVED; source.chain (a spec field) stays required', async () => {
    const w = await world('2026-03-03T12:00:00.000Z');
    const wallet = await account(w.sb, {
      type: 'EXTERNAL_DIGITAL_ASSET_WALLET',
      customerId: w.customerId,
      currencyCode: 'USDC',
      rails: ['BASE'],
      walletAddress: '0x7777777777777777777777777777777777777777',
      accountHolder: { type: 'INDIVIDUAL', firstName: 'A', lastName: 'L', address: { countryCode: 'US' } },
    });
    const body = unfundedPayment(wallet, {
      destination: { currencyCode: 'USDC', rail: 'CRYPTO', accountId: wallet },
    });
    const before = await w.c.post('/v1/payments', body);
    expect([before.status, before.body.destination?.rail]).toEqual([201, 'BASE']);
    const noSourceChain = await w.c.post('/v1/payments', {
      ...body,
      source: { currencyCode: 'USDC', amount: 100, rail: 'CRYPTO' },
    });
    expect([noSourceChain.status, rules(noSourceChain)]).toEqual([400, ['CRYPTO_NEEDS_CHAIN']]);
    await w.c.setNow('2026-03-04T00:00:00.000Z');
    const after = await w.c.post('/v1/payments', body);
    expect([after.status, rules(after)]).toEqual([400, ['CRYPTO_RAIL_REMOVED']]);
  });
});

describe('a second late funding notice after a refund is refunded again (States and transitions row 4), never 409', () => {
  const sentAfterExpiry = (p: { quote: { expiresAt: string } }) =>
    new Date(Date.parse(p.quote.expiresAt) + 60_000).toISOString();

  it.each(['2026-03-25T10:00:00.000Z', '2026-04-01T10:00:00.000Z'])(
    'at %s: still AWAITING_FUNDS, then after EXPIRED',
    async (asOf) => {
      const w = await world(asOf);
      const p = (await w.c.post('/v1/payments', unfundedPayment(w.bankId))).body;
      await w.c.advance('PT20M');
      const first = await w.c.post(`/sandbox/payments/${p.id}/fund`, {});
      expect(first.body.lifecycle.refundedAt).not.toBeNull();
      await w.c.advance('PT1M');
      const second = await w.c.post(`/sandbox/payments/${p.id}/fund`, {});
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ status: first.body.status, error: { code: expect.any(String) } });
      expect(Date.parse(second.body.lifecycle.refundedAt)).toBeGreaterThan(
        Date.parse(first.body.lifecycle.refundedAt),
      );
      await w.c.advance('P6D');
      const expired = (await w.c.get(`/v1/payments/${p.id}`)).body;
      expect(expired.status).toBe('EXPIRED');
      const third = await w.c.post(`/sandbox/payments/${p.id}/fund`, { sentAt: sentAfterExpiry(p) });
      expect(third.status).toBe(200);
      expect(third.body.status).toBe('EXPIRED');
      expect(Date.parse(third.body.lifecycle.refundedAt)).toBeGreaterThan(
        Date.parse(second.body.lifecycle.refundedAt),
      );
      const updates = w.sb.state.recentEvents.filter(
        (e) => e.type === 'payment.updated' && e.data.id === p.id,
      ).length;
      expect(updates).toBe(4); // three refunds and the expiry
    },
  );
});
