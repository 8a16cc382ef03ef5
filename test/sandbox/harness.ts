import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { startSandbox, type SandboxOptions } from '../../src/sandbox';

export type Running = Awaited<ReturnType<typeof startSandbox>>;

export interface Res {
  status: number;
  body: any;
  headers: Headers;
}

let counter = 0;
/** A unique idempotency key / suffix per call. */
export const uid = (prefix = 'k'): string => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** Starts a quiet sandbox with fast steps; callers close it. */
export function sandbox(options: SandboxOptions = {}): Promise<Running> {
  return startSandbox({
    port: 0,
    log: null,
    stepDelaysMs: { toProcessing: 1000, toSent: 1000, toCompleted: 1000 },
    customerReviewDelayMs: 1000,
    rateLimit: false,
    ...options,
  });
}

export function client(sb: Running, apiKey = sb.apiKey) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Res> => {
    const res = await fetch(`${sb.url}${path}`, {
      method,
      headers: {
        ...(path.startsWith('/v1') ? { 'x-api-key': apiKey } : sb.controlHeaders),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method === 'POST' && path.startsWith('/v1') && !('x-idempotency-key' in headers)
          ? { 'x-idempotency-key': uid() }
          : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  return {
    call,
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call('POST', path, body ?? {}, headers),
    advance: (advance: string) => call('POST', '/sandbox/clock', { advance }),
    setNow: (now: string) => call('POST', '/sandbox/clock', { now }),
  };
}

export const ADDRESS = {
  line1: '1 Main St',
  city: 'New York',
  postalCode: '10001',
  stateRegionOrProvince: 'NY',
  countryCode: 'US',
};

export function individual(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'INDIVIDUAL',
    firstName: 'Ana',
    lastName: 'Lima',
    birthDate: '1990-01-01',
    email: `ana.${uid('e')}@example.com`,
    phone: '+12125550123',
    accountPurpose: 'Family support',
    address: ADDRESS,
    ...overrides,
  };
}

/** A customer approved through the control API (no waiting for the review delay). */
export async function approvedCustomer(
  sb: Running,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const c = client(sb);
  const res = await c.post('/v1/customers', individual(overrides));
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${JSON.stringify(res.body)}`);
  await c.post(`/sandbox/customers/${res.body.id}/review`, { outcome: 'APPROVED' });
  return res.body.id as string;
}

export async function account(sb: Running, body: Record<string, unknown>): Promise<string> {
  const res = await client(sb).post('/v1/accounts', body);
  if (res.status !== 201) throw new Error(`account: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

export const usdBank = (customerId: string, accountNumber = '123456789012') => ({
  type: 'EXTERNAL_BANK_ACCOUNT',
  customerId,
  currencyCode: 'USD',
  accountType: 'CHECKING',
  bank: { name: 'Chase', countryCode: 'US', accountNumber, routingNumber: '021000021' },
  accountHolder: { type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Lima', address: ADDRESS },
});

export const usdVirtual = (customerId: string, extra: Record<string, unknown> = {}) => ({
  type: 'VIRTUAL_BANK_ACCOUNT',
  customerId,
  currencyCode: 'USD',
  accountHolder: { type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Lima', address: ADDRESS },
  ...extra,
});

/** A funded-by-sender USDC (POLYGON) → USD (ACH) payment body. */
export const unfundedPayment = (destinationAccountId: string, extra: Record<string, unknown> = {}) => ({
  source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xabc' },
  destination: { currencyCode: 'USD', rail: 'ACH', accountId: destinationAccountId },
  paymentReason: 'GIFTS',
  ...extra,
});

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on 127.0.0.1:0; `respond` picks the status for each delivery. */
export async function webhookReceiver(respond: (n: number, r: Received) => number = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      res.writeHead(respond(received.length, r));
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 5000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
