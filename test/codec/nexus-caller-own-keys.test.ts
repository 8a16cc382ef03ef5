// A Nexus caller holds its own key set, never xborder's (docs/codec.md, "Nexus callers"). The worker's codec reads a
// request's input and writes its answers with the key set of the endpoint the request came through, only for the
// payloads of that request (no SerializationContext, inside the SDK's per-request store); every workflow's payload
// stays under xborder's keys. Run inside the SDK's own store, as the worker runs a request.
import * as nexus from 'nexus-rpc';
import type { AsyncLocalStorage } from 'node:async_hooks';
import { defaultPayloadConverter, type Payload, type SerializationContext } from '@temporalio/common';
import {
  CodecError,
  EncryptionCodec,
  generateCodecKeys,
  staticKeyProvider,
  staticNexusCallerKeyring,
} from '../../src/codec';
import { bindNexusAnswerTo } from '../../src/codec/nexus-result-binding';
import { nexusCallerCodecOptions } from '../../src/client/nexus-caller-codec';

import '@temporalio/nexus'; // the SDK's store of the Nexus handler context: one global instance
const storage = (globalThis as unknown as Record<symbol, AsyncLocalStorage<object>>)[
  Symbol.for('__temporal_nexus_context_storage__')
]!;

const xborderKeys = generateCodecKeys('xborder-k1');
const shopKeys = generateCodecKeys('shop-k1');
const otherKeys = generateCodecKeys('other-k1');
const callers = staticNexusCallerKeyring({ 'xborder-shop': shopKeys, 'xborder-other': otherKeys });
/** xborder's worker: its own keys, and the callers' for their requests. */
const worker = new EncryptionCodec(staticKeyProvider(xborderKeys), { nexusCallers: callers });
/** Each caller's worker holds its own keys only (and reads the outcome's relay from xborder's namespace). */
const shop = new EncryptionCodec(
  staticKeyProvider(shopKeys),
  nexusCallerCodecOptions('payments', { unbound: 'refuse' }),
);
const other = new EncryptionCodec(staticKeyProvider(otherKeys), nexusCallerCodecOptions('payments'));

const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const value = (p: Payload | undefined): unknown => defaultPayloadConverter.fromPayload(p!);
const wf = (workflowId: string, namespace: string): SerializationContext => ({
  type: 'workflow',
  namespace,
  workflowId,
});
const INPUT = { paymentKey: 'order-1', request: { amount: '10.00' } };
const STATE = { workflowId: 'payment:order-1', phase: 'AWAITING_FUNDS', customerId: 'cus_1' };

/** The codec's refusal; a request through an endpoint without keys is refused UNAUTHORIZED (not retried) for it. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  let error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof nexus.HandlerError) {
    expect(error.type).toBe('UNAUTHORIZED');
    expect(error.retryable).toBe(false);
    error = error.cause;
  }
  expect(error).toBeInstanceOf(CodecError);
  return (error as CodecError).type;
}

/** One request through `endpoint`, as the SDK runs it: everything inside one store. */
function request<T>(endpoint: string, run: () => Promise<T>): Promise<T> {
  return storage.run({ namespace: 'payments', endpoint }, run);
}

it("the worker reads a caller's input with that caller's key, inside a request through its endpoint only", async () => {
  // the caller's workflow encodes the operation's input (bound to itself, in its namespace)
  const [input] = await shop.encode([payload(INPUT)], wf('order-workflow-7', 'shop'));
  const [read] = await request('xborder-shop', () => worker.decode([input!]));
  expect(value(read)).toEqual(INPUT);
  // through another caller's endpoint, outside any request, or as a workflow's payload: xborder's or the other's keys, refused
  expect(await refusal(request('xborder-other', () => worker.decode([input!])))).toBe('UNKNOWN_KEY_ID');
  expect(await refusal(worker.decode([input!]))).toBe('UNKNOWN_KEY_ID');
  const [forPayment] = await shop.encode([payload(INPUT)], wf('payment:order-1', 'payments'));
  expect(
    await refusal(
      request('xborder-shop', () => worker.decode([forPayment!], wf('payment:order-1', 'payments'))),
    ),
  ).toBe('UNKNOWN_KEY_ID');
});

it("the answer is written under the caller's key, bound to its workflow: that caller reads it, another caller cannot", async () => {
  const [answer] = await request('xborder-shop', async () => {
    bindNexusAnswerTo({ namespace: 'shop', workflowId: 'order-workflow-7' });
    return worker.encode([payload(STATE)]);
  });
  expect(Buffer.from(answer!.metadata!['encryption-key-id']!).toString()).toBe('shop-k1');
  expect(value((await shop.decode([answer!], wf('order-workflow-7', 'shop')))[0])).toEqual(STATE);
  expect(await refusal(other.decode([answer!], wf('order-workflow-7', 'shop')))).toBe('UNKNOWN_KEY_ID');
  // and xborder's own workflows never read it
  expect(await refusal(worker.decode([answer!], wf('payment:order-1', 'payments')))).toBe('WRONG_WORKFLOW');
});

it("a caller's keys open no payload of xborder's workflows; inside its request the handler's reads of them use xborder's keys", async () => {
  const [ofPayment] = await worker.encode([payload(STATE)], wf('payment:order-1', 'payments'));
  expect(Buffer.from(ofPayment!.metadata!['encryption-key-id']!).toString()).toBe('xborder-k1');
  // the caller's own codec, even told where the payload comes from, has no key for it
  const onlyShopKeys = new EncryptionCodec(staticKeyProvider(shopKeys));
  expect(await refusal(onlyShopKeys.decode([ofPayment!], wf('payment:order-1', 'payments')))).toBe(
    'UNKNOWN_KEY_ID',
  );
  expect(await refusal(onlyShopKeys.decode([ofPayment!]))).toBe('UNKNOWN_KEY_ID');
  // the handler reading the payment (a query, its stored input) names the workflow: xborder's keys, in the request too
  const [read] = await request('xborder-shop', () =>
    worker.decode([ofPayment!], wf('payment:order-1', 'payments')),
  );
  expect(value(read)).toEqual(STATE);
  // what the handler sends on into the payment is written with xborder's key, bound to it
  const [sent] = await request('xborder-shop', () =>
    worker.encode([payload(INPUT)], wf('payment:order-1', 'payments')),
  );
  expect(Buffer.from(sent!.metadata!['encryption-key-id']!).toString()).toBe('xborder-k1');
});

it('an endpoint without a key set is refused once callers have keys; without XBORDER_NEXUS_CALLER_KEYS every endpoint uses xborder keys', async () => {
  expect(worker.nexusCallerKeysOf('xborder-shop')).toBe('own-keys');
  expect(worker.nexusCallerKeysOf('xborder-stranger')).toBe('refused');
  expect(new EncryptionCodec(staticKeyProvider(xborderKeys)).nexusCallerKeysOf('xborder-shop')).toBe(
    'xborder-keys',
  );
  // a request through an unlisted endpoint is never read: its input is null to the handler, which refuses it
  const [shopInput] = await shop.encode([payload(INPUT)], wf('order-workflow-7', 'shop'));
  const [unread] = await request('xborder-stranger', () => worker.decode([shopInput!]));
  expect(defaultPayloadConverter.fromPayload(unread!)).toBeUndefined();
});

it("a caller's outcome relay (nexus-outcome:<endpoint>:<key>) is written under that caller's key: it reads the outcome, nobody else does", async () => {
  const relay = wf('nexus-outcome:xborder-shop:order-1', 'payments');
  const [outcome] = await worker.encode([payload({ outcome: 'COMPLETED' })], relay);
  expect(Buffer.from(outcome!.metadata!['encryption-key-id']!).toString()).toBe('shop-k1');
  // the worker reads its own relay's payloads back (its activity's answer), with the caller's key
  expect(value((await worker.decode([outcome!], relay))[0])).toEqual({ outcome: 'COMPLETED' });
  // the callback hands the relay's result to the caller's workflow, in the caller's namespace
  expect(value((await shop.decode([outcome!], wf('order-workflow-7', 'shop')))[0])).toEqual({
    outcome: 'COMPLETED',
  });
  expect(await refusal(other.decode([outcome!], wf('order-workflow-7', 'shop')))).toBe('UNKNOWN_KEY_ID');
  // a relay payload is not a payment's: copied into the payment, refused
  expect(await refusal(worker.decode([outcome!], wf('payment:order-1', 'payments')))).toBe('WRONG_WORKFLOW');
  // a relay ID naming an endpoint without a key set is xborder's, as every other workflow's
  const [unlisted] = await worker.encode(
    [payload(1)],
    wf('nexus-outcome:xborder-stranger:order-1', 'payments'),
  );
  expect(Buffer.from(unlisted!.metadata!['encryption-key-id']!).toString()).toBe('xborder-k1');
});
