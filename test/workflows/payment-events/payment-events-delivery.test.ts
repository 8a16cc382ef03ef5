// The delivery workflow of outbound events (workflows/payment-events/): each event reaches the receiver signed,
// in order, exactly once accepted, through 5xx, 4xx, timeouts and an hour-long outage; an event that fails a whole
// retry window is visible (PaymentPhase EVENTS_UNDELIVERED, undeliveredSince) and goes out on redeliver.
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  createEventDeliveryActivities,
  createEventHandOverActivities,
  type EventDeliveryConfig,
} from '../../../activities/event-delivery-activities';
import type { XborderEvent } from '../../../src/contract';
import {
  EVENTS_UNDELIVERED_PHASE,
  getPaymentEventsState,
  paymentEventsWorkflowId,
  redeliverPaymentEvents,
} from '../../../workflows/payment-events/api';
import { PaymentPhaseKey } from '../../../workflows/search-attributes';
import { EventReceiver } from '../../support/event-receiver';
import { uniqueTaskQueue, uniqueWorkflowId, workflowBundle } from '../../support/temporal';
import { createWorkflowTestEnv, WORKFLOWS_PATH } from '../support/harness';

const secret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
const MIN = 60_000;

function event(
  paymentKey: string,
  sequence: number,
  type: XborderEvent['type'] = 'payment.created',
): XborderEvent {
  return {
    id: `run-${paymentKey}:${sequence}`,
    type,
    version: 1,
    sequence,
    occurredAt: new Date(0).toISOString(),
    paymentKey,
    data: {
      phase: 'AWAITING_FUNDS',
      providerPaymentId: 'pay_1',
      providerStatus: 'AWAITING_FUNDS',
      source: { amount: 100, currencyCode: 'USD' },
      destination: { amount: 92, currencyCode: 'EUR' },
      fee: 1,
      quote: { exchangeRate: 0.92, expiresAt: new Date(0).toISOString() },
      fundingInstructions: { rail: 'ACH', amount: 100, currencyCode: 'USD', toAddress: '000123' },
      fundingDeadline: null,
      code: null,
      requotes: 0,
    },
  };
}

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let receiver: EventReceiver;
const taskQueue = uniqueTaskQueue('events');
const secrets = [secret(), secret()]; // a rotation: both sign
let config: EventDeliveryConfig;
const started: string[] = [];

beforeAll(async () => {
  env = await createWorkflowTestEnv();
  receiver = await new EventReceiver([secrets[1]!]).start(); // the receiver already moved to the new secret
  config = { defaultEndpoint: { url: receiver.url, secrets }, endpoints: [], timeoutMs: 500 };
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS_PATH),
    activities: {
      ...createEventHandOverActivities(),
      ...createEventDeliveryActivities({
        config: {
          get defaultEndpoint() {
            return config.defaultEndpoint;
          },
          get endpoints() {
            return config.endpoints;
          },
          timeoutMs: 500,
        },
      }),
    },
  });
  running = worker.run();
}, 120_000);

afterEach(async () => {
  receiver.script.length = 0;
  receiver.fallback = 'ok';
  receiver.deliveries.length = 0;
  await Promise.all(
    started.splice(0).map((id) =>
      env.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined),
    ),
  );
});

afterAll(async () => {
  await receiver?.stop();
  worker?.shutdown();
  await running;
  await env?.teardown();
});

/** Hands events over as the payment does (signalWithStart through the hand-over activity's code path). */
async function handOver(
  paymentKey: string,
  events: XborderEvent[],
  endpointUrl: string | null = null,
): Promise<void> {
  const { handOverPaymentEvent } = createEventHandOverActivities({
    client: () => env.client,
    taskQueue: () => taskQueue,
  });
  for (const e of events) await handOverPaymentEvent(paymentKey, endpointUrl, e);
  if (!started.includes(paymentEventsWorkflowId(paymentKey)))
    started.push(paymentEventsWorkflowId(paymentKey));
}

/** Lets skipped time pass, a minute at a time, until `done` (retry backoffs are server timers). */
async function passUntil(done: () => boolean | Promise<boolean>, limitMin = 600): Promise<number> {
  for (let m = 0; m < limitMin; m++) {
    if (await done()) return m;
    await env.sleep(MIN);
  }
  throw new Error(
    `not done after ${limitMin} skipped minutes; deliveries: ${receiver.deliveries.map((d) => String(d.answered)).join(',')}`,
  );
}

describe('outbound event delivery', () => {
  it('delivers in order through 5xx, 4xx and a timeout, each event accepted once, signed with both secrets', async () => {
    const key = uniqueWorkflowId('ev');
    receiver.script.push(500, 404, 'hang', 503);
    await handOver(key, [
      event(key, 1),
      event(key, 2, 'payment.funds_received'),
      event(key, 3, 'payment.completed'),
    ]);
    await passUntil(() => receiver.accepted().length === 3);
    expect(receiver.accepted().map((e) => e.sequence)).toEqual([1, 2, 3]);
    // every failed attempt was the oldest event: a later one never overtook it
    expect(receiver.deliveries.slice(0, 5).map((d) => d.event?.sequence)).toEqual([1, 1, 1, 1, 1]);
    expect(receiver.deliveries.every((d) => d.refused === null)).toBe(true);
    const sig = receiver.deliveries[0]!.headers['webhook-signature'] as string;
    expect(sig.split(' ')).toHaveLength(2); // rotation: one v1 entry per secret
    expect(receiver.deliveries[0]!.headers['webhook-id']).toBe(`run-${key}:1`);
    const state = await getPaymentEventsState(env.client, key);
    expect(state).toMatchObject({ delivered: 3, pending: [], undeliveredSince: null });
  }, 120_000);

  it('drops a hand-over of an event it already has (a retried local activity)', async () => {
    const key = uniqueWorkflowId('ev');
    await handOver(key, [event(key, 1), event(key, 1), event(key, 2)]);
    await passUntil(() => receiver.accepted().length === 2);
    await env.sleep(5 * MIN);
    expect(receiver.accepted().map((e) => e.id)).toEqual([`run-${key}:1`, `run-${key}:2`]);
  }, 120_000);

  it('a receiver down for an hour gets every event once it is back, in order, with nothing marked undeliverable', async () => {
    const key = uniqueWorkflowId('ev');
    receiver.fallback = 503;
    await handOver(key, [event(key, 1), event(key, 2, 'payment.completed')]);
    await env.sleep(60 * MIN);
    expect(receiver.accepted()).toEqual([]);
    const failedAttempts = receiver.deliveries.length;
    expect(failedAttempts).toBeGreaterThan(3);
    receiver.fallback = 'ok';
    await passUntil(() => receiver.accepted().length === 2, 60);
    expect(receiver.accepted().map((e) => e.sequence)).toEqual([1, 2]);
    const state = await getPaymentEventsState(env.client, key);
    expect(state.undeliveredSince).toBeNull();
  }, 120_000);

  it('an event that fails a whole retry window is marked undeliverable and goes out on redeliver', async () => {
    const key = uniqueWorkflowId('ev');
    receiver.fallback = 500;
    await handOver(key, [event(key, 1), event(key, 2, 'payment.completed')]);
    await passUntil(
      async () => (await getPaymentEventsState(env.client, key)).undeliveredSince !== null,
      300,
    );
    const stuck = await getPaymentEventsState(env.client, key);
    expect(stuck.lastError).toBe('EVENT_RECEIVER_REFUSED: the receiver answered 500');
    expect(stuck.pending.map((p) => p.sequence)).toEqual([1, 2]);
    const described = await env.client.workflow.getHandle(paymentEventsWorkflowId(key)).describe();
    expect(described.typedSearchAttributes.get(PaymentPhaseKey)).toBe(EVENTS_UNDELIVERED_PHASE);

    receiver.fallback = 'ok';
    await redeliverPaymentEvents(env.client, key);
    await passUntil(() => receiver.accepted().length === 2, 10);
    expect(receiver.accepted().map((e) => e.sequence)).toEqual([1, 2]);
    const after = await env.client.workflow.getHandle(paymentEventsWorkflowId(key)).describe();
    expect(after.typedSearchAttributes.get(PaymentPhaseKey)).toBeUndefined();
  }, 180_000);

  it('a late event (moved after the outcome) is numbered after the last one, even once the delivery run has closed', async () => {
    const key = uniqueWorkflowId('ev');
    await handOver(key, [
      event(key, 1),
      event(key, 2, 'payment.funds_received'),
      event(key, 3, 'payment.completed'),
    ]);
    await passUntil(() => receiver.accepted().length === 3);
    await env.sleep(25 * 60 * MIN); // idle for a day: the delivery run ends
    const { handOverLatePaymentEvent } = createEventHandOverActivities({
      client: () => env.client,
      taskQueue: () => taskQueue,
    });
    const { sequence: _ignored, ...late } = {
      ...event(key, 99, 'payment.moved_after_outcome'),
      id: `moved:${key}:RETURNED`,
    };
    expect(await handOverLatePaymentEvent(key, null, late)).toBe(4);
    await passUntil(() => receiver.accepted().length === 4);
    const got = receiver.accepted()[3]!;
    expect(got).toMatchObject({
      type: 'payment.moved_after_outcome',
      sequence: 4,
      id: `moved:${key}:RETURNED`,
    });
    expect(receiver.deliveries.every((d) => d.refused === null)).toBe(true); // signed: the receiver verified each
  }, 120_000);

  it('an endpoint the worker has no secret for is never called: undeliverable at once, with the reason', async () => {
    const key = uniqueWorkflowId('ev');
    await handOver(key, [event(key, 1)], 'https://elsewhere.example/hook');
    await passUntil(async () => (await getPaymentEventsState(env.client, key)).undeliveredSince !== null, 5);
    const state = await getPaymentEventsState(env.client, key);
    expect(state.lastError).toMatch(/^EVENT_ENDPOINT_NOT_CONFIGURED: /);
    expect(receiver.deliveries).toEqual([]);
  }, 60_000);
});
