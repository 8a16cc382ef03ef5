// End to end: backends' workflows in OTHER namespaces use the `xborder` Nexus service (src/nexus) through Nexus
// endpoints, against the real stack (dev server, sandbox, ingress, worker). Two callers, each in its own namespace
// with its own endpoint (the endpoint is the caller's identity: SECURITY.md, "Nexus"): `shop` through the stack's
// `xborder` endpoint, `other` through a second endpoint to the same worker. Both callers' codecs refuse unbound
// payloads (XBORDER_CODEC_UNBOUND=refuse, the hardening docs/codec.md recommends).
import { randomUUID } from 'node:crypto';
import got from 'got';
import Long from 'long';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { LocalStack } from '../../src/cli/stack';
import { connectClient } from '../../src/client/connect';
import { ensureNexusEndpoint } from '../../src/cli/nexus-endpoint';
import { getPaymentState, startPayment, type StartPaymentInput } from '../../src/client/payments';
import { XBORDER_NEXUS_ENDPOINT } from '../../src/nexus/service';
import { nexusCallerDataConverter } from '../../src/client/nexus-caller-codec';
import type { Called } from '../support/workflows/nexus-caller';
import { workflowBundle } from '../support/temporal';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(240_000);

const callerWorkflows = require.resolve('../support/workflows/nexus-caller');
const SHOP_NAMESPACE = `backend-${randomUUID().slice(0, 8)}`;
const OTHER_NAMESPACE = `other-${randomUUID().slice(0, 8)}`;
const OTHER_ENDPOINT = `xborder-other-${randomUUID().slice(0, 8)}`;
let stack: LocalStack;
let connection: NativeConnection;
const paymentIds: string[] = [];

interface Caller {
  namespace: string;
  endpoint: string;
  client: Client;
}
let shop: Caller;
let other: Caller;

async function callerNamespace(namespace: string, endpoint: string): Promise<Caller> {
  await stack.client.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86_400) },
  });
  const client = await connectClient({ address: stack.temporal.address, namespace }, stack.dataConverter);
  // a new namespace is usable once the frontend has it in its cache (a few seconds on the dev server)
  await eventually(`the namespace ${namespace}`, () => client.workflow.count().then(() => true), 60_000);
  return { namespace, endpoint, client };
}

beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true } });
  shop = await callerNamespace(SHOP_NAMESPACE, XBORDER_NEXUS_ENDPOINT);
  other = await callerNamespace(OTHER_NAMESPACE, OTHER_ENDPOINT);
  // the operator's second endpoint: another caller, the same worker
  await ensureNexusEndpoint(stack.temporal.address, {
    name: OTHER_ENDPOINT,
    namespace: stack.namespace,
    taskQueue: stack.taskQueue,
  });
  connection = await NativeConnection.connect({ address: stack.temporal.address });
  await workflowBundle(callerWorkflows);
});
afterAll(async () => {
  try {
    for (const id of paymentIds)
      await stack.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
    await connection?.close();
    await shop?.client.connection.close();
    await other?.client.connection.close();
  } finally {
    await stack?.close();
  }
});

/** A worker of a backend's (caller's) workflows in its own namespace; its codec refuses unbound payloads. */
async function startCallerWorker(taskQueue: string, who: Caller = shop) {
  const worker = await Worker.create({
    connection,
    namespace: who.namespace,
    taskQueue,
    workflowBundle: await workflowBundle(callerWorkflows),
    // reads the payment's outcome bound to `payment:<key>` of xborder's namespace, and answers bound to its workflow
    dataConverter: nexusCallerDataConverter(stack.namespace, {
      ...process.env,
      XBORDER_CODEC_UNBOUND: 'refuse',
    }),
  });
  const done = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await done;
    },
  };
}

function paymentInput(key: string, amount = 100): StartPaymentInput {
  return { paymentKey: key, request: demoPaymentRequest(key, amount) };
}

/** Starts one caller workflow; its last argument is the caller's endpoint. */
function callOf(taskQueue: string, workflow: string, args: unknown[], who: Caller = shop) {
  return who.client.workflow.start(workflow, {
    taskQueue,
    workflowId: `${workflow}-${randomUUID()}`,
    args: [...args, who.endpoint],
  });
}

async function resultOf(
  taskQueue: string,
  workflow: string,
  args: unknown[],
  who: Caller = shop,
): Promise<Called<unknown>> {
  return (await (await callOf(taskQueue, workflow, args, who)).result()) as Called<unknown>;
}

async function providerPaymentOf(key: string): Promise<string> {
  return eventually(
    'the provider payment',
    async () => (await getPaymentState(stack.client, key)).providerPaymentId,
    60_000,
  );
}

async function fund(providerPaymentId: string) {
  await got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
}

async function providerPaymentsWithReference(reference: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) ids.push(p.id);
  return ids;
}

async function operationStarted(handle: {
  fetchHistory(): Promise<{ events?: Array<{ nexusOperationStartedEventAttributes?: unknown }> | null }>;
}) {
  await eventually(
    'the operation started',
    async () => {
      const history = await handle.fetchHistory();
      return history.events?.some((e) => e.nexusOperationStartedEventAttributes) ? true : null;
    },
    60_000,
  );
}

it('the local stack created the endpoint to the worker task queue; creating it again is idempotent', async () => {
  const target = async () =>
    (await stack.client.connection.operatorService.listNexusEndpoints({ name: XBORDER_NEXUS_ENDPOINT }))
      .endpoints?.[0]?.spec?.target?.worker;
  expect(await target()).toMatchObject({ namespace: stack.namespace, taskQueue: stack.taskQueue });
  const ours = { namespace: stack.namespace, taskQueue: stack.taskQueue };
  expect(await ensureNexusEndpoint(stack.temporal.address, ours)).toBe('unchanged');
  // a dev server reused by a stack with another task queue: pointed there, and back
  expect(await ensureNexusEndpoint(stack.temporal.address, { ...ours, taskQueue: 'elsewhere' })).toBe(
    'updated',
  );
  expect(await target()).toMatchObject({ taskQueue: 'elsewhere' });
  expect(await ensureNexusEndpoint(stack.temporal.address, ours)).toBe('updated');
  expect(await target()).toMatchObject(ours);
});

it('startPayment answers what the client answers (the created payment, its funding instructions); the outcome comes by callback; the same key twice is one payment', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  const worker = await startCallerWorker(taskQueue);
  try {
    const key = uniqueKey('nexus-pay');
    paymentIds.push(`payment:${key}`);
    const started = await resultOf(taskQueue, 'nexusStartCaller', [paymentInput(key)]);
    const providerPaymentId = await providerPaymentOf(key);
    expect(started).toMatchObject({
      value: {
        workflowId: `payment:${key}`,
        created: {
          outcome: 'CREATED',
          providerPaymentId,
          quote: expect.any(Object),
          fundingInstructions: expect.any(Object),
        },
      },
    });
    expect(
      (started as { value: { created: { fundingInstructions: unknown } } }).value.created.fundingInstructions,
    ).not.toBeNull();
    // the same start again: the same answer, no second payment
    expect(await resultOf(taskQueue, 'nexusStartCaller', [paymentInput(key)])).toEqual(started);
    const first = await callOf(taskQueue, 'nexusOutcomeCaller', [key]);
    const second = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
    // both wait on the running payment (their operations started) before it ends
    await operationStarted(first);
    await operationStarted(second);
    await fund(providerPaymentId);
    const [a, b] = (await Promise.all([first.result(), second.result()])) as Called<unknown>[];
    expect(a).toMatchObject({ value: { outcome: 'COMPLETED', payment: { id: providerPaymentId } } });
    expect(b).toMatchObject({
      value: { started: (started as { value: unknown }).value, outcome: (a as { value: unknown }).value },
    });
    expect(await providerPaymentsWithReference(key)).toEqual([providerPaymentId]);
    // a payment that has ended: its outcome at once
    expect(await resultOf(taskQueue, 'nexusOutcomeCaller', [key])).toEqual(a);
  } finally {
    await worker.stop();
  }
});

it('the same key with another request fails with IDEMPOTENCY_KEY_REUSED; an invalid input with PAYMENT_REQUEST_INVALID', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  const worker = await startCallerWorker(taskQueue);
  try {
    const key = uniqueKey('nexus-reuse');
    paymentIds.push(`payment:${key}`);
    expect(await resultOf(taskQueue, 'nexusStartCaller', [paymentInput(key, 100)])).toMatchObject({
      value: { created: { outcome: 'CREATED' } },
    });
    const otherRequest = await resultOf(taskQueue, 'nexusStartCaller', [paymentInput(key, 250)]);
    expect(otherRequest).toMatchObject({ failure: 'IDEMPOTENCY_KEY_REUSED' });
    const invalidInput = {
      paymentKey: uniqueKey('nexus-invalid'),
      request: { ...demoPaymentRequest('x'), source: { currencyCode: 'USDC', amount: -5, rail: 'POLYGON' } },
    };
    expect(await resultOf(taskQueue, 'nexusStartCaller', [invalidInput])).toMatchObject({
      failure: 'PAYMENT_REQUEST_INVALID',
    });
    expect(
      await stack.client.workflow
        .getHandle(`payment:${invalidInput.paymentKey}`)
        .describe()
        .catch(() => null),
    ).toBeNull();
    // the first payment is untouched: still one provider payment for the key, still running
    expect(await providerPaymentsWithReference(key)).toHaveLength(1);
    expect((await stack.client.workflow.getHandle(`payment:${key}`).describe()).status.name).toBe('RUNNING');
  } finally {
    await worker.stop();
  }
});

it('getPaymentState and cancelPayment: the state, an unknown key, an accepted cancel, a cancel after the outcome', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  const worker = await startCallerWorker(taskQueue);
  try {
    const key = uniqueKey('nexus-cancel');
    paymentIds.push(`payment:${key}`);
    const started = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
    const providerPaymentId = await providerPaymentOf(key);
    expect(await resultOf(taskQueue, 'nexusStateCaller', [key])).toMatchObject({
      value: { workflowId: `payment:${key}`, providerPaymentId },
    });
    expect(await resultOf(taskQueue, 'nexusStateCaller', [uniqueKey('nexus-none')])).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    const cancelled = await resultOf(taskQueue, 'nexusCancelCaller', [key, 'customer changed their mind']);
    expect(cancelled).toMatchObject({
      value: { phase: 'CANCELLING', cancel: { decision: 'ACCEPTED', via: 'UPDATE' } },
    });
    // the payment keeps listening until the provider says it can no longer be funded: the operation stays open
    expect((await started.describe()).status.name).toBe('RUNNING');
    // a payment that has ended: nothing to cancel, and the failure says how it ended
    const doneKey = uniqueKey('nexus-done');
    paymentIds.push(`payment:${doneKey}`);
    const done = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(doneKey)]);
    await fund(await providerPaymentOf(doneKey));
    expect(await done.result()).toMatchObject({ value: { outcome: { outcome: 'COMPLETED' } } });
    expect(await resultOf(taskQueue, 'nexusCancelCaller', [doneKey, 'too late'])).toMatchObject({
      failure: 'PAYMENT_ALREADY_FINISHED',
    });
  } finally {
    await worker.stop();
  }
});

it('another caller (its own namespace and endpoint) cannot read, cancel, await or take over the payment; the owner can', async () => {
  const shopQueue = `caller-${randomUUID()}`;
  const otherQueue = `caller-${randomUUID()}`;
  const shopWorker = await startCallerWorker(shopQueue, shop);
  const otherWorker = await startCallerWorker(otherQueue, other);
  try {
    const key = uniqueKey('nexus-owned');
    paymentIds.push(`payment:${key}`);
    expect(await resultOf(shopQueue, 'nexusStartCaller', [paymentInput(key)])).toMatchObject({
      value: { created: { outcome: 'CREATED' } },
    });
    const providerPaymentId = await providerPaymentOf(key);
    const never = uniqueKey('nexus-never');
    // read: the answer of a key never used, word for word (the key aside); nothing of the payment in it
    const read = await resultOf(otherQueue, 'nexusStateCaller', [key], other);
    const unknown = await resultOf(otherQueue, 'nexusStateCaller', [never], other);
    expect(read).toMatchObject({ failure: 'PAYMENT_NOT_FOUND' });
    expect(unknown).toMatchObject({ failure: 'PAYMENT_NOT_FOUND' });
    expect((read as { message: string }).message.split(key).join('<key>')).toBe(
      (unknown as { message: string }).message.split(never).join('<key>'),
    );
    for (const secret of [
      providerPaymentId,
      'cus_demo_individual',
      'acc_demo_brl_bank',
      '0x1111111111111111111111111111111111111111',
    ])
      expect(JSON.stringify(read)).not.toContain(secret);
    // cancel and await: the same not-found
    expect(await resultOf(otherQueue, 'nexusCancelCaller', [key, 'not mine'], other)).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    expect(await resultOf(otherQueue, 'nexusOutcomeCaller', [key], other)).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    // the very same start: the key is taken, and its answer (funding instructions) is not handed over
    const takeover = await resultOf(otherQueue, 'nexusStartCaller', [paymentInput(key)], other);
    expect(takeover).toMatchObject({ failure: 'IDEMPOTENCY_KEY_REUSED' });
    expect(JSON.stringify(takeover)).not.toContain(providerPaymentId);
    // nothing happened to the payment
    const state = await getPaymentState(stack.client, key);
    expect(state).toMatchObject({ phase: 'AWAITING_FUNDS', providerPaymentId });
    expect(state.cancel ?? null).toBeNull();
    // a payment started by the client (no Nexus caller): no Nexus caller reaches it
    const direct = uniqueKey('nexus-direct');
    paymentIds.push(`payment:${direct}`);
    await startPayment(stack.client, paymentInput(direct), { taskQueue: stack.taskQueue });
    expect(await resultOf(shopQueue, 'nexusStateCaller', [direct])).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    // the other caller's own payment is its own
    const its = uniqueKey('nexus-its');
    paymentIds.push(`payment:${its}`);
    expect(await resultOf(otherQueue, 'nexusStartCaller', [paymentInput(its)], other)).toMatchObject({
      value: { created: { outcome: 'CREATED' } },
    });
    expect(await resultOf(otherQueue, 'nexusStateCaller', [its], other)).toMatchObject({
      value: { workflowId: `payment:${its}` },
    });
    expect(await resultOf(shopQueue, 'nexusStateCaller', [its])).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    // the owner reads and cancels
    expect(await resultOf(shopQueue, 'nexusStateCaller', [key])).toMatchObject({
      value: { workflowId: `payment:${key}`, providerPaymentId },
    });
    expect(await resultOf(shopQueue, 'nexusCancelCaller', [key, 'owner cancels'])).toMatchObject({
      value: { cancel: { decision: 'ACCEPTED' } },
    });
  } finally {
    await shopWorker.stop();
    await otherWorker.stop();
  }
});

it('a caller whose worker is stopped mid-payment still gets the outcome when a worker comes back', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  let worker = await startCallerWorker(taskQueue);
  const key = uniqueKey('nexus-restart');
  paymentIds.push(`payment:${key}`);
  const started = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
  const providerPaymentId = await providerPaymentOf(key);
  await operationStarted(started);
  await worker.stop();
  try {
    await fund(providerPaymentId);
    // the payment ends while no caller worker runs: the callback lands in the caller history meanwhile
    await stack.client.workflow.getHandle(`payment:${key}`).result();
    await eventually(
      'the completion in the caller history',
      async () => {
        const history = await started.fetchHistory();
        return history.events?.some((e) => e.nexusOperationCompletedEventAttributes) ? true : null;
      },
      60_000,
    );
    worker = await startCallerWorker(taskQueue);
    expect(await started.result()).toMatchObject({
      value: { outcome: { outcome: 'COMPLETED', payment: { id: providerPaymentId } } },
    });
  } finally {
    await worker.stop().catch(() => undefined);
  }
});
