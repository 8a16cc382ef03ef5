// A receiver that is down, as an operator sees it (docs/outbound-events.md, "When a backend is not told"):
// `xborder events state` shows the attempt count, the receiver's last error and the next retry while Temporal
// retries the POST; `xborder events redeliver --all` gets the waiting events out at once when the receiver is back,
// and exits 0; events no worker can deliver are refused before anything starts, the key still free.
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { LocalStack } from '../../src/cli/stack';
import { createEventReceiver, InMemoryEventStore } from '../../src/client/event-receiver';
import { PaymentRequestInvalidError, startPayment } from '../../src/client/payments';
import type { XborderOutboundEvent } from '../../src/contract';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { cliEnvironment, runXborder } from '../support/cli-in-process';
import { freePort } from '../support/ports';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(240_000);

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let stack: LocalStack | undefined;
let receiverPort: number;
let server: Server | undefined;
const received: XborderOutboundEvent[] = [];

beforeAll(async () => {
  receiverPort = await freePort(); // nothing listens there yet: the receiver is "down"
  stack = await startTestStack({
    sandbox: { demoData: true },
    events: {
      defaultEndpoint: { url: `http://127.0.0.1:${receiverPort}/events`, secrets: [secret] },
      endpoints: [],
      timeoutMs: 2_000,
    },
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await stack?.close();
});

const xborder = (args: string[]) =>
  runXborder(
    args,
    cliEnvironment(os.tmpdir(), {
      TEMPORAL_ADDRESS: stack!.temporal.address,
      XBORDER_TASK_QUEUE: stack!.taskQueue,
    }),
  );

it('events no worker can deliver (an endpoint no worker has a secret for) are refused before the start; the key stays free', async () => {
  const key = uniqueKey('order-undeliverable');
  const refused = await startPayment(
    stack!.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key),
      events: { url: 'https://not-configured.example/hook' },
    },
    { taskQueue: stack!.taskQueue },
  ).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(PaymentRequestInvalidError);
  expect((refused as PaymentRequestInvalidError).violations).toEqual([
    expect.objectContaining({ path: 'events.url', rule: 'EVENTS_NOT_DELIVERABLE' }),
  ]);
  const started = await startPayment(
    stack!.client,
    { paymentKey: key, request: demoPaymentRequest(key), events: {} },
    { taskQueue: stack!.taskQueue },
  );
  expect(started.created.outcome).toBe('CREATED');
});

it('state shows each attempt (count, error, next retry) while the receiver is down; redeliver --all delivers at once and exits 0', async () => {
  const key = uniqueKey('order-outage');
  await startPayment(
    stack!.client,
    { paymentKey: key, request: demoPaymentRequest(key), events: {} },
    { taskQueue: stack!.taskQueue },
  );

  // Temporal retries the POST (10 s, 20 s …): by the second attempt the state names the error and the next retry
  const shown = await eventually(
    'a second failed attempt in events state',
    async () => {
      const r = await xborder(['events', 'state', key, '--json']);
      const state = JSON.parse(r.out) as {
        attempt: { attempt: number; lastError: string | null; nextAttemptAt: string | null } | null;
      };
      return r.code === 1 && state.attempt && state.attempt.attempt >= 2 && state.attempt.lastError
        ? { r, state }
        : null;
    },
    90_000,
  );
  expect(shown.state.attempt!.lastError).toMatch(/EVENT_RECEIVER_UNREACHABLE: no answer: .*ECONNREFUSED/);
  expect(Date.parse(shown.state.attempt!.nextAttemptAt!)).toBeGreaterThan(Date.now() - 5_000);
  const text = await xborder(['events', 'state', key]);
  expect(text.out).toMatch(/attempt \d+ \(next at .+\); last: EVENT_RECEIVER_UNREACHABLE/);

  // the receiver comes back; redeliver --all: out at once, not at the next retry (up to minutes away)
  const receiver = createEventReceiver({
    secrets: secret,
    store: new InMemoryEventStore(),
    onEvent: (e) => void received.push(e),
  });
  server = createServer(receiver.nodeListener);
  await new Promise<void>((resolve) => server!.listen(receiverPort, '127.0.0.1', resolve));
  const asked = Date.now();
  const redeliver = await xborder(['events', 'redeliver', '--all']);
  expect(redeliver.code).toBe(0);
  expect(redeliver.out).toMatch(/redelivery asked of \d+ delivery workflow/);
  await eventually(
    'payment.created at the receiver',
    async () => (received.some((e) => 'paymentKey' in e && e.paymentKey === key) ? true : null),
    30_000,
  );
  const tookMs = Date.now() - asked;
  console.log(`redeliver --all to delivered: ${tookMs} ms`);
  expect(tookMs).toBeLessThan(8_000);
  const state = await eventually('nothing waits', async () => {
    const r = await xborder(['events', 'state', key]);
    return r.code === 0 ? r : null;
  });
  expect(state.out).toMatch(/0 waiting/);
  // redeliver of one key exits 0 too once asked
  expect((await xborder(['events', 'redeliver', key])).code).toBe(0);
});
