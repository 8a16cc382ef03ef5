// Hostile input at the webhook door, property-based (fast-check) and bounded: random bodies, headers, sizes,
// signatures, timestamps, encodings and prototype keys. No crash, no unhandled rejection, no signal for anything
// not validly signed, a clear 4xx for each refusal, and the server keeps serving. Counts: 10,000 cases against the
// handler in-process, 2,000 signed-but-random bodies, 300 raw requests against the Node server.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import fc from 'fast-check';
import { createWebhookHandler, startIngressServer, type EventRouter } from '../../src/ingress';
import { signWebhook } from '../../src/provider/webhook-signature';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const OTHER_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

/**
 * A fake Temporal: records every signal attempt. Like the real router (src/ingress/routing.ts, resourceId) it never
 * throws on what a body holds: `String()` of a JSON object `{"toString": null}` throws, which failed this test at its
 * case 1729 of seed 313854244 in a CI rehearsal (the fake's fault, not the handler's).
 */
function recordingRouter() {
  const attempts: string[] = [];
  const router: EventRouter = {
    route: (event) => {
      const id = (event.data as { id?: unknown }).id;
      return {
        workflowId: `provider-payment:${typeof id === 'string' ? id : (JSON.stringify(id) ?? 'none')}`,
        deliver: async () => void attempts.push(event.id),
      };
    },
  };
  return { router, attempts };
}

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));
beforeEach(() => (unhandled = []));

/** Just over the unsigned limit, over the hard limit (never read), tiny, empty: made once, shared by every run. */
const MAX_SIGNED = 2 * 1024 * 1024; // the handler's hard limit here (16 MiB by default), so the big case stays cheap
const SIZES = [1024 * 1024 + 1, MAX_SIGNED + 1, 10, 0].map((n) => 'x'.repeat(n));
const hostileText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '__proto__',
    'constructor',
    'v1,',
    'v1, ',
    'v2,AAAA',
    '%00',
    '\r\n',
    'NaN',
    '-1',
    '1e10',
    '0x10',
  ),
);
const timestamp = fc.oneof(
  fc.constant(() => String(now())),
  fc.constant(() => String(now() - 3600)),
  fc.constant(() => String(now() + 3600)),
  fc.integer({ min: -1e6, max: 1e6 }).map((d) => () => String(now() + d)),
  hostileText.map((t) => () => t),
  fc.constantFrom(
    () => `${now()}.5`,
    () => ` ${now()}`,
    () => '9'.repeat(40),
    () => `${now()}${'0'.repeat(5)}`,
  ),
);
const body = fc.oneof(
  hostileText,
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '{"__proto__":{"id":"evt_p","type":"payment.updated","createdAt":"2026-01-01T00:00:00Z","data":{"id":"pay_1"}}}',
    '{"id":"evt_1","type":"payment.updated","createdAt":"2026-01-01T00:00:00Z","data":{"id":"pay_1","__proto__":{"status":"COMPLETED"}}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
  ),
  fc.uint8Array({ maxLength: 300 }),
  fc.constantFrom(...SIZES),
);
/** How the webhook is signed, if at all: never correctly over the body that is sent. */
const signature = fc.oneof(
  hostileText.map((t) => () => t),
  fc.constant((id: string, at: string, raw: string | Uint8Array) =>
    /^\d+$/.test(at) ? signWebhook(OTHER_SECRET, id, Number(at), raw) : 'v1,x',
  ),
  fc.constant((id: string, at: string, raw: string | Uint8Array) =>
    /^\d+$/.test(at) ? signWebhook(SECRET, id, Number(at), `${String(raw)} `) : 'v1,x',
  ),
  fc.constant(() => `v1,${randomBytes(32).toString('base64')}`),
  fc.constant((id: string, at: string, raw: string | Uint8Array) =>
    /^\d+$/.test(at) ? signWebhook(SECRET, `${id}x`, Number(at), raw) : 'v1,',
  ),
  fc.constant((id: string, at: string, raw: string | Uint8Array) =>
    /^\d+$/.test(at) ? signWebhook(SECRET, id, Number(at), raw).replace('v1,', 'v2,') : 'v2,',
  ),
);
const headerName = fc.oneof(
  fc.constantFrom(
    'webhook-id',
    'Webhook-Id',
    'WEBHOOK-TIMESTAMP',
    'webhook-signature',
    '__proto__',
    'constructor',
    'content-type',
  ),
  fc.string({ maxLength: 20 }),
);
const extraHeaders = fc.dictionary(
  headerName,
  fc.oneof(hostileText, fc.array(hostileText, { maxLength: 3 })),
  { maxKeys: 4 },
);

describe('the webhook handler under hostile input', () => {
  it('never signals, never throws, and answers every request not validly signed with a 4xx (10,000 cases)', async () => {
    const { router, attempts } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router, maxSignedBodyBytes: MAX_SIGNED });
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          id: fc.oneof(fc.constant(undefined), hostileText, fc.constant('msg_1')),
          at: fc.option(timestamp, { nil: undefined }),
          sign: fc.option(signature, { nil: undefined }),
          raw: body,
          extra: extraHeaders,
          asBytes: fc.boolean(),
        }),
        async ({ id, at, sign, raw, extra, asBytes }) => {
          const headers: Record<string, string | string[] | undefined> = { ...extra };
          const atText = at?.();
          if (id !== undefined) headers['webhook-id'] = id;
          if (atText !== undefined) headers['webhook-timestamp'] = atText;
          if (sign !== undefined) headers['webhook-signature'] = sign(id ?? '', atText ?? '', raw);
          const sent = asBytes && typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
          const answer = await handler(headers, sent);
          expect([401, 413, 503]).toContain(answer.status);
          if (answer.status === 503) expect(answer.body.code).toBe('PAYLOAD_TOO_LARGE'); // over the hard limit: never read
          expect(typeof answer.body.message).toBe('string');
          expect(answer.body.ok).toBe(false);
        },
      ),
      { numRuns: 10_000 },
    );
    expect(attempts).toEqual([]);
    expect(unhandled).toEqual([]);
  }, 120_000);

  it('answers a validly signed body of any shape with 200, 202 or 400, signalling only for 200 (2,000 cases)', async () => {
    const { router, attempts } = recordingRouter();
    const handler = createWebhookHandler({ secrets: [SECRET], router });
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json({ maxDepth: 4 }),
          fc
            .record({
              id: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constant(undefined)),
              type: fc.oneof(
                fc.constantFrom('payment.updated', 'payment.created', 'customer.updated', 'account.created'),
                fc.string({ maxLength: 20 }),
              ),
              createdAt: fc.oneof(fc.constant('2026-11-21T10:00:00Z'), fc.string({ maxLength: 30 })),
              data: fc.oneof(
                fc.dictionary(
                  fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'id')),
                  fc.jsonValue({ maxDepth: 2 }),
                ),
                fc.jsonValue({ maxDepth: 2 }),
              ),
            })
            .map((o) => JSON.stringify(o)),
        ),
        async (raw) => {
          const msgId = `msg_${randomBytes(8).toString('hex')}`;
          const at = now();
          const before = attempts.length;
          const answer = await handler(
            {
              'webhook-id': msgId,
              'webhook-timestamp': String(at),
              'webhook-signature': signWebhook(SECRET, msgId, at, raw),
            },
            raw,
          );
          expect([200, 202, 400]).toContain(answer.status);
          expect(attempts.length - before).toBe(
            answer.status === 200 && answer.body.code === 'ACCEPTED' ? 1 : 0,
          );
          if (answer.status === 200) accepted++;
        },
      ),
      { numRuns: 2_000 },
    );
    expect(accepted).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
  }, 120_000);
});

describe('the Node ingress server under hostile raw requests', () => {
  it('answers or closes each of 300 random requests, signals none, and still takes a signed webhook', async () => {
    const { router, attempts } = recordingRouter();
    const server = await startIngressServer({
      handler: createWebhookHandler({ secrets: [SECRET], router }),
      bodyTimeoutMs: 500,
      headersTimeoutMs: 500,
    });
    const { port } = new URL(server.url);
    const rawRequest = (bytes: Buffer) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1');
        let text = '';
        const timer = setTimeout(() => socket.destroy(), 5_000);
        socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(text);
        });
        socket.on('connect', () => socket.end(bytes));
      });
    const requestLine = fc.oneof(
      fc.constantFrom(
        'POST /webhooks HTTP/1.1',
        'POST /webhooks?x=1 HTTP/1.1',
        'GET /webhooks HTTP/1.1',
        'POST /other HTTP/1.1',
        'POST /webhooks HTTP/1.0',
        'POST /%ZZ HTTP/1.1',
      ),
      fc.string({ maxLength: 40 }),
    );
    const headerLine = fc.oneof(
      fc.constantFrom(
        'content-length: 5',
        'content-length: -1',
        'content-length: 99999999999',
        'transfer-encoding: chunked',
        'content-encoding: gzip',
        `webhook-timestamp: ${now()}`,
        'webhook-id: msg_1',
        `webhook-signature: v1,${randomBytes(32).toString('base64')}`,
        '__proto__: x',
      ),
      fc.tuple(fc.string({ maxLength: 15 }), fc.string({ maxLength: 30 })).map(([k, v]) => `${k}: ${v}`),
    );
    try {
      await fc.assert(
        fc.asyncProperty(
          requestLine,
          fc.array(headerLine, { maxLength: 6 }),
          fc.oneof(
            fc.string({ maxLength: 100 }),
            fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.from(b).toString('latin1')),
          ),
          async (line, head, rest) => {
            const answer = await rawRequest(
              Buffer.from(`${line}\r\nhost: x\r\n${head.join('\r\n')}\r\n\r\n${rest}`, 'latin1'),
            );
            const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
            // an answer is a refusal (4xx) or a 503 for the sender to retry; never a 2xx, never a 500
            if (status !== undefined) expect(Number(status) >= 400 && Number(status) !== 500).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
      expect(attempts).toEqual([]);
      const msgId = 'msg_after';
      const at = now();
      const raw = JSON.stringify({
        id: 'evt_after',
        type: 'payment.updated',
        createdAt: new Date().toISOString(),
        data: { id: 'pay_1', status: 'PENDING' },
      });
      const after = await fetch(server.webhookUrl, {
        method: 'POST',
        headers: {
          'webhook-id': msgId,
          'webhook-timestamp': String(at),
          'webhook-signature': signWebhook(SECRET, msgId, at, raw),
        },
        body: raw,
      });
      expect(after.status).toBe(200);
      expect(attempts).toEqual(['evt_after']);
      expect(unhandled).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
