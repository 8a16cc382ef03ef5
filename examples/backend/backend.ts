// A backend service that pays through xborder and learns every outcome by outbound events, never by polling
// (docs/outbound-events.md). Node's http only. What it shows:
//   POST /payments            {paymentKey, request} → starts the payment (xborder/client) with `events: {}` and
//                             answers what the customer must pay, where, and until when
//   POST /xborder-events      the endpoint xborder delivers to: the receiver of xborder/client (createEventReceiver)
//                             verifies (signature, timestamp, schema), dedupes through the store, then hands each
//                             event over ONCE (a redelivery or a replay is acknowledged, not applied again)
//   GET  /payments/:key       the backend's own view, built from the events alone
// A real service's store and view live in its database (InMemoryEventStore stands in for it here).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import {
  createEventReceiver,
  InMemoryEventStore,
  isTransferEvent,
  startPayment,
  type PaymentRequest,
  type XborderEvent,
} from '../../src/client';

export interface BackendOptions {
  client: Client;
  taskQueue: string;
  /** the endpoint's signing secrets (XBORDER_EVENTS_SECRETS of the worker): one, or two during a rotation */
  secrets: readonly string[];
  port?: number;
  /** answer 503 to this many first deliveries: stands in for a deploy or an outage of this service */
  failFirstDeliveries?: number;
}

/** What the backend knows of one payment, from its events. */
export interface PaymentView {
  phase: string;
  lastSequence: number;
  /** what the customer must send, where and until when (from payment.created) */
  toPay: {
    amount: number;
    currencyCode: string;
    rail: string;
    toAddress: string | null;
    quoteExpiresAt: string | null;
  } | null;
  outcome: string | null;
  code: string | null;
}

export interface Backend {
  url: string;
  eventsUrl: string;
  views: Map<string, PaymentView>;
  /** events processed, in processing order: each id at most once */
  processed: XborderEvent[];
  /** deliveries acknowledged without processing (already seen) */
  duplicates: number;
  /** deliveries refused (signature, timestamp, schema) */
  refused: number;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;
const TERMINAL = new Set(['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED', 'REJECTED', 'CANCELLED']);

export async function startBackend(options: BackendOptions): Promise<Backend> {
  let failuresLeft = options.failFirstDeliveries ?? 0;
  const backend: Omit<Backend, 'url' | 'eventsUrl' | 'close'> = {
    views: new Map(),
    processed: [],
    duplicates: 0,
    refused: 0,
  };

  /** Called once per event id, in order per payment (the receiver's store saw to it). */
  function apply(event: XborderEvent): void {
    backend.processed.push(event);
    const view = backend.views.get(event.paymentKey) ?? {
      phase: 'NEW',
      lastSequence: 0,
      toPay: null,
      outcome: null,
      code: null,
    };
    if (event.sequence > view.lastSequence) {
      view.lastSequence = event.sequence;
      view.phase = event.data.phase;
    }
    const fi = event.data.fundingInstructions;
    if (event.type === 'payment.created' && fi) {
      view.toPay = {
        amount: fi.amount,
        currencyCode: fi.currencyCode,
        rail: fi.rail,
        toAddress: fi.toAddress,
        quoteExpiresAt: event.data.quote?.expiresAt ?? null,
      };
    }
    if (TERMINAL.has(event.data.phase)) {
      view.outcome = event.data.phase;
      view.code = event.data.code;
    }
    backend.views.set(event.paymentKey, view);
  }

  const receiver = createEventReceiver({
    secrets: options.secrets,
    store: new InMemoryEventStore(),
    onEvent: (event) => {
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('not ready'); // answered 500, the store's record undone: xborder retries, in order
      }
      // this backend starts payments only; a transfer's events (transfer.*) would be handled the same way
      if (!isTransferEvent(event)) apply(event);
    },
  });

  async function onEvent(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const answer = await receiver.handle(req.headers, await readBody(req));
    if (answer.outcome === 'refused') backend.refused++; // never processed; xborder retries a real one
    if (answer.outcome === 'duplicate') backend.duplicates++;
    send(res, answer.status);
  }

  async function onStart(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { paymentKey, request } = JSON.parse(await readBody(req)) as {
      paymentKey: string;
      request: PaymentRequest;
    };
    const started = await startPayment(
      options.client,
      { paymentKey, request, events: {} },
      { taskQueue: options.taskQueue },
    );
    const created = started.created;
    if (created.outcome !== 'CREATED') return send(res, 422, created);
    const fi = created.fundingInstructions;
    send(res, 201, {
      paymentKey,
      whatToPay: fi
        ? {
            amount: fi.amount,
            currencyCode: fi.currencyCode,
            rail: fi.rail,
            toAddress: fi.toAddress,
            before: created.quote.expiresAt,
          }
        : null,
    });
  }

  const server: Server = createServer((req, res) => {
    const route = `${req.method} ${req.url?.replace(/\/[^/]+$/, '/:key')}`;
    const handle =
      req.method === 'POST' && req.url === '/xborder-events'
        ? onEvent(req, res)
        : req.method === 'POST' && req.url === '/payments'
          ? onStart(req, res)
          : route === 'GET /payments/:key'
            ? Promise.resolve(
                send(res, backend.views.has(key(req)) ? 200 : 404, backend.views.get(key(req)) ?? {}),
              )
            : Promise.resolve(send(res, 404, { error: 'not found' }));
    handle.catch((err: unknown) => send(res, 500, { error: (err as Error).name }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(backend, {
    url,
    eventsUrl: `${url}/xborder-events`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function key(req: IncomingMessage): string {
  return decodeURIComponent(req.url!.split('/').at(-1)!);
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent) return;
  res
    .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
    .end(body === undefined ? undefined : JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
