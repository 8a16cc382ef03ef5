// A Nexus caller's workflow receives the payment's outcome as the payment workflow wrote it: bound to
// `payment:<key>` of xborder's namespace. The caller's codec (src/client/nexus-caller-codec.ts) reads exactly those
// payloads, from exactly that namespace; every other copy stays refused (docs/codec.md, "Bound to its workflow").
import { defaultPayloadConverter, type Payload, type SerializationContext } from '@temporalio/common';
import { CodecError, EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { nexusCallerCodecOptions, nexusCallerDataConverter } from '../../src/client/nexus-caller-codec';

const keys = generateCodecKeys('nexus-caller-test');
const xborder = new EncryptionCodec(staticKeyProvider(keys));
const caller = new EncryptionCodec(staticKeyProvider(keys), nexusCallerCodecOptions('payments'));
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const wf = (workflowId: string, namespace: string): SerializationContext => ({
  type: 'workflow',
  namespace,
  workflowId,
});
const OUTCOME = { outcome: 'COMPLETED', payment: { id: 'pay_1' } };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodecError);
  return (error as CodecError).type;
}

it('the caller reads the outcome bound to payment:<key> of the xborder namespace', async () => {
  const [sealed] = await xborder.encode([payload(OUTCOME)], wf('payment:order-1', 'payments'));
  const [read] = await caller.decode([sealed!], wf('backend-order-workflow', 'backend'));
  expect(defaultPayloadConverter.fromPayload(read!)).toEqual(OUTCOME);
  // without the option (any other decoder, xborder's own worker included) the copy is refused, as before
  expect(await refusal(xborder.decode([sealed!], wf('backend-order-workflow', 'backend')))).toBe(
    'WRONG_WORKFLOW',
  );
});

it('nothing else from elsewhere: another workflow of the namespace, another namespace, or a copy inside the caller namespace', async () => {
  const [entity] = await xborder.encode([payload(OUTCOME)], wf('provider-payment:pay_1', 'payments'));
  expect(await refusal(caller.decode([entity!], wf('backend-order-workflow', 'backend')))).toBe(
    'WRONG_WORKFLOW',
  );
  const [elsewhere] = await xborder.encode([payload(OUTCOME)], wf('payment:order-1', 'other'));
  expect(await refusal(caller.decode([elsewhere!], wf('backend-order-workflow', 'backend')))).toBe(
    'WRONG_WORKFLOW',
  );
  // a payment of the caller's own namespace copied into one of its workflows: the usual rule holds
  const [own] = await xborder.encode([payload(OUTCOME)], wf('payment:order-1', 'payments'));
  expect(await refusal(caller.decode([own!], wf('backend-order-workflow', 'payments')))).toBe(
    'WRONG_WORKFLOW',
  );
  // relabelled to look like a payment: the tag fails
  const [forged] = await xborder.encode([payload(OUTCOME)], wf('provider-payment:pay_1', 'payments'));
  forged!.metadata!['encryption-context'] = new Uint8Array(Buffer.from('["payments","payment:order-1"]'));
  expect(await refusal(caller.decode([forged!], wf('backend-order-workflow', 'backend')))).toBe(
    'DECRYPT_FAILED',
  );
});

it('the caller data converter needs xborder codec keys', () => {
  expect(() => nexusCallerDataConverter('payments', {})).toThrow(/XBORDER_CODEC_KEYS/);
  expect(
    nexusCallerDataConverter('payments', { XBORDER_CODEC_KEYS: JSON.stringify(keys) }).payloadCodecs,
  ).toHaveLength(1);
});
