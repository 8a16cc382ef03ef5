import { randomBytes } from 'node:crypto';
import {
  createWebhookHandler,
  startIngressServer,
  toLambdaHandler,
  type EventRouter,
} from '../../src/ingress';
import { signWebhook } from '../../src/provider/webhook-signature';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const OTHER_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

function signed(
  body: unknown,
  secret = SECRET,
  at = Math.floor(Date.now() / 1000),
  id = `msg_${randomBytes(6).toString('hex')}`,
) {
  const raw = JSON.stringify(body);
  return {
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(secret, id, at, raw),
    },
    raw,
  };
}

function paymentEvent(id = `evt_${randomBytes(6).toString('hex')}`) {
  return {
    id,
    type: 'payment.updated',
    createdAt: new Date().toISOString(),
    data: { id: 'pay_123', status: 'PENDING' },
  };
}

function recordingRouter(fail = false) {
  const delivered: string[] = [];
  const router: EventRouter = {
    route(event) {
      if (!event.type.startsWith('payment.')) return null;
      return {
        workflowId: `provider-payment:${String(event.data.id)}`,
        deliver: async () => {
          if (fail) throw new Error('namespace unavailable');
          delivered.push(event.id);
        },
      };
    },
  };
  return { router, delivered };
}

describe('webhook handler', () => {
  it('accepts a signed event once and answers a redelivery as a duplicate without a second signal', async () => {
    const { router, delivered } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router });
    const { headers, raw } = signed(paymentEvent('evt_1'));
    const first = await handler(headers, raw);
    expect(first).toMatchObject({
      status: 200,
      body: { code: 'ACCEPTED', routedTo: 'provider-payment:pay_123' },
    });
    const again = await handler(headers, raw);
    expect(again).toMatchObject({ status: 200, body: { code: 'DUPLICATE' } });
    expect(delivered).toEqual(['evt_1']);
    expect(handler.counters).toMatchObject({ accepted: 1, duplicate: 1 });
  });

  it('refuses a forged, a stale and an unsigned event with 401', async () => {
    const { router, delivered } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router, toleranceSec: 300 });
    const forged = signed(paymentEvent(), OTHER_SECRET);
    expect((await handler(forged.headers, forged.raw)).status).toBe(401);
    const stale = signed(paymentEvent(), SECRET, Math.floor(Date.now() / 1000) - 3600);
    const staleAnswer = await handler(stale.headers, stale.raw);
    expect(staleAnswer.status).toBe(401);
    expect(staleAnswer.body.message).toMatch(/too old/);
    expect((await handler({}, JSON.stringify(paymentEvent()))).status).toBe(401);
    expect(delivered).toEqual([]);
    expect(handler.counters.rejected).toBe(3);
  });

  it('accepts either secret during a rotation', async () => {
    const { router, delivered } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [OTHER_SECRET, SECRET], router });
    const { headers, raw } = signed(paymentEvent('evt_rot'));
    expect((await handler(headers, raw)).status).toBe(200);
    expect(delivered).toEqual(['evt_rot']);
  });

  it('answers 503 when Temporal does not take the signal, and accepts the retry later', async () => {
    const failing = recordingRouter(true);
    const handler = createWebhookHandler({ secrets: [SECRET], router: failing.router });
    const { headers, raw } = signed(paymentEvent('evt_retry'));
    expect((await handler(headers, raw)).status).toBe(503);
    // A failed delivery must not be remembered as seen: the sender's retry goes through.
    expect(handler.counters.duplicate).toBe(0);
    expect((await handler(headers, raw)).status).toBe(503);
    expect(handler.counters.failed).toBe(2);
  });

  it('refuses an unsigned oversized body with 413 and a body that is not an event with 400', async () => {
    const { router } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router, maxBodyBytes: 100 });
    const big = signed({ ...paymentEvent(), padding: 'x'.repeat(200) }, OTHER_SECRET);
    expect((await handler(big.headers, big.raw)).status).toBe(413);
    const notEvent = signed({ hello: 'world' });
    const answer = await handler(notEvent.headers, notEvent.raw);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/id/);
  });

  it('takes a validly signed body over the size limit (a 4xx would lose it); 503 over the hard limit', async () => {
    const { router, delivered } = recordingRouter();
    const handler = createWebhookHandler({
      secrets: [SECRET],
      router,
      maxBodyBytes: 100,
      maxSignedBodyBytes: 1000,
    });
    const big = signed({ ...paymentEvent('evt_big'), padding: 'x'.repeat(200) });
    expect(await handler(big.headers, big.raw)).toMatchObject({ status: 200, body: { code: 'ACCEPTED' } });
    expect(delivered).toEqual(['evt_big']);
    const huge = signed({ ...paymentEvent('evt_huge'), padding: 'x'.repeat(2000) });
    const answer = await handler(huge.headers, huge.raw);
    expect(answer.status).toBe(503); // retried by the sender, counted as failed: never a silent 4xx
    expect(handler.counters.failed).toBe(1);
    expect(delivered).toEqual(['evt_big']);
  });

  it('accepts a signed event without an envelope id (the webhook-id is the event id) or with a +00:00 timestamp', async () => {
    const { router, delivered } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router });
    const noId = signed(
      {
        type: 'payment.updated',
        createdAt: '2026-11-21T10:00:00+00:00',
        data: { id: 'pay_9', status: 'SENT' },
      },
      SECRET,
      undefined,
      'msg_header_id',
    );
    expect(await handler(noId.headers, noId.raw)).toMatchObject({
      status: 200,
      body: { eventId: 'msg_header_id' },
    });
    expect(delivered).toEqual(['msg_header_id']);
    // A redelivery (same webhook-id) is a duplicate.
    expect(await handler(noId.headers, noId.raw)).toMatchObject({ status: 200, body: { code: 'DUPLICATE' } });
  });

  it('refuses to start with a malformed secret, instead of refusing every webhook later', () => {
    const { router } = recordingRouter();
    expect(() => createWebhookHandler({ secrets: [SECRET, 'whsec_not base64!'], router })).toThrow(
      /secret #2 .*whsec_<base64>/,
    );
    expect(() => createWebhookHandler({ secrets: ['plain-text'], router })).toThrow(/secret #1/);
    expect(() => createWebhookHandler({ secrets: [], router })).toThrow(/at least one/);
  });

  it('acknowledges events no workflow follows with 202', async () => {
    const { router } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router });
    const { headers, raw } = signed({
      id: 'evt_acc',
      type: 'account.created',
      createdAt: new Date().toISOString(),
      data: { id: 'acc_1' },
    });
    expect(await handler(headers, raw)).toMatchObject({ status: 202, body: { code: 'IGNORED' } });
  });
});

describe('ingress adapters', () => {
  it('serves the handler over HTTP on 127.0.0.1 and refuses a forged event', async () => {
    const { router, delivered } = recordingRouter();
    const server = await startIngressServer({ handler: createWebhookHandler({ secrets: [SECRET], router }) });
    try {
      const good = signed(paymentEvent('evt_http'));
      const ok = await fetch(server.webhookUrl, { method: 'POST', headers: good.headers, body: good.raw });
      expect(ok.status).toBe(200);
      const forged = signed(paymentEvent('evt_forged'), OTHER_SECRET);
      const refused = await fetch(server.webhookUrl, {
        method: 'POST',
        headers: forged.headers,
        body: forged.raw,
      });
      expect(refused.status).toBe(401);
      expect(delivered).toEqual(['evt_http']);
    } finally {
      await server.close();
    }
  });

  it('works as a Lambda proxy handler with base64 bodies and mixed-case headers', async () => {
    const { router, delivered } = recordingRouter();
    const lambda = toLambdaHandler(createWebhookHandler({ secrets: [SECRET], router }));
    const { headers, raw } = signed(paymentEvent('evt_lambda'));
    const result = await lambda({
      headers: {
        'Webhook-Id': headers['webhook-id'],
        'Webhook-Timestamp': headers['webhook-timestamp'],
        'Webhook-Signature': headers['webhook-signature'],
      },
      body: Buffer.from(raw).toString('base64'),
      isBase64Encoded: true,
    });
    expect(result.statusCode).toBe(200);
    expect(delivered).toEqual(['evt_lambda']);
  });
});

describe('the Node server under load (a 10,000-funding burst)', () => {
  function gatedServer(maxInFlight: number, maxQueueWaitMs: number) {
    const delivered: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const router: EventRouter = {
      route: (event) => ({
        workflowId: `provider-payment:${String(event.data.id)}`,
        deliver: async () => {
          await gate; // Temporal is slow: every signal waits until the test opens the gate
          delivered.push(event.id);
        },
      }),
    };
    return {
      delivered,
      open: () => open(),
      server: startIngressServer({
        handler: createWebhookHandler({ secrets: [SECRET], router }),
        maxInFlight,
        maxQueueWaitMs,
      }),
    };
  }
  const post = (url: string, id: string) => {
    const { headers, raw } = signed(paymentEvent(id));
    return fetch(url, { method: 'POST', headers, body: raw });
  };

  it('past maxInFlight a webhook waits in line and is answered 503 OVERLOADED with Retry-After once it waited too long', async () => {
    const bed = gatedServer(2, 300);
    const server = await bed.server;
    try {
      const waiting = [post(server.webhookUrl, 'evt_1'), post(server.webhookUrl, 'evt_2')];
      await new Promise((resolve) => setTimeout(resolve, 200)); // both are being handled
      const began = Date.now();
      const shed = await post(server.webhookUrl, 'evt_3');
      expect(Date.now() - began).toBeGreaterThanOrEqual(250); // it waited in line first
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('5');
      expect(await shed.json()).toMatchObject({ ok: false, code: 'OVERLOADED' });
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        inFlight: number;
        waiting: number;
        overloaded: number;
      };
      expect(health).toMatchObject({ inFlight: 2, waiting: 0, overloaded: 1 });
      bed.open();
      expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200]);
      expect((await post(server.webhookUrl, 'evt_3')).status).toBe(200); // the sender's retry
      expect(bed.delivered.sort()).toEqual(['evt_1', 'evt_2', 'evt_3']);
    } finally {
      bed.open();
      await server.close();
    }
  });

  it('a burst over maxInFlight is queued, not refused, when slots free up within the wait', async () => {
    const bed = gatedServer(2, 5_000);
    const server = await bed.server;
    try {
      const all = ['evt_a', 'evt_b', 'evt_c', 'evt_d', 'evt_e'].map((id) => post(server.webhookUrl, id));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const health = (await (await fetch(`${server.url}/health`)).json()) as {
        inFlight: number;
        waiting: number;
      };
      expect(health).toMatchObject({ inFlight: 2, waiting: 3 });
      bed.open();
      expect((await Promise.all(all)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(bed.delivered).toHaveLength(5);
    } finally {
      bed.open();
      await server.close();
    }
  });
});
