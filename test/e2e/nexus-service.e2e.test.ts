// End to end: a backend's workflow in another namespace uses the `xborder` Nexus service (src/nexus) through the
// endpoint the local stack creates, against the real stack (dev server, sandbox, ingress, worker).
import { randomUUID } from 'node:crypto';
import got from 'got';
import Long from 'long';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { LocalStack } from '../../src/cli/stack';
import { connectClient } from '../../src/client/connect';
import { ensureNexusEndpoint } from '../../src/cli/nexus-endpoint';
import { getPaymentState } from '../../src/client/payments';
import { XBORDER_NEXUS_ENDPOINT } from '../../src/nexus/service';
import { nexusCallerDataConverter } from '../../src/client/nexus-caller-codec';
import type { PaymentInput } from '../../workflows/messages';
import type { Called } from '../support/workflows/nexus-caller';
import { workflowBundle } from '../support/temporal';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(240_000);

const callerWorkflows = require.resolve('../support/workflows/nexus-caller');
const CALLER_NAMESPACE = `backend-${randomUUID().slice(0, 8)}`;
let stack: LocalStack;
let caller: Client;
let connection: NativeConnection;
const paymentIds: string[] = [];

beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true } });
  await stack.client.workflowService.registerNamespace({
    namespace: CALLER_NAMESPACE,
    workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86_400) },
  });
  caller = await connectClient({ address: stack.temporal.address, namespace: CALLER_NAMESPACE }, stack.dataConverter);
  // a new namespace is usable once the frontend has it in its cache (a few seconds on the dev server)
  await eventually('the caller namespace', () => caller.workflow.count().then(() => true), 60_000);
  connection = await NativeConnection.connect({ address: stack.temporal.address });
  await workflowBundle(callerWorkflows);
});
afterAll(async () => {
  try {
    for (const id of paymentIds)
      await stack.client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
    await connection?.close();
    await caller?.connection.close();
  } finally {
    await stack?.close();
  }
});

/** A worker of the backend's (caller's) workflows in its own namespace. */
async function startCallerWorker(taskQueue: string) {
  const worker = await Worker.create({
    connection,
    namespace: CALLER_NAMESPACE,
    taskQueue,
    workflowBundle: await workflowBundle(callerWorkflows),
    // xborder's keys, reading the payment's outcome bound to `payment:<key>` of xborder's namespace
    dataConverter: nexusCallerDataConverter(stack.namespace, process.env),
  });
  const done = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await done;
    },
  };
}

function paymentInput(key: string, amount = 100): PaymentInput {
  return { paymentKey: key, request: demoPaymentRequest(key, amount) };
}

function callOf(taskQueue: string, workflow: string, args: unknown[]) {
  return caller.workflow.start(workflow, { taskQueue, workflowId: `${workflow}-${randomUUID()}`, args });
}

async function providerPaymentOf(key: string): Promise<string> {
  return eventually('the provider payment', async () => (await getPaymentState(stack.client, key)).providerPaymentId, 60_000);
}

async function fund(providerPaymentId: string) {
  await got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, { headers: stack.sandbox.controlHeaders, json: {} });
}

async function providerPaymentsWithReference(reference: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) ids.push(p.id);
  return ids;
}

it('the local stack created the endpoint to the worker task queue; creating it again is idempotent', async () => {
  const target = async () =>
    (await stack.client.connection.operatorService.listNexusEndpoints({ name: XBORDER_NEXUS_ENDPOINT })).endpoints?.[0]?.spec?.target?.worker;
  expect(await target()).toMatchObject({ namespace: stack.namespace, taskQueue: stack.taskQueue });
  const ours = { namespace: stack.namespace, taskQueue: stack.taskQueue };
  expect(await ensureNexusEndpoint(stack.temporal.address, ours)).toBe('unchanged');
  // a dev server reused by a stack with another task queue: pointed there, and back
  expect(await ensureNexusEndpoint(stack.temporal.address, { ...ours, taskQueue: 'elsewhere' })).toBe('updated');
  expect(await target()).toMatchObject({ taskQueue: 'elsewhere' });
  expect(await ensureNexusEndpoint(stack.temporal.address, ours)).toBe('updated');
  expect(await target()).toMatchObject(ours);
});

it('startPayment from another namespace: the caller gets the outcome by callback; the same key twice is one payment', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  const worker = await startCallerWorker(taskQueue);
  try {
    const key = uniqueKey('nexus-pay');
    paymentIds.push(`payment:${key}`);
    const first = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
    const providerPaymentId = await providerPaymentOf(key);
    const second = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
    // the second start attached to the running payment (its operation started) before the payment ends
    await eventually('the second operation started', async () => {
      const history = await second.fetchHistory();
      return history.events?.some((e) => e.nexusOperationStartedEventAttributes) ? true : null;
    }, 60_000);
    await fund(providerPaymentId);
    const [a, b] = (await Promise.all([first.result(), second.result()])) as Called<unknown>[];
    expect(a).toMatchObject({ value: { outcome: 'COMPLETED', payment: { id: providerPaymentId } } });
    expect(b).toEqual(a);
    expect(await providerPaymentsWithReference(key)).toEqual([providerPaymentId]);
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
    await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key, 100)]);
    await providerPaymentOf(key);
    const other = (await (await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key, 250)])).result()) as Called<unknown>;
    expect(other).toMatchObject({ failure: 'IDEMPOTENCY_KEY_REUSED' });
    const invalidInput = { paymentKey: uniqueKey('nexus-invalid'), request: { ...demoPaymentRequest('x'), source: { currencyCode: 'USDC', amount: -5, rail: 'POLYGON' } } };
    const invalid = (await (await callOf(taskQueue, 'nexusPaymentCaller', [invalidInput])).result()) as Called<unknown>;
    expect(invalid).toMatchObject({ failure: 'PAYMENT_REQUEST_INVALID' });
    expect((await stack.client.workflow.getHandle(`payment:${invalidInput.paymentKey}`).describe().catch(() => null))).toBeNull();
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
    const state = (await (await callOf(taskQueue, 'nexusStateCaller', [key])).result()) as Called<unknown>;
    expect(state).toMatchObject({ value: { workflowId: `payment:${key}`, providerPaymentId } });
    const unknown = (await (await callOf(taskQueue, 'nexusStateCaller', [uniqueKey('nexus-none')])).result()) as Called<unknown>;
    expect(unknown).toMatchObject({ failure: 'PAYMENT_NOT_FOUND' });
    const cancelled = (await (await callOf(taskQueue, 'nexusCancelCaller', [key, 'customer changed their mind'])).result()) as Called<unknown>;
    expect(cancelled).toMatchObject({ value: { phase: 'CANCELLING', cancel: { decision: 'ACCEPTED', via: 'UPDATE' } } });
    // the payment keeps listening until the provider says it can no longer be funded: the operation stays open
    expect((await started.describe()).status.name).toBe('RUNNING');
    // a payment that has ended: nothing to cancel, and the failure says how it ended
    const doneKey = uniqueKey('nexus-done');
    paymentIds.push(`payment:${doneKey}`);
    const done = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(doneKey)]);
    await fund(await providerPaymentOf(doneKey));
    expect(await done.result()).toMatchObject({ value: { outcome: 'COMPLETED' } });
    const late = (await (await callOf(taskQueue, 'nexusCancelCaller', [doneKey, 'too late'])).result()) as Called<unknown>;
    expect(late).toMatchObject({ failure: 'PAYMENT_ALREADY_FINISHED' });
  } finally {
    await worker.stop();
  }
});

it('a caller whose worker is stopped mid-payment still gets the outcome when a worker comes back', async () => {
  const taskQueue = `caller-${randomUUID()}`;
  let worker = await startCallerWorker(taskQueue);
  const key = uniqueKey('nexus-restart');
  paymentIds.push(`payment:${key}`);
  const started = await callOf(taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
  const providerPaymentId = await providerPaymentOf(key);
  await eventually('the operation started', async () => {
    const history = await started.fetchHistory();
    return history.events?.some((e) => e.nexusOperationStartedEventAttributes) ? true : null;
  }, 60_000);
  await worker.stop();
  try {
    await fund(providerPaymentId);
    // the payment ends while no caller worker runs: the callback lands in the caller's history meanwhile
    await stack.client.workflow.getHandle(`payment:${key}`).result();
    await eventually('the completion in the caller history', async () => {
      const history = await started.fetchHistory();
      return history.events?.some((e) => e.nexusOperationCompletedEventAttributes) ? true : null;
    }, 60_000);
    worker = await startCallerWorker(taskQueue);
    expect(await started.result()).toMatchObject({ value: { outcome: 'COMPLETED', payment: { id: providerPaymentId } } });
  } finally {
    await worker.stop().catch(() => undefined);
  }
});
