import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PaymentSchema, WebhookEventSchema } from '../../src/contract';
import { generatedWebhookSecret } from '../support/secrets';
import {
  account,
  approvedCustomer,
  client,
  type Running,
  sandbox,
  unfundedPayment,
  until,
  usdBank,
  webhookReceiver,
} from './harness';

const SECRET = generatedWebhookSecret();
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});
async function start(options: Parameters<typeof sandbox>[0]): Promise<Running> {
  const sb = await sandbox(options);
  closers.push(() => sb.close());
  return sb;
}

/** An independent Standard Webhooks verifier (not the sandbox's signing code). */
function verify(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
): boolean {
  const id = String(headers['webhook-id']);
  const timestamp = String(headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, sig] = part.split(',');
      const got = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
    });
}

describe('webhooks (docs/spec-gaps.md: envelope, names, signatures, delivery)', () => {
  it('delivers signed events with the payment object; each delivery is logged with its attempts', async () => {
    const receiver = await webhookReceiver();
    closers.push(receiver.close);
    const sb = await start({
      asOf: '2026-04-01T00:00:00.000Z',
      webhookUrls: [receiver.url],
      webhookSecret: SECRET,
    });
    const c = client(sb);
    const customerId = await approvedCustomer(sb);
    const bankId = await account(sb, usdBank(customerId));
    const id = (await c.post('/v1/payments', unfundedPayment(bankId))).body.id;
    await c.post(`/sandbox/payments/${id}/fund`, {});
    await c.advance('PT10S');
    await until(() => receiver.received.filter((r) => JSON.parse(r.body).data.id === id).length === 5);
    for (const r of receiver.received) {
      expect(verify(SECRET, r.headers, r.body)).toBe(true);
      expect(verify('whsec_' + Buffer.from('other').toString('base64'), r.headers, r.body)).toBe(false);
      expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60); // real time, for receivers' tolerance checks
      const event = WebhookEventSchema.parse(JSON.parse(r.body));
      expect(r.headers['webhook-id']).toBe(event.id);
    }
    const types = receiver.received
      .map((r) => JSON.parse(r.body))
      .map((e) => `${e.type}:${e.data.status ?? ''}`);
    expect(types).toEqual(
      expect.arrayContaining([
        'customer.created:PENDING_REVIEW',
        'customer.updated:APPROVED',
        'account.created:',
        'payment.created:AWAITING_FUNDS',
        'payment.updated:COMPLETED',
      ]),
    );
    const completed = receiver.received
      .map((r) => JSON.parse(r.body))
      .find((e) => e.type === 'payment.updated' && e.data.status === 'COMPLETED');
    PaymentSchema.parse(completed.data);
    expect(completed.createdAt).toBe(completed.data.lifecycle.completedAt); // sandbox-clock time
    await sb.webhooksIdle();
    expect((await c.get('/sandbox/webhook-secret')).body.secret).toBe(SECRET);
    const events = (await c.get('/sandbox/events?type=payment.updated')).body.data;
    expect(events.map((e: { data: { status: string } }) => e.data.status)).toEqual([
      'PENDING',
      'PROCESSING',
      'SENT',
      'COMPLETED',
    ]);
    const log = (await c.get('/sandbox/webhooks?state=delivered')).body.data;
    expect(log.length).toBe(receiver.received.length);
    expect(log[0]).toMatchObject({
      url: receiver.url,
      state: 'delivered',
      attempts: [{ status: 200, error: null }],
    });
    expect(log[0].event.id).toBe(log[0].eventId);
  });

  it('retries failed deliveries on the backoff schedule with the same webhook-id and a fresh signature, then gives up', async () => {
    // 500 twice, then 200 for the first event; always 500 for others until the schedule runs out.
    const receiver = await webhookReceiver((n) => (n <= 2 ? 500 : n === 3 ? 200 : 503));
    closers.push(receiver.close);
    const sb = await start({
      asOf: '2026-04-01T00:00:00.000Z',
      webhookUrls: [receiver.url],
      webhookSecret: SECRET,
      webhookRetryScheduleMs: [100, 200],
    });
    const c = client(sb);
    await c.post('/v1/customers', {
      type: 'INDIVIDUAL',
      firstName: 'A',
      lastName: 'Review',
      birthDate: '1990-01-01',
      email: 'a@example.com',
      phone: '+1',
      address: { countryCode: 'US' },
    });
    await until(() => receiver.received.length >= 3);
    expect(new Set(receiver.received.slice(0, 3).map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(receiver.received.slice(0, 3).every((r) => verify(SECRET, r.headers, r.body))).toBe(true);
    expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(90);
    const [delivery] = (await c.get('/sandbox/webhooks')).body.data;
    expect(delivery.state).toBe('delivered');
    expect(delivery.attempts.map((a: { status: number }) => a.status)).toEqual([500, 500, 200]);

    // A second event meets only 503s: three attempts, then failed.
    await c.post(`/sandbox/customers/${JSON.parse(receiver.received[0]!.body).data.id}/review`, {
      outcome: 'APPROVED',
    });
    await until(async () => (await c.get('/sandbox/webhooks?state=failed')).body.data.length === 1);
    const [failed] = (await c.get('/sandbox/webhooks?state=failed')).body.data;
    expect(failed.attempts.map((a: { status: number; error: string }) => a.error)).toEqual([
      'HTTP 503',
      'HTTP 503',
      'HTTP 503',
    ]);
  });

  it('network errors are retried too, and retries become due when the clock moves', async () => {
    const sb = await start({
      asOf: '2026-04-01T00:00:00.000Z',
      webhookUrls: ['http://127.0.0.1:9/unreachable'],
      webhookRetryScheduleMs: [3_600_000],
    });
    const c = client(sb);
    await c.post('/v1/customers', {
      type: 'INDIVIDUAL',
      firstName: 'A',
      lastName: 'Review',
      birthDate: '1990-01-01',
      email: 'b@example.com',
      phone: '+1',
      address: { countryCode: 'US' },
    });
    await until(async () => (await c.get('/sandbox/webhooks')).body.data[0]?.attempts.length === 1);
    const [pending] = (await c.get('/sandbox/webhooks')).body.data;
    expect(pending.state).toBe('pending');
    expect(pending.attempts[0].status).toBeNull();
    expect(pending.attempts[0].error).toMatch(/ECONNREFUSED/);
    await c.advance('PT1H');
    await until(async () => (await c.get('/sandbox/webhooks')).body.data[0]?.state === 'failed');
  });
});

describe('persistence (--data-file)', () => {
  it('state, the clock, idempotency records and pending webhook deliveries survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-'));
    const dataFile = join(dir, 'state.json');
    let up = false;
    const receiver = await webhookReceiver(() => (up ? 200 : 500));
    closers.push(receiver.close);
    const options = {
      dataFile,
      webhookUrls: [receiver.url],
      webhookSecret: SECRET,
      webhookRetryScheduleMs: [60_000],
    };
    const first = await sandbox({ ...options, asOf: '2026-04-01T00:00:00.000Z' });
    const c1 = client(first);
    const customerId = await approvedCustomer(first);
    const bankId = await account(first, usdBank(customerId));
    const created = await c1.post('/v1/payments', unfundedPayment(bankId), {
      'x-idempotency-key': 'persist-1',
    });
    await c1.post(`/sandbox/payments/${created.body.id}/fund`, {});
    await until(() => receiver.received.length >= 5);
    await first.close();
    expect(existsSync(dataFile)).toBe(true);
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).payments[created.body.id].status).toBe('PENDING');

    up = true;
    const second = await sandbox({ ...options });
    closers.push(() => second.close());
    const c2 = client(second);
    expect(second.clock.now().getTime()).toBeGreaterThanOrEqual(Date.parse('2026-04-01T00:00:00.000Z'));
    expect(second.clock.now().getTime()).toBeLessThan(Date.parse('2026-04-01T00:01:00.000Z'));
    expect((await c2.get(`/v1/payments/${created.body.id}`)).body.id).toBe(created.body.id);
    const replay = await c2.post('/v1/payments', unfundedPayment(bankId), {
      'x-idempotency-key': 'persist-1',
    });
    expect(replay.body.id).toBe(created.body.id);
    // the pending step jobs and the webhook retries resume on the restored clock
    await c2.advance('PT2M');
    expect((await c2.get(`/v1/payments/${created.body.id}`)).body.status).toBe('COMPLETED');
    await until(async () => (await c2.get('/sandbox/webhooks?state=pending')).body.data.length === 0);
    const log = (await c2.get('/sandbox/webhooks')).body.data;
    expect(log.every((d: { state: string }) => d.state === 'delivered')).toBe(true);
    expect(
      log.some(
        (d: { attempts: Array<{ status: number }> }) =>
          d.attempts[0]!.status === 500 && d.attempts.at(-1)!.status === 200,
      ),
    ).toBe(true);
  });

  it('POST /sandbox/reset empties the state but keeps the clock', async () => {
    const sb = await start({ asOf: '2026-04-01T00:00:00.000Z', demoData: true });
    const c = client(sb);
    await c.advance('P1D');
    expect((await c.post('/sandbox/reset')).status).toBe(200);
    expect((await c.get('/v1/accounts')).body.data).toHaveLength(0);
    expect(Date.parse((await c.get('/sandbox/clock')).body.now)).toBeGreaterThan(
      Date.parse('2026-04-02T00:00:00.000Z'),
    );
    expect((await c.post('/sandbox/clock', { now: '2026-01-01T00:00:00.000Z' })).status).toBe(400);
    expect((await c.get('/sandbox/health')).body.status).toBe('ok');
  });
});
