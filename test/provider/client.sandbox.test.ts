// The client against a real sandbox instance: every method, every error kind (with the sandbox's fault
// injection, afterCommit included), paging, normalisation of a transitional payload, pre-validation,
// requirement checks and webhook verification of the sandbox's own deliveries.
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import got from 'got';
import { startSandbox } from '../../src/sandbox';
import {
  AuthError,
  checkAccountAgainstRequirements,
  createProviderClient,
  expectedQuoteAmounts,
  compareQuoteAmounts,
  IdempotencyConflictError,
  LocalValidationError,
  NetworkError,
  NotFoundError,
  parseWebhookEvent,
  type ProviderClient,
  ProviderError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  ValidationError,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/provider';
import { individualCustomer, usBankAccount, usdcToAch } from './support/bodies';
import { control } from './support/sandbox-control';
import { uid } from './support/fixtures';

const API_KEY = 'sk_sandbox_provider_tests';
const ALLOWLISTED_KEY = 'sk_sandbox_allowlisted';
// After every dated rule of the spec (2026-07-31): the client is checked against the strictest service.
const AFTER_ALL_RULES = '2026-08-04T12:00:00.000Z';

interface Delivery {
  headers: http.IncomingHttpHeaders;
  body: string;
}

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let receiver: http.Server;
const deliveries: Delivery[] = [];
let ctl: ReturnType<typeof control>;
let client: ProviderClient;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    asOf: AFTER_ALL_RULES,
    apiKeys: [{ key: API_KEY }, { key: ALLOWLISTED_KEY, allowedIps: ['10.9.8.7'] }],
    webhookUrls: [receiverUrl],
    rateLimit: false,
    log: null,
  });
  ctl = control(sandbox);
  // Pre-validation follows the sandbox's clock, as a worker pointed at the sandbox would.
  client = createProviderClient({
    baseUrl: sandbox.url,
    apiKey: API_KEY,
    asOf: () => sandbox.clock.now(),
    timeoutMs: 5_000,
  });
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

afterEach(async () => {
  await ctl.clearFaults();
});

async function caught(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected the call to fail');
}

/** An approved customer (payments need one) with a US bank account. */
async function customerAndAccount(c: ProviderClient = client, controls = ctl) {
  const customer = await c.customers.create(individualCustomer(), { idempotencyKey: uid('cus') });
  await controls.approveCustomer(customer.id);
  const account = await c.accounts.create(usBankAccount(customer.id), { idempotencyKey: uid('acc') });
  return { customer, account };
}

describe('every method against the sandbox', () => {
  it('customers.create returns the customer in review; the same key and body replays the first answer', async () => {
    const body = individualCustomer();
    const key = uid('cus');
    const first = await client.customers.create(body, { idempotencyKey: key });
    expect(first).toMatchObject({ type: 'INDIVIDUAL', status: 'PENDING_REVIEW', email: body.email });
    const again = await client.customers.create(body, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
  });

  it('accounts.create, get, list with paging, listAll', async () => {
    const customer = await client.customers.create(individualCustomer(), { idempotencyKey: uid('cus') });
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push(await client.accounts.create(usBankAccount(customer.id), { idempotencyKey: uid('acc') }));
    }
    const fetched = await client.accounts.get(created[0]!.id);
    expect(fetched).toMatchObject({ id: created[0]!.id, type: 'EXTERNAL_BANK_ACCOUNT', currencyCode: 'USD' });
    expect(fetched.accountHolder?.address.countryCode).toBe('US');

    const firstPage = await client.accounts.list({ limit: 2, customerId: customer.id });
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.nextCursor).not.toBeNull();
    const pages = [];
    for await (const page of client.accounts.listPages({ limit: 2, customerId: customer.id }))
      pages.push(page.data.map((a) => a.id));
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    const all = [];
    for await (const account of client.accounts.listAll({ limit: 1, customerId: customer.id }))
      all.push(account.id);
    expect(all.sort()).toEqual(created.map((a) => a.id).sort());
  });

  it('accounts.requirements, and the requirement check of a good and a broken account body', async () => {
    const requirements = await client.accounts.requirements({ bankCountryCode: 'US', currencyCode: 'USD' });
    expect(requirements.map((r) => r.variableName)).toEqual(
      expect.arrayContaining(['bank.accountNumber', 'bank.routingNumber']),
    );
    expect(checkAccountAgainstRequirements(usBankAccount('cus_x'), requirements)).toEqual([]);
    const broken = usBankAccount('cus_x', {
      bank: { name: 'Test Bank', countryCode: 'US', accountNumber: '12ab' },
    });
    expect(checkAccountAgainstRequirements(broken, requirements).map((m) => [m.path, m.rule])).toEqual([
      ['bank.accountNumber', 'regex'],
      ['bank.routingNumber', 'required'],
    ]);
  });

  it('corridors.list and corridors.create return current corridors', async () => {
    const corridors = await client.corridors.list();
    expect(corridors.length).toBeGreaterThan(0);
    expect(
      corridors.some((c) => c.source.currencyCodes.includes('USDC') && c.destination.rails.includes('ACH')),
    ).toBe(true);
    const filtered = await client.corridors.create(
      { destination: { currencyCode: 'BRL' } },
      { idempotencyKey: uid('cor') },
    );
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((c) => c.destination.currencyCodes.includes('BRL'))).toBe(true);
  });

  it('rates.get returns a rate whose amounts match the contract fee math', async () => {
    const rate = await client.rates.get({
      sourceCurrency: 'USDC',
      destinationCurrency: 'USD',
      sourceRail: 'POLYGON',
      destinationRail: 'ACH',
      sourceAmount: 250,
    });
    expect(rate.quoteId).toEqual(expect.any(String));
    const expected = expectedQuoteAmounts(
      rate,
      { sourceAmount: 250 },
      { sourceCurrency: 'USDC', destinationCurrency: 'USD' },
    );
    expect(compareQuoteAmounts(expected, rate.calculatedAmount)).toEqual([]);
    const withFee = await client.rates.get({
      sourceCurrency: 'USDC',
      destinationCurrency: 'USD',
      sourceRail: 'POLYGON',
      destinationRail: 'ACH',
      destinationAmount: 200,
      developerFee: { fixed: 1, variable: 0.01 },
    });
    expect(withFee.developerFee).toEqual({ fixed: 1, variable: 0.01 });
    expect(withFee.calculatedAmount.destinationAmount).toBeCloseTo(200, 2);
  });

  it('payments.create, get, list, listByCustomer (+ pages and all)', async () => {
    const { customer, account } = await customerAndAccount();
    const created = [];
    for (const amount of [100, 110, 120]) {
      created.push(
        await client.payments.create(usdcToAch(account.id, amount), { idempotencyKey: uid('pay') }),
      );
    }
    expect(created[0]).toMatchObject({ status: 'AWAITING_FUNDS', customerId: customer.id, type: 'EXTERNAL' });
    expect(created[0]!.source).toMatchObject({ amount: 100, currencyCode: 'USDC', rail: 'POLYGON' });

    const got1 = await client.payments.get(created[1]!.id);
    expect(got1.id).toBe(created[1]!.id);
    expect(got1).not.toHaveProperty('entityId');

    const page = await client.payments.listByCustomer(customer.id, { limit: 2 });
    expect(page.data).toHaveLength(2);
    const byPages = [];
    for await (const p of client.payments.listByCustomerPages(customer.id, { limit: 2 }))
      byPages.push(p.data.length);
    expect(byPages).toEqual([2, 1]);
    const all = [];
    for await (const p of client.payments.listByCustomerAll(customer.id, { limit: 2 })) all.push(p.id);
    expect(all.sort()).toEqual(created.map((p) => p.id).sort());

    const listed = [];
    for await (const p of client.payments.listAll({ limit: 50, customerId: customer.id })) listed.push(p.id);
    expect(listed.sort()).toEqual(created.map((p) => p.id).sort());
    expect((await client.payments.list({ limit: 1 })).data).toHaveLength(1);
  });
});

describe('error kinds from the sandbox', () => {
  it('ValidationError (400) with every field when pre-validation is off', async () => {
    const raw = createProviderClient({ baseUrl: sandbox.url, apiKey: API_KEY, prevalidate: false });
    const { account } = await customerAndAccount();
    const body = {
      ...usdcToAch(account.id),
      paymentReason: 'OTHER',
      destination: { currencyCode: 'USD', rail: 'WIRE', accountId: account.id },
    };
    const error = await caught(raw.payments.create(body, { idempotencyKey: uid('pay') }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(['paymentReason', 'destination.rail']),
    );
    expect(error.requestId).toMatch(/^req_/);
  });

  it('the same body is refused locally (LocalValidationError) when pre-validation is on, with the same paths', async () => {
    const { account } = await customerAndAccount();
    const body = {
      ...usdcToAch(account.id),
      paymentReason: 'OTHER',
      destination: { currencyCode: 'USD', rail: 'WIRE', accountId: account.id },
    };
    const error = await caught(client.payments.create(body, { idempotencyKey: uid('pay') }));
    expect(error).toBeInstanceOf(LocalValidationError);
    expect(error.fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(['paymentReason', 'destination.rail']),
    );
  });

  it('AuthError: 401 for an unknown key, 403 for an allowlisted key from another address (IP allowlist)', async () => {
    const wrongKey = createProviderClient({ baseUrl: sandbox.url, apiKey: 'sk_sandbox_unknown' });
    const unauthorized = await caught(wrongKey.payments.get('pay_x'));
    expect(unauthorized).toBeInstanceOf(AuthError);
    expect(unauthorized.status).toBe(401);
    const allowlisted = createProviderClient({ baseUrl: sandbox.url, apiKey: ALLOWLISTED_KEY });
    const forbidden = await caught(allowlisted.payments.get('pay_x'));
    expect(forbidden).toBeInstanceOf(AuthError);
    expect(forbidden.status).toBe(403);
    expect(forbidden.message).toMatch(/IP allowlist/);
    // a configuration fault of ours: retryable, minutes apart (activities/errors.ts), once the allowlist is fixed
    expect(forbidden.retryable).toBe(true);
  });

  it('NotFoundError (404)', async () => {
    const error = await caught(client.payments.get(uid('pay')));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe('NOT_FOUND');
  });

  it('IdempotencyConflictError (409) when a key is reused with another body', async () => {
    const key = uid('cus');
    await client.customers.create(individualCustomer(), { idempotencyKey: key });
    const error = await caught(client.customers.create(individualCustomer('Byron'), { idempotencyKey: key }));
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect(error.retryable).toBe(false);
  });

  it('RateLimitedError (429) with retryAfterMs from the sandbox Retry-After', async () => {
    await ctl.addFault({ route: 'GET /v1/payments/corridors', status: 429, count: 1 });
    const error = await caught(client.corridors.list());
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(1000);
    expect(error.retryable).toBe(true);
  });

  it('with retry on, a 429 is retried after Retry-After and succeeds', async () => {
    await ctl.addFault({ route: 'GET /v1/payments/corridors', status: 429, count: 1 });
    const retrying = createProviderClient({ baseUrl: sandbox.url, apiKey: API_KEY, retry: { limit: 2 } });
    expect((await retrying.corridors.list()).length).toBeGreaterThan(0);
  });

  it('ServerError (500) before commit: retryable; nothing was created', async () => {
    const { customer, account } = await customerAndAccount();
    await ctl.addFault({ route: 'POST /v1/payments', status: 500, count: 1 });
    const error = await caught(client.payments.create(usdcToAch(account.id), { idempotencyKey: uid('pay') }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect((await client.payments.listByCustomer(customer.id)).data).toHaveLength(0);
  });

  it('afterCommit 500: outcome unknown; the retry with the same key returns the payment that was created', async () => {
    const { customer, account } = await customerAndAccount();
    await ctl.addFault({ route: 'POST /v1/payments', status: 500, afterCommit: true, count: 1 });
    const key = uid('pay');
    const body = usdcToAch(account.id);
    const error = await caught(client.payments.create(body, { idempotencyKey: key }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.outcomeUnknown).toBe(true);
    const committed = (await client.payments.listByCustomer(customer.id)).data;
    expect(committed).toHaveLength(1);
    const retried = await client.payments.create(body, { idempotencyKey: key });
    expect(retried.id).toBe(committed[0]!.id);
    expect((await client.payments.listByCustomer(customer.id)).data).toHaveLength(1);
  });

  it('afterCommit connection drop: NetworkError, outcome unknown; the retry returns the same payment', async () => {
    const { customer, account } = await customerAndAccount();
    await ctl.addFault({ route: 'POST /v1/payments', kind: 'connectionDrop', afterCommit: true, count: 1 });
    const key = uid('pay');
    const body = usdcToAch(account.id);
    const error = await caught(client.payments.create(body, { idempotencyKey: key }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.outcomeUnknown).toBe(true);
    const retried = await client.payments.create(body, { idempotencyKey: key });
    const all = (await client.payments.listByCustomer(customer.id)).data;
    expect(all.map((p) => p.id)).toEqual([retried.id]);
  });

  it('TimeoutError on injected latency; reads are not outcome-unknown', async () => {
    await ctl.addFault({ route: 'GET /v1/payments/corridors', kind: 'latency', latencyMs: 1_500, count: 1 });
    const impatient = createProviderClient({ baseUrl: sandbox.url, apiKey: API_KEY, timeoutMs: 200 });
    const error = await caught(impatient.corridors.list());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(false);
  });
});

describe('webhooks from the sandbox', () => {
  it('verifies the sandbox signature of a payment.created delivery and parses it into the current payment', async () => {
    const { account } = await customerAndAccount();
    const payment = await client.payments.create(usdcToAch(account.id), { idempotencyKey: uid('pay') });
    const delivery = await waitFor(() =>
      deliveries.find((d) => d.body.includes(payment.id) && d.body.includes('payment.created')),
    );
    const secret = await ctl.webhookSecret();
    // The sandbox signs with the real time (what a receiver's clock compares with), not its simulated clock.
    const verified = verifyWebhook(delivery.headers, delivery.body, secret);
    expect(verified.id).toEqual(expect.any(String));
    const event = parseWebhookEvent(delivery.body);
    expect(event.kind).toBe('payment');
    expect(event.data).toMatchObject({ id: payment.id, status: 'AWAITING_FUNDS' });
    // a rotated-out secret alone does not verify; together with the current one it does
    const old = 'whsec_' + Buffer.from('an old secret that was rotated!!').toString('base64');
    expect(() => verifyWebhook(delivery.headers, delivery.body, old)).toThrow(WebhookVerificationError);
    expect(verifyWebhook(delivery.headers, delivery.body, [old, secret]).id).toBe(verified.id);
    // and a tampered body does not
    expect(() =>
      verifyWebhook(delivery.headers, delivery.body.replace('AWAITING_FUNDS', 'COMPLETED'), secret),
    ).toThrow(WebhookVerificationError);
  });
});

describe('transitional payloads (sandbox clock before 2026-03-30)', () => {
  let early: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    early = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      asOf: '2026-03-10T12:00:00.000Z',
      apiKeys: [{ key: API_KEY }],
      rateLimit: false,
      log: null,
    });
  });
  afterAll(async () => {
    await early?.close();
  });

  it('the wire carries old and new fields; the client returns the current shape only', async () => {
    const asOf = new Date('2026-03-10T12:00:00.000Z');
    const c = createProviderClient({ baseUrl: early.url, apiKey: API_KEY, asOf });
    const { customer, account } = await customerAndAccount(c, control(early));
    const created = await c.payments.create(usdcToAch(account.id), { idempotencyKey: uid('pay') });

    const wire = (await got(`${early.url}/v1/payments/${created.id}`, {
      headers: { 'x-api-key': API_KEY },
    }).json()) as Record<string, unknown>;
    expect(wire.entityId).toBe(customer.id);
    expect(wire.paymentType).toBe('EXTERNAL');
    expect(wire).toHaveProperty('estimatedTotalFeeInSourceCurrency');

    const fetched = await c.payments.get(created.id);
    for (const old of [
      'entityId',
      'paymentType',
      'memo',
      'reason',
      'exchangeRate',
      'estimatedTotalFeeInSourceCurrency',
      'updatedAt',
      'createdAt',
    ]) {
      expect(fetched).not.toHaveProperty(old);
    }
    expect(fetched.customerId).toBe(customer.id);
    expect(fetched.type).toBe('EXTERNAL');
    expect(fetched.fee).toBe(wire.estimatedTotalFeeInSourceCurrency);
    expect(fetched.source).not.toHaveProperty('chain');
    const [listed] = (await c.payments.listByCustomer(customer.id)).data;
    expect(listed).toEqual(fetched);
  });
});

async function waitFor<T>(find: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
