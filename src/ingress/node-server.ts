// Node HTTP adapter of the webhook handler: POST <path> with the raw body; GET /health.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_SIGNED_WEBHOOK_BYTES, DEFAULT_MAX_WEBHOOK_BYTES, type WebhookHandler } from './handler';

export interface IngressServerOptions {
  handler: WebhookHandler;
  host?: string;
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  /** read at most this much of a body (the handler takes a signed body up to it): see WebhookHandlerOptions */
  maxSignedBodyBytes?: number;
  /** Webhooks handled at once (default DEFAULT_MAX_IN_FLIGHT); more wait in line for a slot. */
  maxInFlight?: number;
  /** How long a webhook waits in line before it is answered 503 OVERLOADED (default DEFAULT_MAX_QUEUE_WAIT_MS). */
  maxQueueWaitMs?: number;
}

/**
 * Why a limit: when Temporal slows down (a burst of 10,000 fundings on one dev server, issue 12), webhooks that
 * all wait on it pile up until every one outlasts the sender's timeout (10 s for the sandbox), so none gets
 * through and each retry wave piles up again. So at most `maxInFlight` wait on Temporal; the others wait in line
 * for a slot, and one still in line after `maxQueueWaitMs` is answered 503 with Retry-After, unread: the sender
 * retries it later (spec gap: Events 5). A short burst is only queued (refusing it at once would send it back
 * to the sender's retry schedule, a minute away after a few tries); only a lasting overload is refused.
 */
export const DEFAULT_MAX_IN_FLIGHT = 64;
export const DEFAULT_MAX_QUEUE_WAIT_MS = 5_000;
const OVERLOADED_RETRY_AFTER_SEC = 5;

export interface IngressServer {
  url: string;
  webhookUrl: string;
  close(): Promise<void>;
}

export async function startIngressServer(options: IngressServerOptions): Promise<IngressServer> {
  const path = options.path ?? '/webhooks';
  // The handler decides on bodies up to the signed limit (signed → taken, unsigned over maxBodyBytes → 413).
  const maxBytes = Math.max(
    options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES,
    options.maxSignedBodyBytes ?? DEFAULT_MAX_SIGNED_WEBHOOK_BYTES,
  );
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const maxQueueWaitMs = options.maxQueueWaitMs ?? DEFAULT_MAX_QUEUE_WAIT_MS;
  let inFlight = 0;
  /** webhooks answered 503 after waiting `maxQueueWaitMs` in line (shown by /health) */
  let overloaded = 0;
  /** waiting for a slot, first come first served */
  const line: Array<() => void> = [];
  const acquire = (): Promise<boolean> => {
    if (inFlight < maxInFlight) {
      inFlight++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const take = () => {
        clearTimeout(timer);
        inFlight++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        line.splice(line.indexOf(take), 1);
        resolve(false);
      }, maxQueueWaitMs);
      line.push(take);
    });
  };
  const releaseSlot = () => {
    inFlight--;
    line.shift()?.();
  };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/health') return send(200, { ok: true, counters: options.handler.counters, inFlight, waiting: line.length, overloaded });
    if (req.url?.split('?')[0] !== path) return send(404, { ok: false, code: 'NOT_FOUND', message: `POST webhooks to ${path}` });
    if (req.method !== 'POST') return send(405, { ok: false, code: 'METHOD_NOT_ALLOWED', message: 'POST only' });
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      // Not read, so not verified: 503 (the sender retries; the answer is logged), never a silent 4xx.
      if (tooLarge) return send(503, { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `body over ${maxBytes} bytes, not read; retry` });
      void acquire().then((got) => {
        if (!got) {
          overloaded++;
          return send(
            503,
            { ok: false, code: 'OVERLOADED', message: `waited ${maxQueueWaitMs} ms behind ${maxInFlight} webhooks waiting on Temporal; retry later` },
            { 'retry-after': String(OVERLOADED_RETRY_AFTER_SEC) },
          );
        }
        // the slot is held until the handler settles: a sender that gave up does not stop the signal
        options.handler(req.headers, Buffer.concat(chunks))
          .then(
            (result) => send(result.status, result.body),
            (error: Error) => send(500, { ok: false, code: 'INTERNAL_ERROR', message: error.message }),
          )
          .finally(releaseSlot);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    webhookUrl: `${url}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
