// End to end: Nexus callers that hold ONLY their own key set (XBORDER_NEXUS_CALLER_KEYS on xborder's worker; docs/codec.md,
// "Nexus callers"), against the real stack (dev server, sandbox, ingress, worker). `shop` calls through the stack's
// `xborder` endpoint, `other` through a second one, each from its own namespace, each worker and client with its own
// keys only (and XBORDER_CODEC_UNBOUND=refuse). A third endpoint has no key set: its requests are refused.
import { randomUUID } from 'node:crypto';
import got from 'got';
import Long from 'long';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { DataConverter, Payload } from '@temporalio/common';
import type { LocalStack } from '../../src/cli/stack';
import { connectClient } from '../../src/client/connect';
import { ensureNexusEndpoint } from '../../src/cli/nexus-endpoint';
import { getPaymentState, type StartPaymentInput } from '../../src/client/payments';
import { XBORDER_NEXUS_ENDPOINT } from '../../src/nexus/service';
import { nexusCallerDataConverter } from '../../src/client/nexus-caller-codec';
import {
  CodecError,
  codecDataConverter,
  codecKeysFromEnv,
  EncryptionCodec,
  generateCodecKeys,
  staticKeyProvider,
  staticNexusCallerKeyring,
  type CodecKeysJson,
} from '../../src/codec';
import type { Called } from '../support/workflows/nexus-caller';
import { workflowBundle } from '../support/temporal';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { recording } from '../support/history-recorder';
import { recordNewHistories } from '../support/record-new-histories';
import { replayCallerKeys, replayKeys } from '../support/replay-keys';

jest.setTimeout(240_000);

const callerWorkflows = require.resolve('../support/workflows/nexus-caller');
const suffix = randomUUID().slice(0, 8);
const OTHER_ENDPOINT = `xborder-other-${suffix}`;
const STRANGER_ENDPOINT = `xborder-stranger-${suffix}`;
// recording the relay's replay history (XBORDER_RECORD_HISTORIES=1): the replay test's public keys, as it replays with them
const shopKeys = recording ? replayCallerKeys() : generateCodecKeys(`shop-${suffix}`);
const otherKeys = generateCodecKeys(`other-${suffix}`);

let stack: LocalStack;
let connection: NativeConnection;
const paymentIds: string[] = [];

interface Caller {
  namespace: string;
  endpoint: string;
  keys: CodecKeysJson;
  dataConverter: DataConverter;
  client: Client;
}
let shop: Caller;
let other: Caller;
let stranger: Caller;

function xborderKeys(): CodecKeysJson {
  if (recording) return replayKeys();
  const source = codecKeysFromEnv(process.env);
  if (source.kind !== 'keys')
    throw new Error('the e2e runs with xborder codec keys (test/support/jest-setup.ts)');
  return source.keys;
}

async function callerNamespace(endpoint: string, keys: CodecKeysJson): Promise<Caller> {
  const namespace = `${endpoint}-ns`;
  await stack.client.workflowService.registerNamespace({
    namespace,
    workflowExecutionRetentionPeriod: { seconds: Long.fromNumber(86_400) },
  });
  // the caller's worker and client hold its own keys only
  const dataConverter = nexusCallerDataConverter(
    stack.namespace,
    { XBORDER_CODEC_UNBOUND: 'refuse' },
    staticKeyProvider(keys),
  );
  const client = await connectClient({ address: stack.temporal.address, namespace }, dataConverter);
  await eventually(`the namespace ${namespace}`, () => client.workflow.count().then(() => true), 60_000);
  return { namespace, endpoint, keys, dataConverter, client };
}

beforeAll(async () => {
  const xborder = xborderKeys();
  stack = await startTestStack({
    dataConverter: codecDataConverter(staticKeyProvider(xborder), {
      nexusCallers: staticNexusCallerKeyring({
        [XBORDER_NEXUS_ENDPOINT]: shopKeys,
        [OTHER_ENDPOINT]: otherKeys,
      }),
    }),
    sandbox: { demoData: true },
  });
  for (const name of [OTHER_ENDPOINT, STRANGER_ENDPOINT])
    await ensureNexusEndpoint(stack.temporal.address, {
      name,
      namespace: stack.namespace,
      taskQueue: stack.taskQueue,
    });
  shop = await callerNamespace(XBORDER_NEXUS_ENDPOINT, shopKeys);
  other = await callerNamespace(OTHER_ENDPOINT, otherKeys);
  // a caller of an endpoint without a key set: it even holds xborder's keys, and is still refused
  stranger = await callerNamespace(STRANGER_ENDPOINT, xborder);
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
    for (const c of [shop, other, stranger]) await c?.client.connection.close();
  } finally {
    await stack?.close();
  }
});

async function startCallerWorker(who: Caller) {
  const taskQueue = `caller-${randomUUID()}`;
  const worker = await Worker.create({
    connection,
    namespace: who.namespace,
    taskQueue,
    workflowBundle: await workflowBundle(callerWorkflows),
    dataConverter: who.dataConverter,
  });
  const done = worker.run();
  return {
    taskQueue,
    async stop() {
      worker.shutdown();
      await done;
    },
  };
}

const paymentInput = (key: string): StartPaymentInput => ({
  paymentKey: key,
  request: demoPaymentRequest(key, 100),
});

function callOf(who: Caller, taskQueue: string, workflow: string, args: unknown[]) {
  return who.client.workflow.start(workflow, {
    taskQueue,
    workflowId: `${workflow}-${randomUUID()}`,
    args: [...args, who.endpoint],
  });
}

async function resultOf(who: Caller, taskQueue: string, workflow: string, args: unknown[]) {
  return (await (await callOf(who, taskQueue, workflow, args)).result()) as Called<unknown>;
}

const keyIdOf = (payload: Payload | undefined) =>
  Buffer.from(payload?.metadata?.['encryption-key-id'] ?? new Uint8Array()).toString();

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodecError);
  return (error as CodecError).type;
}

it("a caller holding only its own key starts a payment, reads its state and gets its outcome; another caller's key opens none of it", async () => {
  const shopWorker = await startCallerWorker(shop);
  try {
    const key = uniqueKey('nexus-ownkey');
    paymentIds.push(`payment:${key}`);
    const started = await callOf(shop, shopWorker.taskQueue, 'nexusPaymentCaller', [paymentInput(key)]);
    const providerPaymentId = await eventually(
      'the provider payment',
      async () => (await getPaymentState(stack.client, key)).providerPaymentId,
      60_000,
    );
    expect(await resultOf(shop, shopWorker.taskQueue, 'nexusStateCaller', [key])).toMatchObject({
      value: { workflowId: `payment:${key}`, providerPaymentId },
    });
    // the outcome's relay runs in xborder's namespace before the payment ends
    const relay = stack.client.workflow.getHandle(`nexus-outcome:${XBORDER_NEXUS_ENDPOINT}:${key}`);
    await eventually(
      'the relay',
      async () => ((await relay.describe()).status.name === 'RUNNING' ? true : null),
      60_000,
    );
    // while the payment waits for funds the relay holds no activity slot (workflows/nexus-outcome/workflow.ts)
    await eventually(
      'the relay waiting without an activity',
      async () => {
        const waiting = await relay.describe();
        return waiting.status.name === 'RUNNING' && (waiting.raw.pendingActivities ?? []).length === 0
          ? true
          : null;
      },
      60_000,
    );
    await got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
      headers: stack.sandbox.controlHeaders,
      json: {},
    });
    expect(await started.result()).toMatchObject({
      value: {
        started: { workflowId: `payment:${key}`, created: { outcome: 'CREATED', providerPaymentId } },
        outcome: { outcome: 'COMPLETED', payment: { id: providerPaymentId } },
      },
    });
    // the payment told its relay it had ended (no payload), and the relay read the outcome at once
    const relayEvents = (await relay.fetchHistory()).events ?? [];
    const signalled = relayEvents.filter((e) => e.workflowExecutionSignaledEventAttributes);
    expect(signalled.map((e) => e.workflowExecutionSignaledEventAttributes?.signalName)).toEqual([
      'paymentClosed',
    ]);
    expect(signalled[0]?.workflowExecutionSignaledEventAttributes?.input?.payloads ?? []).toEqual([]);
    // what reached the caller's history: every answer under the caller's key, none under xborder's
    const history = await started.fetchHistory();
    const answers = (history.events ?? []).flatMap((e) => {
      const completed = e.nexusOperationCompletedEventAttributes?.result;
      return completed ? [completed as Payload] : [];
    });
    expect(answers).toHaveLength(2); // startPayment's answer, then the outcome by callback
    expect(answers.map(keyIdOf)).toEqual([shopKeys.current, shopKeys.current]);
    const otherCodec = new EncryptionCodec(staticKeyProvider(otherKeys));
    for (const answer of answers) expect(await refusal(otherCodec.decode([answer]))).toBe('UNKNOWN_KEY_ID');
    // the payment's own payloads are xborder's: the caller's key opens none
    const paymentHistory = await stack.client.workflow.getHandle(`payment:${key}`).fetchHistory();
    const input = paymentHistory.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    expect(keyIdOf(input as Payload)).not.toBe(shopKeys.current);
    const shopCodec = new EncryptionCodec(staticKeyProvider(shopKeys));
    expect(
      await refusal(
        shopCodec.decode([input as Payload], {
          type: 'workflow',
          namespace: stack.namespace,
          workflowId: `payment:${key}`,
        }),
      ),
    ).toBe('UNKNOWN_KEY_ID');
    await recordNewHistories(stack.client, stack.temporal.address, 'encrypted-nexus-outcome', [
      relay.workflowId,
    ]);
    // the relay that waits in its workflow (relay-holds-no-slot) and the Nexus-owned payment that signals it
    await recordNewHistories(stack.client, stack.temporal.address, 'encrypted-nexus-outcome-signalled', [
      relay.workflowId,
      `payment:${key}`,
    ]);
    // asked again once it has ended: at once, from the relay
    expect(await resultOf(shop, shopWorker.taskQueue, 'nexusOutcomeCaller', [key])).toMatchObject({
      value: { outcome: 'COMPLETED' },
    });
  } finally {
    await shopWorker.stop();
  }
});

it('another caller with its own key reaches none of it (PAYMENT_NOT_FOUND); an endpoint without a key set is refused', async () => {
  const shopWorker = await startCallerWorker(shop);
  const otherWorker = await startCallerWorker(other);
  const strangerWorker = await startCallerWorker(stranger);
  try {
    const key = uniqueKey('nexus-ownkey-owned');
    paymentIds.push(`payment:${key}`);
    expect(await resultOf(shop, shopWorker.taskQueue, 'nexusStartCaller', [paymentInput(key)])).toMatchObject(
      {
        value: { created: { outcome: 'CREATED' } },
      },
    );
    expect(await resultOf(other, otherWorker.taskQueue, 'nexusStateCaller', [key])).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    expect(await resultOf(other, otherWorker.taskQueue, 'nexusOutcomeCaller', [key])).toMatchObject({
      failure: 'PAYMENT_NOT_FOUND',
    });
    // refused (UNAUTHORIZED, not retried) before anything is read or started
    const strangerKey = uniqueKey('nexus-stranger');
    expect(
      await resultOf(stranger, strangerWorker.taskQueue, 'nexusStartCaller', [paymentInput(strangerKey)]),
    ).toMatchObject({ failure: null, message: expect.stringContaining('NexusOperationFailure') });
    expect(
      await stack.client.workflow
        .getHandle(`payment:${strangerKey}`)
        .describe()
        .catch(() => null),
    ).toBeNull();
  } finally {
    await shopWorker.stop();
    await otherWorker.stop();
    await strangerWorker.stop();
  }
});
