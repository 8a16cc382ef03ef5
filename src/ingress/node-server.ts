// Node HTTP adapter of the webhook handler: POST <path> with the raw body; GET /health.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyBudget, type RequestBytes, Slots } from './admission';
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
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const ingress: Ingress = {
    options,
    path,
    // The handler decides on bodies up to the signed limit (signed → taken, unsigned over maxBodyBytes → 413).
    maxBytes: Math.max(
      options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES,
      options.maxSignedBodyBytes ?? DEFAULT_MAX_SIGNED_WEBHOOK_BYTES,
    ),
    bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    slots: new Slots(
      options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      options.maxQueueWaitMs ?? DEFAULT_MAX_QUEUE_WAIT_MS,
    ),
    budget: new BodyBudget(
      options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES,
    ),
  };
  // Node checks its own request timeouts every connectionsCheckingInterval (30 s by default): too coarse here.
  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) =>
    onRequest(ingress, req, res),
  );
  server.headersTimeout = headersTimeoutMs;
  // The whole request, headers and body: a backstop behind the body timer (Node wants it >= headersTimeout).
  server.requestTimeout = headersTimeoutMs + ingress.bodyTimeoutMs + 1_000;
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

/** What every request of one server shares: its options, limits, slots and memory budget. */
interface Ingress {
  options: IngressServerOptions;
  path: string;
  maxBytes: number;
  bodyTimeoutMs: number;
  slots: Slots;
  budget: BodyBudget;
}

/** How a request is answered: `send`, or `sendAndClose`, which closes the connection (the rest is never read). */
interface Reply {
  send(status: number, body: unknown, headers?: Record<string, string>): void;
  sendAndClose(answer: WebhookResponse, headers?: Record<string, string>): void;
}

function replyTo(req: http.IncomingMessage, res: http.ServerResponse): Reply {
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const sendAndClose = (answer: WebhookResponse, headers: Record<string, string> = {}) => {
    if (res.headersSent) return void req.socket.destroy();
    send(answer.status, answer.body, { connection: 'close', ...headers });
    res.once('finish', () => req.socket.destroy());
  };
  return { send, sendAndClose };
}

/** GET /health, or a webhook: headers checked before any body byte is read, then the body within the budget. */
function onRequest(ingress: Ingress, req: http.IncomingMessage, res: http.ServerResponse): void {
  const { options, slots, budget, maxBytes } = ingress;
  const reply = replyTo(req, res);
  if (req.method === 'GET' && req.url === '/health') {
    return reply.send(200, {
      ok: true,
      counters: options.handler.counters,
      inFlight: slots.inFlight,
      waiting: slots.waiting,
      overloaded: slots.overloaded,
      buffered: budget.buffered,
      overBudget: budget.overBudget,
    });
  }
  if (req.url?.split('?')[0] !== ingress.path)
    return reply.send(404, { ok: false, code: 'NOT_FOUND', message: `POST webhooks to ${ingress.path}` });
  if (req.method !== 'POST')
    return reply.send(405, { ok: false, code: 'METHOD_NOT_ALLOWED', message: 'POST only' });
  req.on('error', () => undefined); // an aborted upload is the sender's business; 'close' below frees its bytes

  const refused = options.handler.checkHeaders(req.headers);
  if (refused) return reply.sendAndClose(refused);
  // A larger body is never read, whoever signed it: a retry cannot fix it, so 4xx, counted `failed` and logged.
  const tooLarge = () =>
    options.handler.notRead(413, 'PAYLOAD_TOO_LARGE', `body over ${maxBytes} bytes, not read`);
  const declared =
    req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > maxBytes) return reply.sendAndClose(tooLarge());

  const bytes = budget.forRequest();
  const overTheBudget = () => {
    budget.overBudget++;
    reply.sendAndClose(
      options.handler.notRead(503, 'OVERLOADED', 'too many webhook bodies in memory; retry later'),
      {
        'retry-after': String(OVER_BUDGET_RETRY_AFTER_SEC),
      },
    );
  };
  // A declared length is reserved whole, before reading: refused at once rather than after the bytes came.
  if (declared !== undefined && Number.isFinite(declared) && declared > 0 && !bytes.reserve(declared))
    return overTheBudget();
  readBody(ingress, req, res, reply, { bytes, tooLarge, overTheBudget }, (chunks) =>
    handOver(ingress, req, reply, bytes, chunks),
  );
}

/** Reads the body within the size limit, the budget and the body timeout; `onBody` gets it whole. */
function readBody(
  ingress: Ingress,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reply: Reply,
  refusals: { bytes: RequestBytes; tooLarge: () => WebhookResponse; overTheBudget: () => void },
  onBody: (chunks: Buffer[]) => void,
): void {
  const { bytes, tooLarge, overTheBudget } = refusals;
  const reservedUpFront = bytes.held() > 0;
  let reading = true;
  let handedOver = false;
  // the callback runs later than the declarations below it
  const bodyTimer = setTimeout(() => {
    stopReading();
    reply.sendAndClose(
      ingress.options.handler.notRead(
        408,
        'REQUEST_TIMEOUT',
        `body not received within ${ingress.bodyTimeoutMs} ms`,
      ),
    );
  }, ingress.bodyTimeoutMs);
  const stopReading = () => {
    reading = false;
    clearTimeout(bodyTimer);
    req.removeAllListeners('data');
  };
  // Refused, timed out or gone before the handler had the body: its bytes go back to the budget now. Once handed
  // over they go back when the handler settles (the chunks are referenced until then).
  res.once('close', () => {
    stopReading();
    if (!handedOver) bytes.release();
  });
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (!reading) return;
    size += chunk.length;
    if (size > ingress.maxBytes) {
      stopReading();
      return reply.sendAndClose(tooLarge());
    }
    if (!reservedUpFront && !bytes.reserve(chunk.length)) {
      stopReading();
      return overTheBudget();
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!reading) return;
    stopReading();
    handedOver = true;
    onBody(chunks);
  });
}

/** The whole body to the handler once a slot is free; its bytes and the slot are held until the handler settles. */
function handOver(
  ingress: Ingress,
  req: http.IncomingMessage,
  reply: Reply,
  bytes: RequestBytes,
  chunks: Buffer[],
): void {
  const { slots } = ingress;
  void slots.acquire().then((got) => {
    if (!got) {
      bytes.release();
      slots.overloaded++;
      return reply.send(
        503,
        {
          ok: false,
          code: 'OVERLOADED',
          message: `waited ${slots.maxWaitMs} ms behind ${slots.max} webhooks waiting on Temporal; retry later`,
        },
        { 'retry-after': String(OVERLOADED_RETRY_AFTER_SEC) },
      );
    }
    // the slot is held until the handler settles: a sender that gave up does not stop the signal
    ingress.options
      .handler(req.headers, Buffer.concat(chunks))
      .then(
        (result) => reply.send(result.status, result.body),
        // never the error's text: it may quote configuration, and the caller may not be who signed
        () =>
          reply.send(500, {
            ok: false,
            code: 'INTERNAL_ERROR',
            message: 'the ingress failed on this webhook; retry later',
          }),
      )
      .finally(() => {
        bytes.release();
        slots.release();
      });
  });
}
