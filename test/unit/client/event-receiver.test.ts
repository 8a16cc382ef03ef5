// The receiver xborder/client exports (src/client/event-receiver.ts), mounted on Node's http as a backend would:
// signature over the raw body, dedupe and per-payment order through the store, the typed event handed over only
// once the store accepted it, a failing handler undoing the store's record (500: redelivered), and the finality map.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { signedHeaders } from '../../../activities/event-delivery-activities';
import {
  createEventReceiver,
  EVENT_FINALITY,
  InMemoryEventStore,
  isFinalEvent,
  type ReceivedEventInfo,
} from '../../../src/client';
import {
  XBORDER_EVENT_TYPES,
  XBORDER_TRANSFER_EVENT_TYPES,
  type XborderEvent,
  type XborderOutboundEvent,
} from '../../../src/contract';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const at = new Date('2026-11-20T10:00:00Z'); // a fixed clock: the receiver checks the timestamp against `now`

function event(
  paymentKey: string,
  sequence: number,
  type: XborderEvent['type'],
  run = `run-${paymentKey}`,
): XborderEvent {
  return {
    id: `${run}:${sequence}`,
    type,
    version: 1,
    sequence,
    occurredAt: at.toISOString(),
    paymentKey,
    data: {
      phase: 'AWAITING_FUNDS',
      providerPaymentId: 'pay_1',
      providerStatus: 'AWAITING_FUNDS',
      source: null,
      destination: null,
      fee: null,
      quote: null,
      fundingInstructions: null,
      fundingDeadline: null,
      code: null,
      requotes: 0,
    },
  };
}

let server: Server;
let url: string;
const handled: Array<{ event: XborderOutboundEvent; info: ReceivedEventInfo }> = [];
let failNext = false;
const store = new InMemoryEventStore();

beforeAll(async () => {
  const receiver = createEventReceiver({
    secrets: secret,
    store,
    verify: { now: at },
    onEvent: (e, info) => {
      if (failNext) {
        failNext = false;
        throw new Error('database down');
      }
      handled.push({ event: e, info });
    },
  });
  // the whole mount: one line
  server = createServer(receiver.nodeListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/xborder-events`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function deliver(e: XborderOutboundEvent, tamper = false): Promise<number> {
  const body = JSON.stringify(e);
  const headers = signedHeaders({ url, secrets: [secret] }, e.id, body, at);
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: tamper ? body.replace('AWAITING_FUNDS', 'COMPLETED') : body,
  });
  return response.status;
}

it('hands each event over once, in order, after the store accepted it; a redelivery is acknowledged, not handed over', async () => {
  expect(await deliver(event('order-1', 1, 'payment.created'))).toBe(204);
  expect(await deliver(event('order-1', 1, 'payment.created'))).toBe(204); // redelivery: duplicate
  expect(await deliver(event('order-1', 2, 'payment.funds_received'))).toBe(204);
  expect(await deliver(event('order-1', 2, 'payment.funds_received'))).toBe(204); // redelivery: duplicate
  expect(await deliver(event('order-1', 3, 'payment.completed'))).toBe(204);
  expect(handled.map((h) => [h.event.sequence, h.event.type, h.info.finality])).toEqual([
    [1, 'payment.created', 'not-final'],
    [2, 'payment.funds_received', 'not-final'],
    [3, 'payment.completed', 'final'],
  ]);
  expect(handled[0]!.info).toMatchObject({ key: 'order-1', kind: 'payment' });
});

it('a body changed after signing is refused (400) and never handed over', async () => {
  const before = handled.length;
  expect(await deliver(event('order-2', 1, 'payment.created'), true)).toBe(400);
  expect(handled).toHaveLength(before);
});

it('a handler that throws undoes the record: 500, and the redelivery is handed over', async () => {
  failNext = true;
  expect(await deliver(event('order-3', 1, 'payment.created'))).toBe(500);
  expect(handled.filter((h) => h.info.key === 'order-3')).toHaveLength(0);
  expect(await deliver(event('order-3', 1, 'payment.created'))).toBe(204);
  expect(handled.filter((h) => h.info.key === 'order-3').map((h) => h.event.sequence)).toEqual([1]);
});

it("a freed key's new run is a new stream: its sequence 1 is handed over after the rejected run's", async () => {
  expect(await deliver(event('order-4', 1, 'payment.rejected', 'run-1'))).toBe(204);
  expect(await deliver(event('order-4', 1, 'payment.created', 'run-2'))).toBe(204);
  expect(handled.filter((h) => h.info.key === 'order-4').map((h) => h.event.type)).toEqual([
    'payment.rejected',
    'payment.created',
  ]);
});

it('knows every event type: the outcome is final, expired waits for late funds, a move after the outcome comes after final', () => {
  expect(Object.keys(EVENT_FINALITY).sort()).toEqual(
    [...XBORDER_EVENT_TYPES, ...XBORDER_TRANSFER_EVENT_TYPES].sort(),
  );
  for (const type of [
    'payment.completed',
    'payment.failed',
    'payment.refunded',
    'payment.rejected',
    'payment.cancelled',
    'transfer.completed',
  ])
    expect([type, isFinalEvent(type)]).toEqual([type, true]);
  for (const type of [
    'payment.created',
    'payment.expired',
    'payment.moved_after_outcome',
    'payment.needs_attention',
    'payment.some_future_type',
  ])
    expect([type, isFinalEvent(type)]).toEqual([type, false]);
  expect(EVENT_FINALITY['payment.expired']).toBe('expired');
  expect(EVENT_FINALITY['payment.moved_after_outcome']).toBe('after-final');
});

it('the in-memory store refuses an older sequence of a stream it has seen a later one of (stale), and release undoes accept', () => {
  const s = new InMemoryEventStore();
  expect(s.accept({ id: 'a:2', stream: 'payment:k#a', sequence: 2 })).toBe('accepted');
  expect(s.accept({ id: 'x', stream: 'payment:k#a', sequence: 1 })).toBe('stale');
  expect(s.accept({ id: 'a:2', stream: 'payment:k#a', sequence: 2 })).toBe('duplicate');
  s.release({ id: 'a:2', stream: 'payment:k#a', sequence: 2 });
  expect(s.accept({ id: 'x', stream: 'payment:k#a', sequence: 1 })).toBe('accepted');
});
