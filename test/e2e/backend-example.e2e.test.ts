// The example backend (examples/backend) on the npm start stack: it starts a payment, shows what to pay, and
// learns the outcome from outbound events alone — through a receiver outage (its first deliveries answered 503),
// with each event processed once, a replayed event acknowledged and not applied again, a tampered one refused.
import { randomBytes } from 'node:crypto';
import got from 'got';
import { signedHeaders } from '../../activities/event-delivery-activities';
import type { LocalStack } from '../../src/cli/stack';
import { startBackend, type Backend } from '../../examples/backend/backend';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { recordHistories } from '../support/history-recorder';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { paymentEventsWorkflowId } from '../../workflows/payment-events/api';
import { freePort } from '../support/ports';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(180_000);

const secrets = [`whsec_${randomBytes(32).toString('base64')}`];
let stack: LocalStack | undefined;
let backend: Backend | undefined;
let eventsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  eventsUrl = `http://127.0.0.1:${port}/xborder-events`;
  stack = await startTestStack({
    sandbox: { demoData: true, quoteValidityMs: 60_000 },
    events: { defaultEndpoint: { url: eventsUrl, secrets }, endpoints: [], timeoutMs: 2_000 },
  });
  backend = await startBackend({
    client: stack.client,
    taskQueue: stack.taskQueue,
    secrets,
    port,
    failFirstDeliveries: 2,
  });
});

afterAll(async () => {
  await backend?.close();
  await stack?.close();
});

it('pays through the example backend, which learns every change by signed events, each processed once', async () => {
  const key = uniqueKey('e2e-events');
  const started = await got
    .post(`${backend!.url}/payments`, { json: { paymentKey: key, request: demoPaymentRequest(key) } })
    .json<{
      whatToPay: { amount: number; currencyCode: string; toAddress: string | null; before: string };
    }>();
  expect(started.whatToPay).toMatchObject({
    amount: expect.any(Number),
    currencyCode: 'USDC',
    before: expect.any(String),
  });

  // the first event waits out two 503s (retried 10 s, then 20 s later), then everything follows in order
  await eventually(
    'payment.created at the backend',
    async () => backend!.views.get(key)?.toPay ?? null,
    90_000,
  );
  expect(backend!.views.get(key)!.toPay).toMatchObject({
    amount: started.whatToPay.amount,
    currencyCode: 'USDC',
  });
  const providerPaymentId = backend!.processed.find((e) => e.paymentKey === key)!.data.providerPaymentId!;
  await got.post(`${stack!.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
    headers: stack!.sandbox.controlHeaders,
    json: {},
  });
  await eventually(
    'the outcome at the backend',
    async () => backend!.views.get(key)?.outcome ?? null,
    90_000,
  );

  const mine = backend!.processed.filter((e) => e.paymentKey === key);
  expect(backend!.views.get(key)).toMatchObject({ outcome: 'COMPLETED', phase: 'COMPLETED' });
  expect(mine.map((e) => e.type)).toEqual(['payment.created', 'payment.funds_received', 'payment.completed']);
  expect(mine.map((e) => e.sequence)).toEqual([1, 2, 3]);
  expect(new Set(mine.map((e) => e.id)).size).toBe(3);

  // a replay of a processed event (validly signed, inside the window): acknowledged, not applied again
  const body = JSON.stringify(mine[2]);
  const replay = await got.post(eventsUrl, {
    body,
    headers: signedHeaders({ url: eventsUrl, secrets }, mine[2]!.id, body, new Date()),
    throwHttpErrors: false,
  });
  expect(replay.statusCode).toBe(204);
  expect(backend!.duplicates).toBe(1);
  expect(backend!.processed.filter((e) => e.paymentKey === key)).toHaveLength(3);

  // a body changed after signing: refused, never processed
  const tampered = body.replace('"COMPLETED"', '"FAILED"');
  const refused = await got.post(eventsUrl, {
    body: tampered,
    headers: signedHeaders({ url: eventsUrl, secrets }, mine[2]!.id, body, new Date()),
    throwHttpErrors: false,
  });
  expect(refused.statusCode).toBe(400);
  expect(backend!.refused).toBe(1);
  expect(backend!.views.get(key)!.outcome).toBe('COMPLETED');
  // the replay test's histories of a payment with events and of its delivery workflow (XBORDER_RECORD_HISTORIES=1)
  await recordHistories(stack!.client, stack!.temporal.address, 'outbound-events', [
    paymentWorkflowId(key),
    paymentEventsWorkflowId(key),
  ]);
});
