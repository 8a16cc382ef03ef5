// The codec reads ciphertext only, bound to the workflow it belongs to (docs/codec.md, "Ciphertext only" and
// "Bound to its workflow"): plaintext written by someone without the keys is refused; a payload copied into
// another workflow's history or signal is refused; payloads written before the binding still decode.
import { defaultPayloadConverter, type Payload, type SerializationContext } from '@temporalio/common';
import {
  CodecError,
  EncryptionCodec,
  METADATA_CONTEXT,
  dataConverterFromEnv,
  generateCodecKeys,
  staticKeyProvider,
  type EncryptionCodecOptions,
} from '../../src/codec';

const keys = generateCodecKeys('bound-test');
const codec = (options: EncryptionCodecOptions = {}) => new EncryptionCodec(staticKeyProvider(keys), options);
const payload = (value: unknown): Payload => defaultPayloadConverter.toPayload(value);
const wf = (workflowId: string, namespace = 'default'): SerializationContext => ({
  type: 'workflow',
  namespace,
  workflowId,
});
const COMPLETED = { type: 'payment.updated', data: { id: 'pay_1', status: 'COMPLETED' } };

async function codecError(promise: Promise<unknown>): Promise<CodecError> {
  const error = await promise.then(
    () => new Error('expected a CodecError'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodecError);
  return error as CodecError;
}

describe('ciphertext only', () => {
  it('refuses a plaintext payload (a plain `temporal workflow signal`) with a typed error naming the switch', async () => {
    const error = await codecError(codec().decode([payload(COMPLETED)], wf('provider-payment:pay_1')));
    expect(error.type).toBe('PLAINTEXT');
    expect(error.message).toMatch(/XBORDER_CODEC_PLAINTEXT=admit/);
    expect(error.message).not.toContain('COMPLETED');
  });

  it('admits plaintext only with XBORDER_CODEC_PLAINTEXT=admit (default refuse; anything else is a configuration error)', async () => {
    const env = { XBORDER_CODEC_KEYS: JSON.stringify(keys) };
    const strict = dataConverterFromEnv(env).payloadCodecs![0]!;
    expect((await codecError(strict.decode([payload(COMPLETED)]))).type).toBe('PLAINTEXT');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const migrating = dataConverterFromEnv({ ...env, XBORDER_CODEC_PLAINTEXT: 'admit' }).payloadCodecs![0]!;
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('XBORDER_CODEC_PLAINTEXT=admit'));
    warn.mockRestore();
    const [read] = await migrating.decode([payload(COMPLETED)]);
    expect(defaultPayloadConverter.fromPayload(read!)).toEqual(COMPLETED);
    expect(() => dataConverterFromEnv({ ...env, XBORDER_CODEC_PLAINTEXT: 'yes' })).toThrow(
      /XBORDER_CODEC_PLAINTEXT must be/,
    );
  });
});

describe('bound to its workflow', () => {
  it('decodes a payload in the workflow it was written for, and refuses it in another workflow or namespace', async () => {
    const [sealed] = await codec().encode([payload(COMPLETED)], wf('provider-payment:pay_1'));
    expect(Buffer.from(sealed!.metadata![METADATA_CONTEXT]!).toString()).toBe(
      '["default","provider-payment:pay_1"]',
    );
    const [read] = await codec().decode([sealed!], wf('provider-payment:pay_1'));
    expect(defaultPayloadConverter.fromPayload(read!)).toEqual(COMPLETED);

    const copied = await codecError(codec().decode([sealed!], wf('provider-payment:pay_2')));
    expect(copied.type).toBe('WRONG_WORKFLOW');
    expect(copied.message).toContain('provider-payment:pay_1');
    expect((await codecError(codec().decode([sealed!], wf('provider-payment:pay_1', 'other')))).type).toBe(
      'WRONG_WORKFLOW',
    );
    // The activity that workflow scheduled reads its arguments under the workflow's binding.
    const activity: SerializationContext = {
      type: 'activity',
      namespace: 'default',
      workflowId: 'provider-payment:pay_1',
      activityId: '1',
      isLocal: false,
    };
    await expect(codec().decode([sealed!], activity)).resolves.toHaveLength(1);
  });

  it('refuses a payload whose binding was relabelled to the target workflow: the tag covers it', async () => {
    const [sealed] = await codec().encode([payload(COMPLETED)], wf('provider-payment:pay_1'));
    const relabelled: Payload = {
      ...sealed!,
      metadata: {
        ...sealed!.metadata,
        [METADATA_CONTEXT]: new Uint8Array(Buffer.from('["default","provider-payment:pay_2"]')),
      },
    };
    expect((await codecError(codec().decode([relabelled], wf('provider-payment:pay_2')))).type).toBe(
      'DECRYPT_FAILED',
    );
    const stripped: Payload = { ...sealed!, metadata: { ...sealed!.metadata } };
    delete stripped.metadata![METADATA_CONTEXT];
    expect((await codecError(codec().decode([stripped], wf('provider-payment:pay_2')))).type).toBe(
      'DECRYPT_FAILED',
    );
  });

  it('decodes without a context (the codec server for the UI) by the binding the payload carries', async () => {
    const [sealed] = await codec().encode([payload(COMPLETED)], wf('provider-payment:pay_1'));
    const [read] = await codec().decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(read!)).toEqual(COMPLETED);
  });

  it('still decodes a payload written before the binding, until XBORDER_CODEC_UNBOUND=refuse', async () => {
    const [old] = await codec().encode([payload(COMPLETED)]); // no context: the format before the binding
    expect(old!.metadata![METADATA_CONTEXT]).toBeUndefined();
    await expect(codec().decode([old!], wf('provider-payment:pay_2'))).resolves.toHaveLength(1);
    expect(
      (await codecError(codec({ unbound: 'refuse' }).decode([old!], wf('provider-payment:pay_2')))).type,
    ).toBe('UNBOUND');
    const env = { XBORDER_CODEC_KEYS: JSON.stringify(keys), XBORDER_CODEC_UNBOUND: 'refuse' };
    expect(
      (await codecError(dataConverterFromEnv(env).payloadCodecs![0]!.decode([old!], wf('x')))).type,
    ).toBe('UNBOUND');
  });

  it('follows a Schedule: the action (reserved ID `schedule:<id>`) is encoded for its workflow ID, each run has the nominal time appended', async () => {
    const [args] = await codec().encode([payload({ run: 1 })], wf('schedule:payment-reconcile'));
    await expect(
      codec().decode([args!], wf('schedule:payment-reconcile-2026-11-25T13:00:00Z')),
    ).resolves.toHaveLength(1);
    // A run's result reaches the next run (lastCompletionResult).
    const [result] = await codec().encode(
      [payload({ ok: true })],
      wf('schedule:payment-reconcile-2026-11-25T13:00:00Z'),
    );
    await expect(
      codec().decode([result!], wf('schedule:payment-reconcile-2026-11-25T13:05:00Z')),
    ).resolves.toHaveLength(1);
    // Not a licence for look-alike IDs, nor for another Schedule.
    expect((await codecError(codec().decode([args!], wf('schedule:payment-reconcile-extra')))).type).toBe(
      'WRONG_WORKFLOW',
    );
    expect(
      (await codecError(codec().decode([result!], wf('schedule:other-2026-11-25T13:05:00Z')))).type,
    ).toBe('WRONG_WORKFLOW');
    expect(
      (await codecError(codec().decode([args!], wf('payment-reconcile-2026-11-25T13:05:00Z')))).type,
    ).toBe('WRONG_WORKFLOW');
  });

  it("never reads a workflow's payload in `<its ID>-<RFC 3339 time>`: a copied payment input does not start a second payment", async () => {
    // The attack: a pull payment's encrypted start input, copied by a bare gRPC client into a new workflow ID.
    const [input] = await codec().encode([payload({ paymentKey: 'order-1' })], wf('payment:order-1'));
    for (const id of [
      'payment:order-1-2026-01-01T00:00:00Z',
      'payment:order-1-run-2026-01-01T00:00:00Z',
      'schedule:payment:order-1-2026-01-01T00:00:00Z',
    ]) {
      expect((await codecError(codec().decode([input!], wf(id)))).type).toBe('WRONG_WORKFLOW');
    }
    const [transfer] = await codec().encode([payload({ transferKey: 't-1' })], wf('transfer:t-1'));
    expect(
      (await codecError(codec().decode([transfer!], wf('transfer:t-1-2026-01-01T00:00:00Z')))).type,
    ).toBe('WRONG_WORKFLOW');
    // Even an ID that once served a Schedule without the reserved form: its runs no longer share payloads.
    const [old] = await codec().encode([payload({ run: 1 })], wf('payment-reconcile-run'));
    expect(
      (await codecError(codec().decode([old!], wf('payment-reconcile-run-2026-11-25T13:00:00Z')))).type,
    ).toBe('WRONG_WORKFLOW');
  });
});
