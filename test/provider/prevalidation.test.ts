// Pre-validation: creating calls are refused locally, with every violation, by the date in use.
import { createProviderClient, LocalValidationError } from '../../src/provider';
import { currentPaymentJson, uid } from './support/fixtures';
import { type FakeServer, sendJson, startFakeServer } from './support/fake-server';

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
  server.handle((_req, res) => sendJson(res, 201, currentPaymentJson()));
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

// Deprecated CRYPTO and WIRE rails, the removed memo and the refused OTHER reason (spec: Rail values,
// Payment reason values, Versioning 3).
const oldStyleBody = {
  source: { currencyCode: 'USDC', amount: 100, rail: 'CRYPTO', chain: 'POLYGON', fromAddress: '0xabc' },
  destination: { currencyCode: 'EUR', rail: 'WIRE', accountId: 'acc_1' },
  paymentReason: 'OTHER',
  memo: 'inv-1',
};

async function refusal(p: Promise<unknown>): Promise<LocalValidationError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LocalValidationError);
    return e as LocalValidationError;
  }
  throw new Error('expected a local refusal');
}

describe('pre-validation', () => {
  it('refuses with every violation in force on asOf, before any request is sent', async () => {
    const client = createProviderClient({
      baseUrl: server.url,
      apiKey: 'k',
      asOf: new Date('2026-08-10T00:00:00Z'),
    });
    const error = await refusal(client.payments.create(oldStyleBody as never, { idempotencyKey: uid('k') }));
    expect(error.fields.map((f) => f.path).sort()).toEqual([
      'destination.rail',
      'memo',
      'paymentReason',
      'source.chain',
      'source.rail',
    ]);
    expect(error.fields.map((f) => f.rule)).toContain('REASON_OTHER_REFUSED');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/2026-08-10/);
    expect(error.message).toMatch(/paymentReason/);
    expect(server.requests).toHaveLength(0);
  });

  it('lets the same body through on a date before those rules, and a per-call asOf wins over the client one', async () => {
    const client = createProviderClient({
      baseUrl: server.url,
      apiKey: 'k',
      asOf: new Date('2026-08-10T00:00:00Z'),
    });
    await client.payments.create(oldStyleBody as never, {
      idempotencyKey: uid('k'),
      asOf: new Date('2026-01-10T00:00:00Z'),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('follows a moving clock given as a function', async () => {
    let now = new Date('2026-01-10T00:00:00Z');
    const client = createProviderClient({ baseUrl: server.url, apiKey: 'k', asOf: () => now });
    await client.payments.create(oldStyleBody as never, { idempotencyKey: uid('k') });
    now = new Date('2026-04-01T00:00:00Z');
    const error = await refusal(client.payments.create(oldStyleBody as never, { idempotencyKey: uid('k') }));
    expect(error.fields.map((f) => f.rule)).toContain('REASON_OTHER_REFUSED');
    expect(server.requests).toHaveLength(1);
  });

  it('can be turned off for the client or for one call', async () => {
    const off = createProviderClient({ baseUrl: server.url, apiKey: 'k', prevalidate: false });
    await off.payments.create(oldStyleBody as never, { idempotencyKey: uid('k') });
    const on = createProviderClient({ baseUrl: server.url, apiKey: 'k' });
    await on.payments.create(oldStyleBody as never, { idempotencyKey: uid('k'), prevalidate: false });
    expect(server.requests).toHaveLength(2);
  });

  it('checks customers and accounts too', async () => {
    const client = createProviderClient({
      baseUrl: server.url,
      apiKey: 'k',
      asOf: new Date('2026-04-01T00:00:00Z'),
    });
    const customer = await refusal(
      client.customers.create(
        {
          type: 'INDIVIDUAL',
          firstName: 'Ada',
          lastName: 'B',
          email: 'ada@example.org',
          birthDate: '1950-01-01',
        } as never,
        { idempotencyKey: uid('k') },
      ),
    );
    expect(customer.fields.map((f) => f.path)).toContain('birthDate');
    expect(customer.path).toBe('/v1/customers');
    const account = await refusal(
      client.accounts.create({ type: 'NOT_A_TYPE' } as never, { idempotencyKey: uid('k') }),
    );
    expect(account.fields.length).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(0);
  });
});
