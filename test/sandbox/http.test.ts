import { request } from 'node:http';
import { ErrorBodySchema, PaymentSchema } from '../../src/contract';
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
async function start(options: Parameters<typeof sandbox>[0] = {}): Promise<Running> {
  const sb = await sandbox(options);
  running.push(sb);
  return sb;
}
afterAll(async () => {
  await Promise.all(running.map((sb) => sb.close()));
});

describe('authentication (spec: Authentication 1 and 5)', () => {
  it('401 UNAUTHORIZED without a key and with an unknown key, in the error shape of the contract', async () => {
    const sb = await start();
    const none = await fetch(`${sb.url}/v1/payments`);
    const body = (await none.json()) as any;
    expect(none.status).toBe(401);
    expect(ErrorBodySchema.parse(body).error.code).toBe('UNAUTHORIZED');
    expect(body.error.requestId).toBe(none.headers.get('x-request-id'));
    const unknown = await client(sb, 'nope').get('/v1/payments');
    expect(unknown.status).toBe(401);
  });

  it('IP allowlist: ignored before 2026-03-30, 403 FORBIDDEN from that date; a listed address passes', async () => {
    const sb = await start({
      asOf: '2026-03-29T23:59:00Z',
      apiKeys: [
        { key: 'listed', allowedIps: ['10.1.2.3'] },
        { key: 'local', allowedIps: ['127.0.0.1'] },
      ],
    });
    expect((await client(sb, 'listed').get('/v1/payments')).status).toBe(200);
    await client(sb).setNow('2026-03-30T00:00:00Z');
    const refused = await client(sb, 'listed').get('/v1/payments');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await client(sb, 'local').get('/v1/payments')).status).toBe(200);
  });
});

describe('rate limit (spec: Limits; enforced from 2026-03-15)', () => {
  it('no 429 before 2026-03-15; from that date 429 RATE_LIMITED with Retry-After, per key', async () => {
    const sb = await start({
      asOf: '2026-03-14T23:00:00Z',
      rateLimit: { requests: 3, windowMs: 60_000 },
      apiKeys: [{ key: 'a' }, { key: 'b' }],
    });
    for (let i = 0; i < 5; i++) expect((await client(sb, 'a').get('/v1/payments')).status).toBe(200);
    await client(sb).setNow('2026-03-15T00:00:00Z');
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await client(sb, 'b').get('/v1/payments');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.body.error.code).toBe('RATE_LIMITED');
  });
});

describe('request pipeline', () => {
  it('413 PAYLOAD_TOO_LARGE over the size limit, 400 MALFORMED_JSON, 404 NOT_FOUND', async () => {
    const sb = await start({ maxBodyBytes: 1024 });
    const c = client(sb);
    const big = await c.post('/v1/payments', { pad: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const bad = await c.call('POST', '/v1/payments', '{"source": ', { 'x-idempotency-key': uid() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('MALFORMED_JSON');
    const missing = await c.get('/v1/nothing/here');
    expect(missing.status).toBe(404);
    expect((await c.get('/v1/payments/pay_unknown')).body.error.code).toBe('NOT_FOUND');
  });

  it('400 VALIDATION_ERROR lists every violation at once with its field path', async () => {
    const sb = await start({ asOf: '2026-08-01T00:00:00Z' });
    const res = await client(sb).post('/v1/payments', {
      source: { currencyCode: 'USD', rail: 'FPS' },
      destination: { rail: 'WIRE' },
      paymentReason: 'OTHER',
    });
    expect(res.status).toBe(400);
    const paths = res.body.error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'source.amount',
        'source.rail',
        'destination.rail',
        'destination.accountId',
        'paymentReason',
      ]),
    );
  });

  it('serves an OpenAPI document generated from the zod schemas', async () => {
    const sb = await start();
    const res = await client(sb).get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/payments',
        '/v1/payments/{id}',
        '/v1/customers',
        '/v1/accounts/requirements',
        '/v1/payments/rate',
      ]),
    );
    expect(res.body.components.schemas.Payment.properties.quote).toBeDefined();
    expect(res.body.paths['/v1/payments'].post.parameters.map((p: { name: string }) => p.name)).toContain(
      'X-Idempotency-Key',
    );
    const refs = JSON.stringify(res.body).match(/"#\/components\/schemas\/[A-Za-z]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(res.body.components.schemas[ref.slice(22, -1)]).toBeDefined();
  });
});

describe('idempotency (spec: Authentication 3; docs/spec-gaps.md)', () => {
  async function setup() {
    const sb = await start({ asOf: '2026-04-01T00:00:00Z' });
    const customerId = await approvedCustomer(sb);
    const accountId = await account(sb, usdBank(customerId));
    return { sb, c: client(sb), body: unfundedPayment(accountId) };
  }

  it('requires X-Idempotency-Key on creating calls', async () => {
    const { sb, body } = await setup();
    const res = await fetch(`${sb.url}/v1/payments`, {
      method: 'POST',
      headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('same key + same body → the first response replayed, one record; other body → 409 IDEMPOTENCY_CONFLICT', async () => {
    const { sb, c, body } = await setup();
    const key = uid();
    const first = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    const again = await c.post(
      '/v1/payments',
      { ...body, source: { ...body.source } },
      { 'x-idempotency-key': key },
    );
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(Object.keys(sb.state.data.payments)).toHaveLength(1);
    const other = await c.post(
      '/v1/payments',
      { ...body, comment: 'different' },
      { 'x-idempotency-key': key },
    );
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // The same key on another route is another scope.
    const customer = await c.post('/v1/customers', { type: 'INDIVIDUAL' }, { 'x-idempotency-key': key });
    expect(customer.status).toBe(400);
  });

  it('concurrent requests with one key create one record and get the same answer', async () => {
    const { sb, c, body } = await setup();
    const key = uid();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => c.post('/v1/payments', body, { 'x-idempotency-key': key })),
    );
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(Object.keys(sb.state.data.payments)).toHaveLength(1);
  });

  it('a key expires after the idempotency window of the sandbox clock (24 h)', async () => {
    const { sb, c, body } = await setup();
    const key = uid();
    const first = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    await c.advance('PT25H');
    const later = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(Object.keys(sb.state.data.payments)).toHaveLength(2);
  });
});

describe('faults (POST /sandbox/faults)', () => {
  async function setup() {
    const sb = await start({ asOf: '2026-04-01T00:00:00Z' });
    const customerId = await approvedCustomer(sb);
    const accountId = await account(sb, usdBank(customerId));
    return { sb, c: client(sb), body: unfundedPayment(accountId) };
  }

  it('injects a 503 before the write (nothing stored) and honours count', async () => {
    const { sb, c, body } = await setup();
    const fault = await c.post('/sandbox/faults', {
      route: 'POST /v1/payments',
      status: 503,
      rate: 1,
      count: 1,
    });
    expect(fault.status).toBe(201);
    const key = uid();
    const failed = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Object.keys(sb.state.data.payments)).toHaveLength(0);
    const retried = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    expect(retried.status).toBe(201);
  });

  it('afterCommit: the write happens, the response fails; a retry with the key gets the original record', async () => {
    const { sb, c, body } = await setup();
    await c.post('/sandbox/faults', { route: '/v1/payments', status: 500, afterCommit: true, count: 1 });
    const key = uid();
    const failed = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    expect(failed.status).toBe(500);
    const ids = Object.keys(sb.state.data.payments);
    expect(ids).toHaveLength(1);
    const retried = await c.post('/v1/payments', body, { 'x-idempotency-key': key });
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(ids[0]);
    expect(Object.keys(sb.state.data.payments)).toHaveLength(1);
  });

  it('429 faults carry Retry-After; latency delays; connectionDrop destroys the socket; DELETE clears', async () => {
    const { sb, c } = await setup();
    await c.post('/sandbox/faults', { route: 'GET /v1/payments', status: 429, count: 1 });
    const limited = await c.get('/v1/payments');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');

    await c.post('/sandbox/faults', { route: '/v1/payments/corridors', latencyMs: 300, count: 1 });
    const t0 = Date.now();
    expect((await c.get('/v1/payments/corridors')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);

    await c.post('/sandbox/faults', { route: 'GET /v1/accounts', kind: 'connectionDrop' });
    const dropped = await new Promise<string>((resolve) => {
      const req = request(`${sb.url}/v1/accounts`, { headers: { 'x-api-key': sb.apiKey } }, (res) =>
        resolve(`status ${res.statusCode}`),
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      req.end();
    });
    expect(dropped).toBe('ECONNRESET');
    expect((await c.get('/sandbox/faults')).body.data).toHaveLength(3);
    await c.call('DELETE', '/sandbox/faults');
    expect((await c.get('/v1/accounts')).status).toBe(200);
  });

  it('a fault with rate 0 never fires', async () => {
    const { c } = await setup();
    await c.post('/sandbox/faults', { status: 500, rate: 0 });
    for (let i = 0; i < 5; i++) expect((await c.get('/v1/payments')).status).toBe(200);
  });
});

describe('payments list and paging (docs/spec-gaps.md: list envelope)', () => {
  it('pages newest first with limit and nextCursor; rejects a bad cursor', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00Z' });
    const c = client(sb);
    const customerId = await approvedCustomer(sb);
    const accountId = await account(sb, usdBank(customerId));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await c.post('/v1/payments', unfundedPayment(accountId))).body.id);
    const p1 = await c.get('/v1/payments?limit=2');
    expect(p1.body.data.map((p: { id: string }) => p.id)).toEqual([ids[4], ids[3]]);
    expect(p1.body.pagination.limit).toBe(2);
    const p2 = await c.get(`/v1/payments?limit=2&cursor=${p1.body.pagination.nextCursor}`);
    expect(p2.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
    const p3 = await c.get(`/v1/payments?limit=2&cursor=${p2.body.pagination.nextCursor}`);
    expect(p3.body.data.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    expect(p3.body.pagination.nextCursor).toBeNull();
    for (const p of p1.body.data) PaymentSchema.parse(p);
    expect((await c.get('/v1/payments?limit=500')).status).toBe(400);
    expect((await c.get('/v1/payments?cursor=garbage')).status).toBe(400);
    const byCustomer = await c.get(`/v1/payments/customer/${customerId}`);
    expect(byCustomer.body.data).toHaveLength(5);
    expect((await c.get('/v1/payments/customer/cus_other')).body.data).toHaveLength(0);
    expect((await c.get('/v1/payments?status=COMPLETED')).body.data).toHaveLength(0);
  });
});
