// Transport behaviour against a fake HTTP server: headers, base address, error taxonomy, logging, retry, secrets.
// (The same error kinds are exercised against the real sandbox in client.sandbox.test.ts.)
import { inspect } from 'node:util';
import {
  AuthError,
  createProviderClient,
  IdempotencyConflictError,
  LocalValidationError,
  NetworkError,
  NotFoundError,
  type ProviderClientOptions,
  ProviderError,
  type ProviderLogger,
  RateLimitedError,
  RequestRefusedError,
  ResponseShapeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../src/provider';
import { currentPaymentJson, errorJson, uid } from './support/fixtures';
import { type FakeServer, sendJson, startFakeServer } from './support/fake-server';

const API_KEY = 'sk_live_SECRET_' + 'x'.repeat(24);
const createBody = {
  source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xabc' },
  destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_1' },
  paymentReason: 'PURCHASE_OF_SERVICES',
};

let server: FakeServer;
const logLines: Array<{ level: string; message: string; meta: Record<string, unknown> }> = [];
const logger: ProviderLogger = {
  info: (message, meta) => logLines.push({ level: 'info', message, meta }),
  warn: (message, meta) => logLines.push({ level: 'warn', message, meta }),
  error: (message, meta) => logLines.push({ level: 'error', message, meta }),
};
const client = (extra: Partial<ProviderClientOptions> = {}) =>
  createProviderClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    logger,
    prevalidate: false,
    timeoutMs: 2_000,
    ...extra,
  });

beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  logLines.length = 0;
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

describe('requests', () => {
  it('sends X-Api-Key, JSON headers, the idempotency key and the body to {base}/v1', async () => {
    const payment = currentPaymentJson();
    server.handle((_req, res) => sendJson(res, 201, payment, { 'x-request-id': 'req_abc' }));
    const key = uid('idem');
    const created = await client({ userAgent: 'test-agent/1' }).payments.create(createBody, {
      idempotencyKey: key,
    });
    expect(created.id).toBe(payment.id);
    const [req] = server.requests;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/v1/payments');
    expect(req!.headers['x-api-key']).toBe(API_KEY);
    expect(req!.headers['x-idempotency-key']).toBe(key);
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.headers['accept']).toBe('application/json');
    expect(req!.headers['user-agent']).toBe('test-agent/1');
    expect(JSON.parse(req!.body)).toEqual(createBody);
  });

  it('sends GETs without an idempotency key or body, with the path id encoded and query parameters', async () => {
    server.handle((_req, res) =>
      sendJson(res, 200, { data: [], pagination: { limit: 5, nextCursor: null } }),
    );
    await client().payments.listByCustomer('cus/1 x', { limit: 5, status: 'PENDING' });
    const [req] = server.requests;
    expect(req!.method).toBe('GET');
    expect(req!.url).toBe('/v1/payments/customer/cus%2F1%20x?status=PENDING&limit=5');
    expect(req!.headers['x-idempotency-key']).toBeUndefined();
    expect(req!.headers['x-api-key']).toBe(API_KEY);
    expect(req!.body).toBe('');
  });

  it('follows nextCursor with configurable paging parameter names', async () => {
    server.handle((req, res) => {
      const after = new URL(req.url, 'http://x').searchParams.get('after');
      const page =
        after === null
          ? { data: [currentPaymentJson()], pagination: { limit: 1, nextCursor: 'p2' } }
          : { data: [currentPaymentJson()], pagination: { limit: 1, nextCursor: null } };
      sendJson(res, 200, page);
    });
    const paged = client({ paging: { limitParam: 'pageSize', cursorParam: 'after' } });
    const ids = [];
    for await (const p of paged.payments.listAll({ limit: 1, status: 'PENDING' })) ids.push(p.id);
    expect(ids).toHaveLength(2);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/payments?status=PENDING&pageSize=1',
      '/v1/payments?status=PENDING&pageSize=1&after=p2',
    ]);
  });

  it('keeps a /v1 already in the base URL and keeps a base path', async () => {
    server.handle((_req, res) => sendJson(res, 200, currentPaymentJson()));
    await createProviderClient({ baseUrl: `${server.url}/v1/`, apiKey: API_KEY }).payments.get('pay_1');
    await createProviderClient({ baseUrl: `${server.url}/proxy`, apiKey: API_KEY }).payments.get('pay_2');
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/payments/pay_1', '/proxy/v1/payments/pay_2']);
  });

  it('refuses a creating call without an idempotency key before sending anything', async () => {
    const error = await caught(
      client().payments.create(createBody, {} as unknown as { idempotencyKey: string }),
    );
    expect(error).toBeInstanceOf(LocalValidationError);
    expect(error.fields[0]!.path).toBe('idempotencyKey');
    await caught(client().customers.create({} as never, { idempotencyKey: '' }));
    expect(server.requests).toHaveLength(0);
  });
});

describe('error taxonomy', () => {
  const cases: Array<[number, new (...a: never[]) => ProviderError, boolean, string]> = [
    [400, ValidationError, false, 'VALIDATION_ERROR'],
    [422, ValidationError, false, 'VALIDATION_ERROR'],
    [413, ValidationError, false, 'PAYLOAD_TOO_LARGE'],
    // a refused key is a configuration fault of ours: retryable (minutes apart, activities/errors.ts)
    [401, AuthError, true, 'UNAUTHORIZED'],
    [403, AuthError, true, 'FORBIDDEN'],
    [404, NotFoundError, false, 'NOT_FOUND'],
    [410, NotFoundError, false, 'ENDPOINT_REMOVED'],
    [409, IdempotencyConflictError, false, 'IDEMPOTENCY_CONFLICT'],
    [402, RequestRefusedError, false, 'INSUFFICIENT_FUNDS'],
    [500, ServerError, true, 'INTERNAL_ERROR'],
    [503, ServerError, true, 'SERVICE_UNAVAILABLE'],
  ];
  it.each(cases)(
    '%i becomes %p (retryable %p) with code, fields and request id',
    async (status, cls, retryable, code) => {
      const body = errorJson(code, 'said the service', [
        { path: 'destination.rail', rule: 'RAIL_ENUM', message: 'use SWIFT' },
      ]);
      server.handle((_req, res) => sendJson(res, status, body));
      const error = await caught(client().payments.get('pay_1'));
      expect(error).toBeInstanceOf(cls);
      expect(error.retryable).toBe(retryable);
      expect(error.type).toBe(cls.name);
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      expect(error.requestId).toBe(body.error.requestId);
      expect(error.fields).toEqual(body.error.fields);
      expect(error.method).toBe('GET');
      expect(error.path).toBe('/v1/payments/pay_1');
      expect(error.outcomeUnknown).toBe(false);
    },
  );

  it('403 mentions the IP allowlist; 409 says the key was reused with another body', async () => {
    server.handle((_req, res) => sendJson(res, 403, errorJson('FORBIDDEN', 'address not allowed')));
    expect((await caught(client().payments.get('p'))).message).toMatch(/IP allowlist/);
    server.handle((_req, res) => sendJson(res, 409, errorJson('IDEMPOTENCY_CONFLICT', 'conflict')));
    const conflict = await caught(client().payments.create(createBody, { idempotencyKey: uid('k') }));
    expect(conflict.message).toMatch(/idempotency key was already used with a different body/);
  });

  it('an error body that does not fit the contract still gives the right class, with the header request id', async () => {
    server.handle((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'req_hdr' });
      res.end('<html>bad gateway</html>');
    });
    const error = await caught(client().payments.get('p'));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.code).toBeUndefined();
    expect(error.requestId).toBe('req_hdr');
  });

  it('429 carries retryAfterMs from Retry-After seconds and from an HTTP-date', async () => {
    server.handle((_req, res) =>
      sendJson(res, 429, errorJson('RATE_LIMITED', 'slow down'), { 'retry-after': '7' }),
    );
    const bySeconds = await caught(
      client().rates.get({
        sourceRail: 'ACH',
        destinationRail: 'PIX',
        sourceCurrency: 'USD',
        destinationCurrency: 'BRL',
        sourceAmount: 100,
      }),
    );
    expect(bySeconds).toBeInstanceOf(RateLimitedError);
    expect(bySeconds.retryable).toBe(true);
    expect(bySeconds.retryAfterMs).toBe(7000);
    const at = new Date(Date.now() + 30_000);
    server.handle((_req, res) =>
      sendJson(res, 429, errorJson('RATE_LIMITED', 'slow down'), { 'retry-after': at.toUTCString() }),
    );
    const byDate = await caught(client().payments.get('p'));
    expect(byDate.retryAfterMs).toBeGreaterThan(25_000);
    expect(byDate.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('5xx on a creating call is outcome-unknown; on a read it is not', async () => {
    server.handle((_req, res) => sendJson(res, 500, errorJson('INTERNAL_ERROR', 'boom')));
    expect(
      (await caught(client().payments.create(createBody, { idempotencyKey: uid('k') }))).outcomeUnknown,
    ).toBe(true);
    expect((await caught(client().payments.get('p'))).outcomeUnknown).toBe(false);
  });

  it('a dropped connection is a retryable NetworkError, outcome-unknown on creating calls only', async () => {
    server.handle((_req, res) => res.socket?.destroy());
    const onCreate = await caught(client().payments.create(createBody, { idempotencyKey: uid('k') }));
    expect(onCreate).toBeInstanceOf(NetworkError);
    expect(onCreate.retryable).toBe(true);
    expect(onCreate.outcomeUnknown).toBe(true);
    expect(onCreate.message).toMatch(/same idempotency key/);
    const onRead = await caught(client().accounts.get('acc_1'));
    expect(onRead).toBeInstanceOf(NetworkError);
    expect(onRead.outcomeUnknown).toBe(false);
  });

  it('a refused connection is a NetworkError with its code', async () => {
    const closed = await startFakeServer();
    const url = closed.url;
    await closed.close();
    const error = await caught(createProviderClient({ baseUrl: url, apiKey: API_KEY }).payments.get('p'));
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).networkCode).toBe('ECONNREFUSED');
  });

  it('no answer within timeoutMs is a retryable TimeoutError, outcome-unknown on creating calls', async () => {
    server.handle((_req, res) => setTimeout(() => sendJson(res, 200, currentPaymentJson()), 1_000));
    const error = await caught(
      client({ timeoutMs: 150 }).payments.create(createBody, { idempotencyKey: uid('k') }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.retryable).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect((error as TimeoutError).timeoutMs).toBe(150);
  });

  it('a 200 that is not JSON, or does not fit the contract, is a non-retryable ResponseShapeError naming the path', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    const notJson = await caught(client().payments.get('p'));
    expect(notJson).toBeInstanceOf(ResponseShapeError);
    expect(notJson.retryable).toBe(false);
    expect(notJson.status).toBe(200);

    // An unknown status is passed through (the full status set is not shown); a field of
    // the wrong type is still a shape error, named by its path.
    server.handle((_req, res) =>
      sendJson(res, 200, currentPaymentJson({ status: 'TELEPORTED', fee: 'ten' })),
    );
    const wrong = await caught(client().payments.get('p'));
    expect(wrong).toBeInstanceOf(ResponseShapeError);
    expect(wrong.fields.map((f) => f.path).sort()).toEqual(['fee']);
    expect(wrong.message).toMatch(/fee/);
    server.handle((_req, res) => sendJson(res, 200, currentPaymentJson({ status: 'TELEPORTED' })));
    const unknownStatus = await client().payments.get('p');
    expect(unknownStatus.status).toBe('TELEPORTED');

    server.handle((_req, res) =>
      sendJson(res, 200, {
        data: [currentPaymentJson(), currentPaymentJson({ destination: { amount: 1 } })],
        pagination: { limit: 2, nextCursor: null },
      }),
    );
    const inList = await caught(client().payments.list());
    expect(inList.fields.length).toBeGreaterThan(0);
    expect(inList.fields.every((f) => f.path.startsWith('data[1].destination'))).toBe(true);
    expect(inList.path).toBe('/v1/payments');
  });
});

describe('logging and secrets', () => {
  it('logs one structured line per request: method, path, status, durationMs, idempotencyKey, requestId', async () => {
    server.handle((_req, res) => sendJson(res, 201, currentPaymentJson(), { 'x-request-id': 'req_log1' }));
    const key = uid('idem');
    await client().payments.create(createBody, { idempotencyKey: key });
    server.handle((_req, res) => sendJson(res, 404, errorJson('NOT_FOUND', 'no')));
    await caught(client().payments.get('pay_x'));
    expect(logLines).toHaveLength(2);
    expect(logLines[0]!.level).toBe('info');
    expect(logLines[0]!.meta).toMatchObject({
      method: 'POST',
      path: '/v1/payments',
      status: 201,
      idempotencyKey: key,
      requestId: 'req_log1',
      errorType: null,
    });
    expect(typeof logLines[0]!.meta.durationMs).toBe('number');
    expect(logLines[1]!.level).toBe('warn');
    expect(logLines[1]!.meta).toMatchObject({
      method: 'GET',
      path: '/v1/payments/pay_x',
      status: 404,
      idempotencyKey: null,
      errorType: 'NotFoundError',
    });
  });

  it('never shows the API key in any error kind (JSON.stringify, util.inspect, message, stack) or log line', async () => {
    const errors: ProviderError[] = [];
    for (const status of [400, 401, 403, 404, 409, 410, 402, 429, 500]) {
      server.handle((_req, res) => sendJson(res, status, errorJson('X', 'no'), { 'retry-after': '1' }));
      errors.push(await caught(client().payments.create(createBody, { idempotencyKey: uid('k') })));
    }
    server.handle((_req, res) => res.socket?.destroy());
    errors.push(await caught(client().payments.create(createBody, { idempotencyKey: uid('k') })));
    server.handle((_req, res) => setTimeout(() => res.end(), 500));
    errors.push(
      await caught(client({ timeoutMs: 50 }).payments.create(createBody, { idempotencyKey: uid('k') })),
    );
    server.handle((_req, res) => sendJson(res, 200, { nope: true }));
    errors.push(await caught(client().payments.get('p')));
    errors.push(
      await caught(client({ prevalidate: true }).payments.create(createBody, { idempotencyKey: '' })),
    );
    const closed = await startFakeServer();
    await closed.close();
    errors.push(
      await caught(createProviderClient({ baseUrl: closed.url, apiKey: API_KEY }).payments.get('p')),
    );

    const types = new Set(errors.map((e) => e.type));
    for (const t of [
      'ValidationError',
      'AuthError',
      'NotFoundError',
      'IdempotencyConflictError',
      'RequestRefusedError',
      'RateLimitedError',
      'ServerError',
      'NetworkError',
      'TimeoutError',
      'ResponseShapeError',
      'LocalValidationError',
    ]) {
      expect(types).toContain(t);
    }
    for (const error of errors) {
      for (const text of [
        JSON.stringify(error),
        inspect(error, { depth: 10, showHidden: true }),
        error.message,
        String(error.stack),
      ]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain('SECRET');
      }
    }
    expect(JSON.stringify(logLines)).not.toContain(API_KEY);
    expect(inspect(logLines, { depth: 10 })).not.toContain('SECRET');
  });

  it('the client object itself does not print the key', () => {
    const c = client();
    expect(inspect(c, { depth: 6 })).not.toContain(API_KEY);
    expect(JSON.stringify(c)).not.toContain(API_KEY);
  });
});

describe('retry (off by default, for use outside Temporal)', () => {
  it('does not retry by default', async () => {
    server.handle((_req, res) => sendJson(res, 503, errorJson('SERVICE_UNAVAILABLE', 'later')));
    await caught(client().payments.get('p'));
    expect(server.requests).toHaveLength(1);
  });

  it('with retry.limit, repeats a 429 after Retry-After with the same idempotency key and succeeds', async () => {
    let calls = 0;
    const payment = currentPaymentJson();
    server.handle((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 429, errorJson('RATE_LIMITED', 'slow'), { 'retry-after': '1' });
      else sendJson(res, 201, payment);
    });
    const key = uid('idem');
    const started = Date.now();
    const created = await client({ retry: { limit: 2 } }).payments.create(createBody, {
      idempotencyKey: key,
    });
    expect(created.id).toBe(payment.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests.map((r) => r.headers['x-idempotency-key'])).toEqual([key, key]);
    expect(logLines.at(-1)!.meta).toMatchObject({ status: 201, retryCount: 1 });
  });

  it('an error after the transport repeated a POST carries retryCount (an earlier repeat may have created)', async () => {
    let calls = 0;
    server.handle((_req, res) => {
      calls += 1;
      if (calls === 1) sendJson(res, 503, errorJson('SERVICE_UNAVAILABLE', 'later'));
      else sendJson(res, 400, errorJson('VALIDATION_ERROR', 'bad'));
    });
    const error = await caught(
      client({ retry: { limit: 2 } }).payments.create(createBody, { idempotencyKey: uid('idem') }),
    );
    expect(server.requests).toHaveLength(2);
    expect(error.retryCount).toBe(1);
    expect(error.toJSON()).toMatchObject({ retryCount: 1 });
  });

  it('gives up after the limit with the last error, and never retries a 400', async () => {
    server.handle((_req, res) => sendJson(res, 500, errorJson('INTERNAL_ERROR', 'boom')));
    const error = await caught(client({ retry: { limit: 1 } }).payments.get('p'));
    expect(error).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    server.handle((_req, res) => sendJson(res, 400, errorJson('VALIDATION_ERROR', 'bad')));
    await caught(client({ retry: { limit: 3 } }).payments.get('p'));
    expect(server.requests).toHaveLength(1);
  });
});
