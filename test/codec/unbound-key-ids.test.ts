// XBORDER_CODEC_UNBOUND_KEY_IDS (docs/codec.md, "Bound to its workflow"): while unbound payloads are admitted, only those
// under a key used before the binding. xborder writes bound payloads under every later key, so an unbound one under the
// current key is no old payload: e.g. one the codec server's /encode wrote with an encode token.
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import {
  EncryptionCodec,
  codecOptionsFromEnv,
  dataConverterFromEnv,
  staticKeyProvider,
  type CodecKeysJson,
} from '../../src/codec';

const key = () => randomBytes(32).toString('base64');
const OLD = 'before-binding';
const NEW = 'after-binding';
/** the keys before the binding: OLD current */
const before: CodecKeysJson = { current: OLD, keys: { [OLD]: key() } };
/** today: NEW current, OLD still listed for the old histories */
const today: CodecKeysJson = { current: NEW, keys: { ...before.keys, [NEW]: key() } };
const ENTITY = { type: 'workflow' as const, namespace: 'default', workflowId: 'provider-payment:pay_1' };
const signal = (): Payload =>
  defaultPayloadConverter.toPayload({ eventId: 'e1', type: 'payment.reconciled', from: 'reconcile-sweep' });

const workerCodec = (extra: Record<string, string> = {}) =>
  dataConverterFromEnv({ XBORDER_CODEC_KEYS: JSON.stringify(today), ...extra }).payloadCodecs![0]!;

it('admits an unbound payload under a listed (old) key and refuses one under a newer key, in a workflow', async () => {
  const [old] = await new EncryptionCodec(staticKeyProvider(before)).encode([signal()]); // written before the binding
  const [forged] = await new EncryptionCodec(staticKeyProvider(today)).encode([signal()]); // no context: unbound, NEW
  const [bound] = await new EncryptionCodec(staticKeyProvider(today)).encode([signal()], ENTITY);
  const listed = workerCodec({ XBORDER_CODEC_UNBOUND_KEY_IDS: ` ${OLD} ` });
  await expect(listed.decode([old!], ENTITY)).resolves.toHaveLength(1);
  await expect(listed.decode([bound!], ENTITY)).resolves.toHaveLength(1);
  await expect(listed.decode([forged!], ENTITY)).rejects.toMatchObject({
    type: 'UNBOUND',
    message: expect.stringContaining('XBORDER_CODEC_UNBOUND_KEY_IDS') as unknown,
  });
  // unset: any key, as before
  await expect(workerCodec().decode([forged!], ENTITY)).resolves.toHaveLength(1);
  // refuse wins over the list
  await expect(
    workerCodec({ XBORDER_CODEC_UNBOUND_KEY_IDS: OLD, XBORDER_CODEC_UNBOUND: 'refuse' }).decode(
      [old!],
      ENTITY,
    ),
  ).rejects.toMatchObject({ type: 'UNBOUND' });
  // without a workflow context (the codec server) nothing changes: it only displays
  await expect(listed.decode([forged!])).resolves.toHaveLength(1);
});

it('reads the list from the environment and refuses an empty or malformed one', () => {
  expect(codecOptionsFromEnv({ XBORDER_CODEC_UNBOUND_KEY_IDS: 'a, b.2' }).unboundKeyIds).toEqual([
    'a',
    'b.2',
  ]);
  expect(codecOptionsFromEnv({}).unboundKeyIds).toBeUndefined();
  for (const bad of ['', ' , ', 'a,b c', 'x'.repeat(65)])
    expect(() => codecOptionsFromEnv({ XBORDER_CODEC_UNBOUND_KEY_IDS: bad })).toThrow(
      /XBORDER_CODEC_UNBOUND_KEY_IDS/,
    );
});

// Found in the attacker's review: the easy mistake is to list the current key (a single key made by make-secrets.sh
// is both "the key before the binding" and the one /encode writes with), which let encode-token forgeries in again.
it('never admits an unbound payload under the current key, even when the list names it', async () => {
  const [forged] = await new EncryptionCodec(staticKeyProvider(today)).encode([signal()]); // unbound, NEW = current
  const listsCurrent = workerCodec({ XBORDER_CODEC_UNBOUND_KEY_IDS: `${OLD},${NEW}` });
  await expect(listsCurrent.decode([forged!], ENTITY)).rejects.toMatchObject({ type: 'UNBOUND' });
  const [old] = await new EncryptionCodec(staticKeyProvider(before)).encode([signal()]);
  await expect(listsCurrent.decode([old!], ENTITY)).resolves.toHaveLength(1);
});
