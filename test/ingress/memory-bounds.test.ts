// The Node ingress keeps its memory bounded by configuration, not by callers (SECURITY.md, "The webhook ingress"):
// headers are checked before the body is read, body bytes held count against one budget, a body past the limit
// closes the connection, slow bodies time out, and signed webhooks keep being answered meanwhile.
// The figures under 60 slow 16 MiB uploads come from scripts/ingress-memory.ts; this test checks the behaviour.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import {
  createWebhookHandler,
  startIngressServer,
  type EventRouter,
  type IngressServer,
} from '../../src/ingress';
import { signWebhook } from '../../src/provider/webhook-signature';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;

function recordingRouter() {
  const delivered: string[] = [];
  const router: EventRouter = {
    route: (event) => ({
      workflowId: `provider-payment:${String(event.data.id)}`,
      deliver: async () => {
        delivered.push(event.id);
      },
    }),
  };
  return { router, delivered };
}

function signedWebhook(id = `evt_${randomBytes(6).toString('hex')}`) {
  const raw = JSON.stringify({
    id,
    type: 'payment.updated',
    createdAt: new Date().toISOString(),
    data: { id: 'pay_1', status: 'PENDING' },
  });
  const msgId = `msg_${randomBytes(6).toString('hex')}`;
  const at = Math.floor(Date.now() / 1000);
  return {
    headers: {
      'webhook-id': msgId,
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(SECRET, msgId, at, raw),
    },
    raw,
  };
}

/** Headers a signer would send, with a made-up signature of the right shape: passes every check but the HMAC. */
function plausibleHeaders(): string[] {
  return [
    `webhook-id: msg_${randomBytes(6).toString('hex')}`,
    `webhook-timestamp: ${Math.floor(Date.now() / 1000)}`,
    `webhook-signature: v1,${randomBytes(32).toString('base64')}`,
  ];
}

interface RawAnswer {
  /** the status line's code, or null when the connection closed without one */
  status: number | null;
  closed: boolean;
}

/** Opens a raw connection, sends the request head and `firstBody` bytes, and reports what the server answered. */
function rawUpload(
  server: IngressServer,
  head: string[],
  firstBody = 0,
): { answer: Promise<RawAnswer>; socket: net.Socket; sent: Promise<void> } {
  const { port } = new URL(server.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  const answer = new Promise<RawAnswer>((resolve) => {
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, closed: true });
    });
  });
  const sent = new Promise<void>((resolve) =>
    socket.on('connect', () => {
      socket.write(
        [
          `POST /webhooks HTTP/1.1`,
          `host: 127.0.0.1`,
          `content-type: application/json`,
          ...head,
          '',
          '',
        ].join('\r\n'),
      );
      if (firstBody > 0) socket.write(Buffer.alloc(firstBody, 0x20));
      resolve();
    }),
  );
  return { answer, socket, sent };
}

async function health(server: IngressServer) {
  return (await (await fetch(`${server.url}/health`)).json()) as {
    buffered: number;
    overBudget: number;
    counters: Record<string, number>;
  };
}

describe('the Node ingress bounds its memory by configuration', () => {
  let server: IngressServer;
  let delivered: string[];
  const MiB = 1024 * 1024;

  beforeEach(async () => {
    const bed = recordingRouter();
    delivered = bed.delivered;
    server = await startIngressServer({
      handler: createWebhookHandler({ secrets: [SECRET], router: bed.router }),
      maxBufferedBytes: 8 * MiB,
      maxSignedBodyBytes: 4 * MiB,
      bodyTimeoutMs: 1_500,
      maxConnections: 100,
    });
  });
  afterEach(async () => server.close());

  it('answers 401 to missing, malformed or stale signature headers before it reads a byte of the body', async () => {
    const stale = [
      `webhook-id: msg_1`,
      `webhook-timestamp: ${Math.floor(Date.now() / 1000) - 3600}`,
      `webhook-signature: v1,${randomBytes(32).toString('base64')}`,
    ];
    const garbage = [
      `webhook-id: msg_2`,
      `webhook-timestamp: ${Math.floor(Date.now() / 1000)}`,
      `webhook-signature: v1,forged`,
    ];
    for (const head of [[], stale, garbage]) {
      // 3 MiB announced, none sent: an answer can only come from the headers
      const { answer } = rawUpload(server, [...head, `content-length: ${3 * MiB}`]);
      expect(await answer).toEqual({ status: 401, closed: true });
    }
    expect((await health(server)).counters.rejected).toBe(3);
  });

  it('refuses an announced body over the limit with 413 and closes the connection without reading it', async () => {
    const { answer } = rawUpload(server, [...plausibleHeaders(), `content-length: ${16 * MiB}`]);
    expect(await answer).toEqual({ status: 413, closed: true });
  });

  it('closes a chunked body once it passes the limit', async () => {
    const { answer, socket, sent } = rawUpload(server, [...plausibleHeaders(), 'transfer-encoding: chunked']);
    await sent;
    const chunk = Buffer.alloc(512 * 1024, 0x20);
    for (let i = 0; i < 12 && !socket.destroyed; i++) {
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      socket.write('\r\n');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const result = await answer;
    expect(result.closed).toBe(true);
    // the 413 is written before the close; a client still sending may see the reset first
    if (result.status !== null) expect(result.status).toBe(413);
  });

  it('holds at most the budget under many slow uploads, refusing the rest with 503, and keeps taking signed webhooks', async () => {
    // 20 uploads of 3 MiB with plausible headers that send 64 KiB and then stall: 60 MiB announced, 8 MiB allowed
    const uploads = Array.from({ length: 20 }, () =>
      rawUpload(server, [...plausibleHeaders(), `content-length: ${3 * MiB}`], 64 * 1024),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await health(server);
    expect(during.buffered).toBeLessThanOrEqual(8 * MiB);
    expect(during.overBudget).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) {
      const { headers, raw } = signedWebhook(`evt_during_${i}`);
      const answer = await fetch(server.webhookUrl, { method: 'POST', headers, body: raw });
      expect(answer.status).toBe(200);
    }
    expect(delivered).toEqual([
      'evt_during_0',
      'evt_during_1',
      'evt_during_2',
      'evt_during_3',
      'evt_during_4',
    ]);
    // the stalled ones are cut by the body timeout, the refused ones were closed at once; none was delivered
    const answers = await Promise.all(uploads.map((u) => u.answer));
    expect(answers.every((a) => a.closed)).toBe(true);
    const statuses = new Set(answers.map((a) => a.status));
    for (const status of statuses) expect([503, 408, null]).toContain(status);
    expect(statuses.has(503)).toBe(true);
    expect(statuses.has(408)).toBe(true);
    expect((await health(server)).buffered).toBe(0);
    expect(delivered).toHaveLength(5);
  });

  it('sets header and request timeouts and a connection cap on the Node server', async () => {
    const capped = await startIngressServer({
      handler: createWebhookHandler({ secrets: [SECRET], router: recordingRouter().router }),
      maxConnections: 3,
      headersTimeoutMs: 500,
    });
    try {
      // a head that never ends is closed by the header timeout (Node answers 408 or just closes)
      const socket = net.connect(Number(new URL(capped.url).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.resume(); // read the 408 Node may send, so the close is seen
      socket.write('POST /webhooks HTTP/1.1\r\nhost: x\r\n'); // never finished
      const headClosed = new Promise((resolve) => socket.on('close', resolve));
      await headClosed;
      // past the cap a connection is dropped without an answer
      const held = Array.from({ length: 3 }, () =>
        rawUpload(capped, [...plausibleHeaders(), 'content-length: 10'], 1),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const extra = rawUpload(capped, [...plausibleHeaders(), 'content-length: 10'], 1);
      expect(await extra.answer).toEqual({ status: null, closed: true });
      for (const h of held) h.socket.destroy();
    } finally {
      await capped.close();
    }
  }, 20_000);
});
