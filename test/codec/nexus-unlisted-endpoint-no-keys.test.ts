// Once the worker has callers' own key sets (XBORDER_NEXUS_CALLER_KEYS), a request through an endpoint NOT listed
// gets no keys at all (docs/codec.md, "Nexus callers"; SECURITY.md, "Nexus"): its input is undecryptable, so the
// codec refuses it before any handler runs, whatever key it was written under, xborder's included (a caller left
// holding xborder's keys from before its own set). Its refusal no longer rests on the handler's lookup of the codec.
// Run inside the SDK's own store, as the worker runs a request.
import type { AsyncLocalStorage } from 'node:async_hooks';
import { defaultPayloadConverter, type Payload, type SerializationContext } from '@temporalio/common';
import {
  EncryptionCodec,
  generateCodecKeys,
  staticKeyProvider,
  staticNexusCallerKeyring,
} from '../../src/codec';

import '@temporalio/nexus'; // the SDK's store of the Nexus handler context: one global instance
const storage = (globalThis as unknown as Record<symbol, AsyncLocalStorage<object>>)[
  Symbol.for('__temporal_nexus_context_storage__')
]!;

const xborderKeys = generateCodecKeys('xborder-k1');
const shopKeys = generateCodecKeys('shop-k1');
const worker = new EncryptionCodec(staticKeyProvider(xborderKeys), {
  nexusCallers: staticNexusCallerKeyring({ 'xborder-shop': shopKeys }),
});
/** Whoever still holds xborder's keys (a caller from before XBORDER_NEXUS_CALLER_KEYS, an operator's tool). */
const withXborderKeys = new EncryptionCodec(staticKeyProvider(xborderKeys));

const INPUT = { paymentKey: 'order-1' };
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const wf = (workflowId: string): SerializationContext => ({
  type: 'workflow',
  namespace: 'payments',
  workflowId,
});
const request = <T>(endpoint: string, run: () => Promise<T>): Promise<T> =>
  storage.run({ namespace: 'payments', endpoint }, run);

/** What a request's input decodes to through an endpoint without a key set: nothing (binary/null), whatever it held. */
async function unread(endpoint: string, p: Payload): Promise<unknown> {
  const [decoded] = await request(endpoint, () => worker.decode([p]));
  return defaultPayloadConverter.fromPayload(decoded!);
}

it("an unlisted endpoint's input is never read by the codec, even under xborder's own key: it is nothing to the handler", async () => {
  // the handler then refuses the request UNAUTHORIZED, its answer bound to the caller's workflow (src/nexus/caller.ts)
  const [input] = await withXborderKeys.encode([payload(INPUT)]);
  expect(await unread('xborder-stranger', input!)).toBeUndefined();
  // bound to a caller's workflow, as a caller's SDK writes it: not read either
  const [bound] = await withXborderKeys.encode([payload(INPUT)], {
    type: 'workflow',
    namespace: 'stranger',
    workflowId: 'order-workflow-7',
  });
  expect(await unread('xborder-stranger', bound!)).toBeUndefined();
});

it("a listed endpoint still reads with its caller's keys, and the workflows' payloads stay xborder's in every request", async () => {
  const shop = new EncryptionCodec(staticKeyProvider(shopKeys));
  const [input] = await shop.encode([payload(INPUT)]);
  expect(
    defaultPayloadConverter.fromPayload((await request('xborder-shop', () => worker.decode([input!])))[0]!),
  ).toEqual(INPUT);
  const [ofPayment] = await worker.encode([payload(INPUT)], wf('payment:order-1'));
  const [read] = await request('xborder-stranger', () => worker.decode([ofPayment!], wf('payment:order-1')));
  expect(defaultPayloadConverter.fromPayload(read!)).toEqual(INPUT);
});

it('without XBORDER_NEXUS_CALLER_KEYS every endpoint is read with xborder keys, as before', async () => {
  const plain = new EncryptionCodec(staticKeyProvider(xborderKeys));
  const [input] = await withXborderKeys.encode([payload(INPUT)]);
  const [read] = await request('xborder-stranger', () => plain.decode([input!]));
  expect(defaultPayloadConverter.fromPayload(read!)).toEqual(INPUT);
});
