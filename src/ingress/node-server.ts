// Node HTTP adapter of the webhook handler: POST <path> with the raw body; GET /health.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_MAX_SIGNED_WEBHOOK_BYTES,
  DEFAULT_MAX_WEBHOOK_BYTES,
  type WebhookHandler,
  type WebhookResponse,
} from './handler';

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
  /** Bytes of request bodies held in memory at once, all requests together (default DEFAULT_MAX_BUFFERED_BYTES). */
  maxBufferedBytes?: number;
  /** Open connections at once; Node drops the ones past it (default DEFAULT_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Time to receive a request's headers (default DEFAULT_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
  /** Time to receive a body, from the end of the headers (default DEFAULT_BODY_TIMEOUT_MS); then 408 and closed. */
  bodyTimeoutMs?: number;
}

/**
 * Why these limits: memory must be bounded by configuration, not by callers (SECURITY.md, "The webhook ingress").
 * Headers are checked before any body byte is read (a caller without plausible signature headers costs nothing);
 * every body byte held counts against one budget for the whole process, and past it a request is answered 503 with
 * Retry-After and its connection closed (the sender retries; a legitimate webhook is small). A body larger than
 * ordinary webhooks (over maxBodyBytes) may only use 7/8 of the budget, so a few slow large uploads cannot take the
 * room ordinary webhooks need. Slow senders are cut by the header and body timeouts, many by the connection cap.
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_CONNECTIONS = 256;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 20_000;
const OVER_BUDGET_RETRY_AFTER_SEC = 5;

/**
 * Why a limit: when Temporal slows down (a burst of 10,000 fundings on one dev server), webhooks that
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
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const ordinaryBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES;
  const largeBodiesBudget = maxBuffered - Math.floor(maxBuffered / 8);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  /** body bytes held now, every request together */
  let buffered = 0;
  /** requests refused because the budget was spent (shown by /health) */
  let overBudget = 0;
  // Node checks its own request timeouts every connectionsCheckingInterval (30 s by default): too coarse here.
  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    /** Answers and closes the connection: the rest of the body is never read. */
    const sendAndClose = (answer: WebhookResponse, headers: Record<string, string> = {}) => {
      if (res.headersSent) return void req.socket.destroy();
      send(answer.status, answer.body, { connection: 'close', ...headers });
      res.once('finish', () => req.socket.destroy());
    };
    if (req.method === 'GET' && req.url === '/health') {
      return send(200, {
        ok: true,
        counters: options.handler.counters,
        inFlight,
        waiting: line.length,
        overloaded,
        buffered,
        overBudget,
      });
    }
    if (req.url?.split('?')[0] !== path)
      return send(404, { ok: false, code: 'NOT_FOUND', message: `POST webhooks to ${path}` });
    if (req.method !== 'POST')
      return send(405, { ok: false, code: 'METHOD_NOT_ALLOWED', message: 'POST only' });
    req.on('error', () => undefined); // an aborted upload is the sender's business; 'close' below frees its bytes

    const refused = options.handler.checkHeaders(req.headers);
    if (refused) return sendAndClose(refused);
    // A larger body is never read, whoever signed it: a retry cannot fix it, so 4xx, counted `failed` and logged.
    const tooLarge = () =>
      options.handler.notRead(413, 'PAYLOAD_TOO_LARGE', `body over ${maxBytes} bytes, not read`);
    const declared =
      req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    if (declared !== undefined && declared > maxBytes) return sendAndClose(tooLarge());

    let held = 0;
    /** Takes `more` bytes of the budget for this request, or false when the budget cannot give them. */
    const reserve = (more: number): boolean => {
      const limit = held + more > ordinaryBodyBytes ? largeBodiesBudget : maxBuffered;
      if (buffered + more > limit) return false;
      buffered += more;
      held += more;
      return true;
    };
    const release = () => {
      buffered -= held;
      held = 0;
    };
    const overTheBudget = () => {
      overBudget++;
      sendAndClose(
        options.handler.notRead(503, 'OVERLOADED', 'too many webhook bodies in memory; retry later'),
        {
          'retry-after': String(OVER_BUDGET_RETRY_AFTER_SEC),
        },
      );
    };
    // A declared length is reserved whole, before reading: refused at once rather than after the bytes came.
    if (declared !== undefined && Number.isFinite(declared) && declared > 0 && !reserve(declared))
      return overTheBudget();
    const reservedUpFront = held > 0;

    let reading = true;
    let handedOver = false;
    // the callback runs later than the declarations below it
    const bodyTimer = setTimeout(() => {
      stopReading();
      sendAndClose(
        options.handler.notRead(408, 'REQUEST_TIMEOUT', `body not received within ${bodyTimeoutMs} ms`),
      );
    }, bodyTimeoutMs);
    const stopReading = () => {
      reading = false;
      clearTimeout(bodyTimer);
      req.removeAllListeners('data');
    };
    // Refused, timed out or gone before the handler had the body: its bytes go back to the budget now. Once handed
    // over they go back when the handler settles (the chunks are referenced until then).
    res.once('close', () => {
      stopReading();
      if (!handedOver) release();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (!reading) return;
      size += chunk.length;
      if (size > maxBytes) {
        stopReading();
        return sendAndClose(tooLarge());
      }
      if (!reservedUpFront && !reserve(chunk.length)) {
        stopReading();
        return overTheBudget();
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!reading) return;
      stopReading();
      handedOver = true;
      void acquire().then((got) => {
        if (!got) {
          release();
          overloaded++;
          return send(
            503,
            {
              ok: false,
              code: 'OVERLOADED',
              message: `waited ${maxQueueWaitMs} ms behind ${maxInFlight} webhooks waiting on Temporal; retry later`,
            },
            { 'retry-after': String(OVERLOADED_RETRY_AFTER_SEC) },
          );
        }
        // the slot is held until the handler settles: a sender that gave up does not stop the signal
        options
          .handler(req.headers, Buffer.concat(chunks))
          .then(
            (result) => send(result.status, result.body),
            // never the error's text: it may quote configuration, and the caller may not be who signed
            () =>
              send(500, {
                ok: false,
                code: 'INTERNAL_ERROR',
                message: 'the ingress failed on this webhook; retry later',
              }),
          )
          .finally(() => {
            release();
            releaseSlot();
          });
      });
    });
  });
  server.headersTimeout = headersTimeoutMs;
  // The whole request, headers and body: a backstop behind the body timer above (Node wants it >= headersTimeout).
  server.requestTimeout = headersTimeoutMs + bodyTimeoutMs + 1_000;
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    webhookUrl: `${url}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
