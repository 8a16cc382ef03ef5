// AES-256-GCM payload codec (issue 13). Runs outside the workflow sandbox (DataConverter.payloadCodecs): the
// whole Payload (metadata + data) is serialised and encrypted with a random 12-byte IV, so the encoding of
// the value is hidden too. The result follows the convention of Temporal's encryption sample, so tools
// recognise it: metadata `encoding: binary/encrypted` and `encryption-key-id: <id>`; data = IV ‖ ciphertext ‖ tag.
// The key id is also the GCM additional data: a payload relabelled with another id does not decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CodecError } from './errors';
import type { CodecKeyProvider } from './keys';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const METADATA_ENCODING = 'encoding';
export const METADATA_KEY_ID = 'encryption-key-id';
export const METADATA_CIPHER = 'encryption-cipher';
export const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

export function isEncryptedPayload(payload: Payload): boolean {
  return text(payload.metadata?.[METADATA_ENCODING]) === ENCRYPTED_ENCODING;
}

export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keys: CodecKeyProvider) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const key = await this.keys.currentKey();
    return payloads.map((payload) => {
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key.material, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(key.id, 'utf8'));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          [METADATA_ENCODING]: utf8(ENCRYPTED_ENCODING),
          [METADATA_KEY_ID]: utf8(key.id),
          [METADATA_CIPHER]: utf8(CIPHER),
        },
        data: new Uint8Array(sealed),
      };
    });
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => this.decodeOne(payload)));
  }

  private async decodeOne(payload: Payload): Promise<Payload> {
    // Written before the codec was switched on (running workflows, old histories): read it as it is.
    if (!isEncryptedPayload(payload)) return payload;
    const keyId = text(payload.metadata?.[METADATA_KEY_ID]);
    if (!keyId) throw new CodecError('MALFORMED', `encrypted payload without ${METADATA_KEY_ID} metadata`);
    const key = await this.keys.keyById(keyId);
    if (!key) {
      const known = (await this.keys.knownKeyIds()).join(', ');
      throw new CodecError(
        'UNKNOWN_KEY_ID',
        `payload encrypted with key "${keyId}", which is not among the configured keys (${known}); add it to XBORDER_CODEC_KEYS (see docs/codec.md)`,
      );
    }
    const sealed = Buffer.from(payload.data ?? new Uint8Array());
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new CodecError('MALFORMED', `encrypted payload too short (${sealed.length} bytes)`);
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.material, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(tag);
      // GCM releases nothing until final() has checked the tag: no partial plaintext on failure.
      plain = Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      throw new CodecError(
        'DECRYPT_FAILED',
        `payload encrypted with key "${keyId}" did not authenticate: the key under that id is not the one it was written with, or the payload was altered`,
      );
    }
    return temporal.api.common.v1.Payload.decode(plain);
  }
}
