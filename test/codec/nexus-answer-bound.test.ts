// A Nexus operation's synchronous answer (and failure) is encoded by the SDK without a SerializationContext. Inside
// a Nexus request whose handler named the caller's workflow, the codec binds it to that workflow, so a caller
// running XBORDER_CODEC_UNBOUND=refuse reads it as its own workflow's payload (docs/codec.md, "Nexus callers").
import type { AsyncLocalStorage } from 'node:async_hooks';
import { defaultPayloadConverter, type Payload, type SerializationContext } from '@temporalio/common';
import { CodecError, EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { bindNexusAnswerTo } from '../../src/codec/nexus-result-binding';

// the SDK's store of the Nexus handler context (@temporalio/nexus 1.24.0 lib/context.js): one global instance
import '@temporalio/nexus';
const storage = (globalThis as unknown as Record<symbol, AsyncLocalStorage<object>>)[
  Symbol.for('__temporal_nexus_context_storage__')
]!;

const keys = generateCodecKeys('nexus-answer-test');
const xborder = new EncryptionCodec(staticKeyProvider(keys));
const caller = new EncryptionCodec(staticKeyProvider(keys), { unbound: 'refuse' });
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const wf = (workflowId: string, namespace: string): SerializationContext => ({
  type: 'workflow',
  namespace,
  workflowId,
});
const STATE = { workflowId: 'payment:order-1', phase: 'AWAITING_FUNDS' };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodecError);
  return (error as CodecError).type;
}

/** What the SDK does for one request: the handler runs, then the answer is encoded, all in one store. */
function inRequest<T>(handler: () => void, encode: () => Promise<T>): Promise<T> {
  return storage.run({ namespace: 'payments', endpoint: 'xborder-shop' }, async () => {
    await Promise.resolve().then(handler); // the handler's own async steps
    return encode();
  });
}

it('the answer is bound to the caller workflow the handler named: read there under unbound=refuse, refused elsewhere', async () => {
  const [sealed] = await inRequest(
    () => bindNexusAnswerTo({ namespace: 'shop', workflowId: 'order-workflow-7' }),
    () => xborder.encode([payload(STATE)]),
  );
  const [read] = await caller.decode([sealed!], wf('order-workflow-7', 'shop'));
  expect(defaultPayloadConverter.fromPayload(read!)).toEqual(STATE);
  expect(await refusal(caller.decode([sealed!], wf('other-workflow', 'shop')))).toBe('WRONG_WORKFLOW');
  expect(await refusal(xborder.decode([sealed!], wf('payment:order-1', 'payments')))).toBe('WRONG_WORKFLOW');
});

it('without a binding (no request, or a handler that named nobody) it stays unbound, as before: refused under unbound=refuse', async () => {
  const [outside] = await xborder.encode([payload(STATE)]);
  expect(await refusal(caller.decode([outside!], wf('order-workflow-7', 'shop')))).toBe('UNBOUND');
  const [unnamed] = await inRequest(
    () => undefined,
    () => xborder.encode([payload(STATE)]),
  );
  expect(await refusal(caller.decode([unnamed!], wf('order-workflow-7', 'shop')))).toBe('UNBOUND');
});

it('a binding stays with its own request; an encode with a context keeps that context', async () => {
  const [a, b] = await Promise.all([
    inRequest(
      () => bindNexusAnswerTo({ namespace: 'shop', workflowId: 'wf-a' }),
      () => xborder.encode([payload('a')]),
    ),
    inRequest(
      () => bindNexusAnswerTo({ namespace: 'shop', workflowId: 'wf-b' }),
      () => xborder.encode([payload('b')]),
    ),
  ]);
  expect(defaultPayloadConverter.fromPayload((await caller.decode([a![0]!], wf('wf-a', 'shop')))[0]!)).toBe(
    'a',
  );
  expect(defaultPayloadConverter.fromPayload((await caller.decode([b![0]!], wf('wf-b', 'shop')))[0]!)).toBe(
    'b',
  );
  const [own] = await inRequest(
    () => bindNexusAnswerTo({ namespace: 'shop', workflowId: 'wf-a' }),
    () => xborder.encode([payload('start input')], wf('payment:order-1', 'payments')),
  );
  expect(
    defaultPayloadConverter.fromPayload(
      (await xborder.decode([own!], wf('payment:order-1', 'payments')))[0]!,
    ),
  ).toBe('start input');
});
