// The Lambda webhook ingress (src/ingress/lambda-main.ts) against a real Temporal dev server: API Gateway v1, v2
// and Function URL events, plain and base64 bodies, each delivered as a signal to the providerPayment entity; one
// Temporal connection per container, reused by warm invocations; a failed connect is answered 503 and retried.
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { dataConverterFromEnv } from '../../src/codec/data-converter';
import { connectClient } from '../../src/client/connect';
import {
  createLambdaIngress,
  handler,
  resetLambdaIngress,
  type LambdaIngress,
} from '../../src/ingress/lambda-main';
import { providerPaymentEventSignal, providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { createDevServerEnv, uniqueTaskQueue } from '../support/temporal';
import { lambdaEvent, signedPaymentEvent, TEST_SECRET, type EventKind } from './events';

let env: TestWorkflowEnvironment;
const taskQueue = uniqueTaskQueue('lambda-ingress'); // no worker polls it: the entities start and wait, which is enough here

beforeAll(async () => {
  env = await createDevServerEnv();
}, 120_000);

afterAll(async () => {
  await resetLambdaIngress();
  await env?.teardown();
});

function lambdaEnv(): NodeJS.ProcessEnv {
  return {
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_NAMESPACE: env.namespace ?? 'default',
    XBORDER_WEBHOOK_SECRETS: TEST_SECRET,
    XBORDER_TASK_QUEUE: taskQueue,
    XBORDER_LOG_LEVEL: 'ERROR',
  };
}

/** The event ids the entity received as signals, read from its history. */
async function signalledEventIds(providerPaymentId: string): Promise<string[]> {
  const history = await env.client.workflow
    .getHandle(providerPaymentWorkflowId(providerPaymentId))
    .fetchHistory();
  const signals = (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((a) => a?.signalName === providerPaymentEventSignal.name);
  return Promise.all(
    signals.map(async (a) => (await decodePayload<{ eventId: string }>(a!.input!.payloads![0]!)).eventId),
  );
}

/** Signals are encrypted: decode with the test key's codec, then read the JSON. */
async function decodePayload<T>(payload: Payload): Promise<T> {
  let payloads = [payload];
  for (const codec of [...(dataConverterFromEnv(process.env).payloadCodecs ?? [])].reverse())
    payloads = await codec.decode(payloads);
  return defaultPayloadConverter.fromPayload<T>(payloads[0]!);
}

function parse(result: { statusCode: number; body: string }) {
  return { status: result.statusCode, body: JSON.parse(result.body) as { code: string; routedTo?: string } };
}

describe('Lambda webhook ingress', () => {
  let ingress: LambdaIngress;
  let connects = 0;
  beforeAll(() => {
    ingress = createLambdaIngress(lambdaEnv(), {
      connect: (config) => {
        connects++;
        return connectClient(config, dataConverterFromEnv(process.env)); // the test key of jest's setup
      },
    });
  });
  afterAll(async () => ingress?.close());

  const cases: Array<[EventKind, boolean]> = [
    ['apiGatewayV1', false],
    ['apiGatewayV1', true],
    ['apiGatewayV2', false],
    ['apiGatewayV2', true],
    ['functionUrl', false],
    ['functionUrl', true],
  ];

  it.each(cases)(
    'delivers a %s event (base64 body: %s) as a signal to the payment entity',
    async (kind, base64) => {
      const paymentId = `pay_${randomUUID()}`;
      const webhook = signedPaymentEvent(paymentId);
      const result = parse(await ingress.handle(lambdaEvent(kind, webhook, { base64 })));
      expect(result).toMatchObject({
        status: 200,
        body: { code: 'ACCEPTED', routedTo: providerPaymentWorkflowId(paymentId) },
      });
      expect(await signalledEventIds(paymentId)).toEqual([webhook.eventId]);
    },
  );

  it('made one Temporal connection for all those warm invocations and keeps it open', async () => {
    expect(connects).toBe(1);
    expect(ingress.connects).toBe(1);
    // Still usable: a later invocation is delivered over the same connection.
    const paymentId = `pay_${randomUUID()}`;
    const webhook = signedPaymentEvent(paymentId);
    expect((await ingress.handle(lambdaEvent('apiGatewayV2', webhook))).statusCode).toBe(200);
    expect(connects).toBe(1);
  });

  it('refuses a forged event with 401, a GET with 405 and a non-HTTP event with 400, delivering nothing', async () => {
    const paymentId = `pay_${randomUUID()}`;
    const forged = signedPaymentEvent(paymentId, `whsec_${Buffer.from(randomUUID()).toString('base64')}`);
    expect(parse(await ingress.handle(lambdaEvent('functionUrl', forged)))).toMatchObject({
      status: 401,
      body: { code: 'INVALID_SIGNATURE' },
    });
    expect(
      parse(
        await ingress.handle(lambdaEvent('apiGatewayV1', signedPaymentEvent(paymentId), { method: 'GET' })),
      ),
    ).toMatchObject({ status: 405 });
    expect(parse(await ingress.handle({ Records: [] }))).toMatchObject({
      status: 400,
      body: { code: 'NOT_AN_HTTP_EVENT' },
    });
    await expect(signalledEventIds(paymentId)).rejects.toThrow(); // the entity was never started
  });
});

it('answers 503 while Temporal cannot be reached and connects on a later invocation', async () => {
  let attempts = 0;
  const ingress = createLambdaIngress(lambdaEnv(), {
    connect: async (config) => {
      attempts++;
      if (attempts === 1) throw new Error('connection refused');
      return connectClient(config, dataConverterFromEnv(process.env)); // the test key of jest's setup
    },
  });
  try {
    const paymentId = `pay_${randomUUID()}`;
    const webhook = signedPaymentEvent(paymentId);
    // The sender retries a 5xx (Standard Webhooks); nothing is remembered as seen.
    expect(parse(await ingress.handle(lambdaEvent('apiGatewayV2', webhook)))).toMatchObject({
      status: 503,
      body: { code: 'TEMPORAL_UNAVAILABLE' },
    });
    expect(parse(await ingress.handle(lambdaEvent('apiGatewayV2', webhook)))).toMatchObject({
      status: 200,
      body: { code: 'ACCEPTED' },
    });
    expect(attempts).toBe(2);
    expect(await signalledEventIds(paymentId)).toEqual([webhook.eventId]);
  } finally {
    await ingress.close();
  }
});

it('fails the cold start on a malformed secret instead of refusing every event later', () => {
  // named by its variable and what is wrong with it (src/security/known-secrets.ts: secrets are read as what they decode to)
  expect(() => createLambdaIngress({ ...lambdaEnv(), XBORDER_WEBHOOK_SECRETS: 'not-a-secret' })).toThrow(
    /XBORDER_WEBHOOK_SECRETS.*not whsec_<base64>/,
  );
  expect(() => createLambdaIngress({ TEMPORAL_ADDRESS: env.address })).toThrow(/XBORDER_WEBHOOK_SECRETS/);
});

it('the exported handler builds itself from process.env at the first invocation and delivers', async () => {
  const saved = { ...process.env };
  Object.assign(process.env, lambdaEnv());
  try {
    const paymentId = `pay_${randomUUID()}`;
    const webhook = signedPaymentEvent(paymentId);
    expect((await handler(lambdaEvent('functionUrl', webhook, { base64: true }))).statusCode).toBe(200);
    expect(await signalledEventIds(paymentId)).toEqual([webhook.eventId]);
  } finally {
    process.env = saved;
  }
});
