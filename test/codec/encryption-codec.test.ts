// Unit tests of the AES-256-GCM payload codec and its keys (docs/codec.md).
import { DefaultFailureConverter, defaultPayloadConverter, type Payload } from '@temporalio/common';
import {
  CodecError,
  EncryptionCodec,
  MISSING_KEYS_MESSAGE,
  codecKeysFromEnv,
  dataConverterFromEnv,
  generateCodecKeys,
  staticKeyProvider,
  type CodecKeysJson,
} from '../../src/codec';

const PII = { name: 'Maria Silva', email: 'maria.silva@example.com', birthDate: '1990-04-12' };
const toPayload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const fromPayload = (payload: Payload): unknown => defaultPayloadConverter.fromPayload(payload);
const text = (p: Payload) => Buffer.from(p.data ?? []).toString('latin1') + JSON.stringify(p.metadata);
const codecOf = (keys: CodecKeysJson) => new EncryptionCodec(staticKeyProvider(keys));

const keysA = generateCodecKeys('key-a');
const keysB = generateCodecKeys('key-b');

async function expectCodecError(promise: Promise<unknown>, type: CodecError['type']): Promise<CodecError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a CodecError');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodecError);
  expect((error as CodecError).type).toBe(type);
  return error as CodecError;
}

describe('EncryptionCodec', () => {
  it('round-trips a payload, hiding value, encoding and personal data', async () => {
    const codec = codecOf(keysA);
    const original = toPayload(PII);
    const [encrypted] = await codec.encode([original]);
    expect(Buffer.from(encrypted!.metadata!.encoding!).toString()).toBe('binary/encrypted');
    expect(Buffer.from(encrypted!.metadata!['encryption-key-id']!).toString()).toBe('key-a');
    for (const secret of [...Object.values(PII), 'json/plain'])
      expect(text(encrypted!)).not.toContain(secret);
    const [decoded] = await codec.decode([encrypted!]);
    expect(fromPayload(decoded!)).toEqual(PII);
    expect(Buffer.from(decoded!.metadata!.encoding!).toString()).toBe('json/plain');
  });

  it('uses a fresh 12-byte IV per payload: the same value never encrypts to the same bytes', async () => {
    const codec = codecOf(keysA);
    const [one, two] = await codec.encode([toPayload(PII), toPayload(PII)]);
    expect(Buffer.from(one!.data!).subarray(0, 12).equals(Buffer.from(two!.data!).subarray(0, 12))).toBe(
      false,
    );
    expect(Buffer.from(one!.data!).equals(Buffer.from(two!.data!))).toBe(false);
  });

  it('refuses a payload under a known id but with the wrong key material, without leaking plaintext', async () => {
    const [encrypted] = await codecOf(keysA).encode([toPayload(PII)]);
    const impostor = codecOf({ current: 'key-a', keys: { 'key-a': keysB.keys['key-b']! } });
    const error = await expectCodecError(impostor.decode([encrypted!]), 'DECRYPT_FAILED');
    expect(error.message).toContain('"key-a"');
    for (const secret of Object.values(PII)) expect(error.message).not.toContain(secret);
  });

  it('refuses a payload whose key id is unknown, naming the id and the known ones (never the keys)', async () => {
    const [encrypted] = await codecOf(keysA).encode([toPayload(PII)]);
    const error = await expectCodecError(codecOf(keysB).decode([encrypted!]), 'UNKNOWN_KEY_ID');
    expect(error.message).toContain('"key-a"');
    expect(error.message).toContain('key-b');
    expect(error.message).not.toContain(keysB.keys['key-b']!);
  });

  it('refuses tampered ciphertext, a tampered tag, a relabelled key id and a truncated payload', async () => {
    const codec = codecOf({ current: 'key-a', keys: { ...keysA.keys, 'key-b': keysA.keys['key-a']! } });
    const [encrypted] = await codec.encode([toPayload(PII)]);
    const flip = (index: number): Payload => {
      const data = Buffer.from(encrypted!.data!);
      data[index < 0 ? data.length + index : index]! ^= 0x01;
      return { ...encrypted!, data: new Uint8Array(data) };
    };
    await expectCodecError(codec.decode([flip(20)]), 'DECRYPT_FAILED'); // ciphertext
    await expectCodecError(codec.decode([flip(-1)]), 'DECRYPT_FAILED'); // tag
    await expectCodecError(codec.decode([flip(0)]), 'DECRYPT_FAILED'); // IV
    // Same key material under another id: the id is authenticated data, so relabelling fails too.
    const relabelled = {
      ...encrypted!,
      metadata: { ...encrypted!.metadata, 'encryption-key-id': new Uint8Array(Buffer.from('key-b')) },
    };
    await expectCodecError(codec.decode([relabelled]), 'DECRYPT_FAILED');
    await expectCodecError(codec.decode([{ ...encrypted!, data: new Uint8Array(10) }]), 'MALFORMED');
    const noId = { ...encrypted!, metadata: { encoding: encrypted!.metadata!.encoding! } };
    await expectCodecError(codec.decode([noId]), 'MALFORMED');
  });

  it('rotates: old payloads still decrypt with the old key, new ones are written with the new current key', async () => {
    const before = codecOf(keysA);
    const [old] = await before.encode([toPayload({ v: 'old' })]);
    const after = codecOf({ current: 'key-b', keys: { ...keysA.keys, ...keysB.keys } });
    const [fresh] = await after.encode([toPayload({ v: 'new' })]);
    expect(Buffer.from(fresh!.metadata!['encryption-key-id']!).toString()).toBe('key-b');
    const decoded = await after.decode([old!, fresh!]);
    expect(decoded.map(fromPayload)).toEqual([{ v: 'old' }, { v: 'new' }]);
    // Once key-a is removed, old payloads are refused with a clear error (not silently dropped).
    await expectCodecError(codecOf(keysB).decode([old!]), 'UNKNOWN_KEY_ID');
  });

  it('refuses a payload written without the codec; reads it as it is only under the migration switch', async () => {
    const plain = toPayload(PII);
    const error = await expectCodecError(codecOf(keysA).decode([plain]), 'PLAINTEXT');
    expect(error.message).toMatch(/XBORDER_CODEC_PLAINTEXT=admit/);
    expect(error.message).not.toContain(PII.email);
    const [decoded] = await new EncryptionCodec(staticKeyProvider(keysA), { plaintext: 'admit' }).decode([
      plain,
    ]);
    expect(decoded).toBe(plain);
    expect(fromPayload(decoded!)).toEqual(PII);
  });

  it('encodes failure messages and stack traces into a payload the codec encrypts', async () => {
    const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
    const failure = failureConverter.errorToFailure(
      new Error(`no account for ${PII.email}`),
      defaultPayloadConverter,
    );
    expect(failure.message).toBe('Encoded failure');
    expect(JSON.stringify(failure.message) + (failure.stackTrace ?? '')).not.toContain(PII.email);
    const [encrypted] = await codecOf(keysA).encode([failure.encodedAttributes!]);
    expect(text(encrypted!)).not.toContain(PII.email);
  });
});

describe('keys from the environment', () => {
  const json = JSON.stringify(keysA);

  it('reads XBORDER_CODEC_KEYS or XBORDER_CODEC_KEYS_FILE, never both', () => {
    expect(codecKeysFromEnv({ XBORDER_CODEC_KEYS: json })).toMatchObject({ kind: 'keys', keys: keysA });
    expect(() => codecKeysFromEnv({ XBORDER_CODEC_KEYS: json, XBORDER_CODEC_KEYS_FILE: '/x' })).toThrow(
      /not both/,
    );
    expect(() => codecKeysFromEnv({ XBORDER_CODEC_KEYS_FILE: '/nonexistent/keys.json' })).toThrow(
      /cannot read/,
    );
  });

  it('rejects keys of the wrong length or a current id that is not listed, without echoing the key', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    const error = (() => {
      try {
        codecKeysFromEnv({ XBORDER_CODEC_KEYS: JSON.stringify({ current: 'k', keys: { k: short } }) });
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected an error');
    })();
    expect(error.message).toMatch(/32 bytes/);
    expect(error.message).not.toContain(short);
    expect(() =>
      codecKeysFromEnv({ XBORDER_CODEC_KEYS: JSON.stringify({ current: 'x', keys: keysA.keys }) }),
    ).toThrow(/current/);
    expect(() => codecKeysFromEnv({ XBORDER_CODEC_KEYS: 'not json' })).toThrow(/not JSON/);
  });

  it('fails loudly without keys, naming the variables, unless XBORDER_CODEC=disabled', () => {
    expect(() => dataConverterFromEnv({})).toThrow(MISSING_KEYS_MESSAGE);
    expect(MISSING_KEYS_MESSAGE).toMatch(/XBORDER_CODEC_KEYS/);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const disabled = dataConverterFromEnv({ XBORDER_CODEC: 'disabled' });
    expect(disabled.payloadCodecs).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('NOT encrypted'));
    warn.mockRestore();
    expect(() => dataConverterFromEnv({ XBORDER_CODEC: 'off' })).toThrow(/XBORDER_CODEC must be/);
    expect(dataConverterFromEnv({ XBORDER_CODEC_KEYS: json }).payloadCodecs).toHaveLength(1);
  });
});
