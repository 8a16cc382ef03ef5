// A webhook storm between the sandbox and the ingress: every event arrives three times, in
// shuffled order, and 20% of events never arrive at all. The first copy is forwarded while the sandbox
// waits and the ingress's status is its answer (a 5xx while Temporal is unreachable makes the sandbox
// retry, as the real sender would); the two extra copies follow later at random moments. A dropped event
// is answered 200 and forgotten: only the workflows' reconciliation (GET) can make up for it.
import http from 'node:http';
import got from 'got';
import type { Random } from './random';

export interface StormDelivery {
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed';
  event: { data?: { id?: string } };
}

export interface WebhookStorm {
  url: string;
  /** Point the storm at the ingress (known only once the stack is up). */
  target(ingressUrl: string): void;
  /** One entry per event: delivered when the ingress accepted at least one copy; failed when dropped. */
  deliveries(): StormDelivery[];
  counts(): { events: number; dropped: number; copiesSent: number; ingress5xx: number };
  /** Waits for the extra copies in flight, then closes. */
  close(): Promise<void>;
}

const FORWARDED = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];

export async function startWebhookStorm(
  random: Random,
  options: { copies?: number; dropRate?: number; maxExtraDelayMs?: number } = {},
): Promise<WebhookStorm> {
  const copies = options.copies ?? 3;
  const dropRate = options.dropRate ?? 0.2;
  const maxDelay = options.maxExtraDelayMs ?? 5_000;
  let ingressUrl = '';
  const events = new Map<string, StormDelivery & { dropped: boolean; extrasQueued: boolean }>();
  const inFlight = new Set<Promise<unknown>>();
  let copiesSent = 0;
  let ingress5xx = 0;

  const forward = async (headers: Record<string, string>, body: Buffer): Promise<number> => {
    copiesSent++;
    try {
      const response = await got.post(ingressUrl, {
        headers,
        body,
        throwHttpErrors: false,
        retry: { limit: 0 },
        timeout: { request: 15_000 },
      });
      if (response.statusCode >= 500) ingress5xx++;
      return response.statusCode;
    } catch {
      return 502;
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const name of FORWARDED)
          if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        const id = headers['webhook-id'] ?? `unknown-${events.size}`;
        let entry = events.get(id);
        if (!entry) {
          const event = JSON.parse(body.toString('utf8')) as { type?: string; data?: { id?: string } };
          entry = {
            eventId: id,
            eventType: event.type ?? '',
            state: 'pending',
            event,
            dropped: random.next() < dropRate,
            extrasQueued: false,
          };
          events.set(id, entry);
        }
        if (entry.dropped) {
          entry.state = 'failed';
          res.writeHead(200).end('{}');
          return;
        }
        const status = await forward(headers, body);
        if (status < 300) entry.state = 'delivered';
        if (!entry.extrasQueued) {
          entry.extrasQueued = true;
          for (let i = 1; i < copies; i++) {
            const extra = new Promise((resolve) => setTimeout(resolve, random.int(0, maxDelay))).then(
              async () => {
                if ((await forward(headers, body)) < 300) entry.state = 'delivered';
              },
            );
            inFlight.add(extra);
            void extra.finally(() => inFlight.delete(extra));
          }
        }
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    target(url) {
      ingressUrl = url;
    },
    deliveries: () =>
      [...events.values()].map(({ eventId, eventType, state, event }) => ({
        eventId,
        eventType,
        state,
        event,
      })),
    counts: () => ({
      events: events.size,
      dropped: [...events.values()].filter((e) => e.dropped).length,
      copiesSent,
      ingress5xx,
    }),
    async close() {
      await Promise.all([...inFlight]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
