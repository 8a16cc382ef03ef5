// Spread delivery (SandboxOptions.webhookDelivery 'spread', docs/sandbox.md "Webhooks"): the sender in front of two
// replicas of one receiver sends each event to one of them, and a retry after a failure to the other; broadcast (the
// default) still sends every event to every URL. And the signing secret rotated through the control API.
import { createHmac } from 'node:crypto';
import { freePort } from '../support/ports';
import { generatedWebhookSecret } from '../support/secrets';
import { client, individual, type Running, sandbox, until, webhookReceiver } from './harness';

const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});
async function start(options: Parameters<typeof sandbox>[0]): Promise<Running> {
  // no customer.updated from the automatic review during the test: one event per customer created
  const sb = await sandbox({ customerReviewDelayMs: 3_600_000, ...options });
  closers.push(() => sb.close());
  return sb;
}
async function receiver() {
  const r = await webhookReceiver();
  closers.push(r.close);
  return r;
}
const eventIds = (r: { received: Array<{ headers: Record<string, unknown> }> }) =>
  r.received.map((x) => String(x.headers['webhook-id']));

interface DeliveryView {
  eventId: string;
  url: string;
  targets?: string[];
  state: string;
  attempts: Array<{ url?: string; status: number | null }>;
}

/** `count` customer.created events. */
async function emit(sb: Running, count: number): Promise<void> {
  const c = client(sb);
  for (let i = 0; i < count; i++) expect((await c.post('/v1/customers', individual())).status).toBe(201);
}

describe('webhook delivery spread over replicas of one receiver', () => {
  it('broadcast (the default) sends every event to every URL', async () => {
    const [a, b] = [await receiver(), await receiver()];
    const sb = await start({ webhookUrls: [a.url, b.url], webhookSecret: generatedWebhookSecret() });
    await emit(sb, 4);
    await until(() => a.received.length >= 4 && b.received.length >= 4);
    await sb.webhooksIdle();
    expect(new Set(eventIds(a))).toEqual(new Set(eventIds(b)));
    expect((await client(sb).get('/sandbox/webhooks')).body.data).toHaveLength(8);
  });

  it('spread sends each event to exactly one of the URLs, both of them used', async () => {
    const [a, b] = [await receiver(), await receiver()];
    const sb = await start({
      webhookUrls: [a.url, b.url],
      webhookSecret: generatedWebhookSecret(),
      webhookDelivery: 'spread',
    });
    await emit(sb, 20);
    await until(() => a.received.length + b.received.length >= 20);
    await sb.webhooksIdle();
    const all = [...eventIds(a), ...eventIds(b)];
    expect(all).toHaveLength(20);
    expect(new Set(all).size).toBe(20); // no event to both
    // picked by the event id's hash: with 20 random ids, one replica getting none has odds of 2 in a million
    expect(a.received.length).toBeGreaterThan(0);
    expect(b.received.length).toBeGreaterThan(0);
    const deliveries = (await client(sb).get('/sandbox/webhooks')).body.data as DeliveryView[];
    expect(deliveries).toHaveLength(20);
    for (const d of deliveries) {
      expect(new Set(d.targets)).toEqual(new Set([a.url, b.url]));
      expect(d).toMatchObject({
        state: 'delivered',
        url: d.targets![0],
        attempts: [{ url: d.targets![0], status: 200 }],
      });
    }
  });

  it('spread retries an event whose replica is down on the other one: every event delivered once, none lost', async () => {
    const live = await receiver();
    const down = `http://127.0.0.1:${await freePort()}/webhooks`; // nothing listens there
    const sb = await start({
      webhookUrls: [down, live.url],
      webhookSecret: generatedWebhookSecret(),
      webhookDelivery: 'spread',
      webhookRetryScheduleMs: [50, 50],
    });
    await emit(sb, 20);
    const deliveries = await until(async () => {
      const list = (await client(sb).get('/sandbox/webhooks')).body.data as DeliveryView[];
      return list.length === 20 && list.every((d) => d.state === 'delivered') ? list : undefined;
    });
    expect(new Set(eventIds(live)).size).toBe(20);
    const failedOver = deliveries.filter((d) => d.targets![0] === down);
    expect(failedOver.length).toBeGreaterThan(0); // odds of none: 1 in a million
    for (const d of failedOver) {
      expect(d.attempts.map((x) => [x.url, x.status])).toEqual([
        [down, null],
        [live.url, 200],
      ]);
    }
    for (const d of deliveries.filter((x) => x.targets![0] === live.url))
      expect(d.attempts.map((x) => x.url)).toEqual([live.url]);
  });
});

describe('webhook signing secret rotated through the control API', () => {
  const signedWith = (secret: string, r: { headers: Record<string, unknown>; body: string }) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const mac = createHmac('sha256', key)
      .update(`${String(r.headers['webhook-id'])}.${String(r.headers['webhook-timestamp'])}.${r.body}`)
      .digest('base64');
    return r.headers['webhook-signature'] === `v1,${mac}`;
  };

  it('signs every attempt from the rotation on with the new secret; a malformed one, or one without the control token, is refused', async () => {
    const r = await receiver();
    const [before, after] = [generatedWebhookSecret(), generatedWebhookSecret()];
    const sb = await start({ webhookUrls: [r.url], webhookSecret: before });
    const c = client(sb);
    await emit(sb, 1);
    await until(() => r.received.length === 1);
    const withoutToken = await fetch(`${sb.url}/sandbox/webhook-secret`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret: after }),
    });
    expect(withoutToken.status).toBe(401); // a control route: only with the sandbox's control token
    expect((await c.call('PUT', '/sandbox/webhook-secret', { secret: 'no-prefix' })).status).toBe(400);
    expect((await c.call('PUT', '/sandbox/webhook-secret', { secret: after })).body).toEqual({
      status: 'rotated',
    });
    expect(sb.webhookSecret).toBe(after);
    expect((await c.get('/sandbox/webhook-secret')).body.secret).toBe(after);
    await emit(sb, 1);
    await until(() => r.received.length === 2);
    expect(r.received.map((x) => [signedWith(before, x), signedWith(after, x)])).toEqual([
      [true, false],
      [false, true],
    ]);
  });
});
