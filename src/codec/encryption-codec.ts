// AES-256-GCM payload codec. Runs outside the workflow sandbox (DataConverter.payloadCodecs): the
// whole Payload (metadata + data) is serialised and encrypted with a random 12-byte IV, so the encoding of
// the value is hidden too. The result follows the convention of Temporal's encryption sample, so tools
// recognise it: metadata `encoding: binary/encrypted` and `encryption-key-id: <id>`; data = IV ‖ ciphertext ‖ tag.
// The key id is also the GCM additional data: a payload relabelled with another id does not decrypt.
//
// Ciphertext only, bound to its workflow (docs/codec.md, "Ciphertext only" and "Bound to its workflow"):
// - A payload that is not encrypted is refused: whoever reaches Temporal without the keys (a plain
//   `temporal workflow signal`) cannot hand a workflow data. XBORDER_CODEC_PLAINTEXT=admit reads it, for a
//   migration window only.
// - With the SDK's SerializationContext (namespace and workflow ID of the workflow that owns the payload), the
//   namespace and workflow ID are in the additional data too, and in the metadata (`encryption-context`) so a
//   decoder without a context (the codec server) can still authenticate it. A payload copied into another
//   workflow's history or signal fails: its context is not the decoder's, and a relabelled one fails the tag.
//   The workflow ID must be the decoder's exactly: the one exception is the runs of one Schedule, whose action ID
//   has the reserved form `schedule:<id>` (schedule-binding.ts). Payloads written before the binding (no
//   `encryption-context`) still decode until XBORDER_CODEC_UNBOUND=refuse.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { CodecError } from './errors';
import type { CodecKeyProvider } from './keys';
import type { NexusCallerKeyring } from './nexus-caller-keys';
import { currentNexusEndpoint, insideNexusRequest, nexusAnswerBinding } from './nexus-result-binding';
import { nexusOutcomeOf } from './nexus-outcome-binding';
import { sameWorkflow } from './schedule-binding';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const METADATA_ENCODING = 'encoding';
export const METADATA_KEY_ID = 'encryption-key-id';
export const METADATA_CIPHER = 'encryption-cipher';
/** `["<namespace>","<workflow id>"]`: whose payload this is (public: both are plaintext in Temporal anyway). */
export const METADATA_CONTEXT = 'encryption-context';
/** Versions the additional data of bound payloads, so its layout can change without ambiguity. */
const BOUND_AAD_VERSION = 'xborder-codec-aad/2';
export const CIPHER = 'AES-256-GCM';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const text = (b: Uint8Array | null | undefined) => (b ? Buffer.from(b).toString('utf8') : undefined);

export function isEncryptedPayload(payload: Payload): boolean {
  return text(payload.metadata?.[METADATA_ENCODING]) === ENCRYPTED_ENCODING;
}

/** What the codec admits besides ciphertext bound to the decoder's workflow (docs/codec.md). */
export interface EncryptionCodecOptions {
  /** A payload that is not encrypted: refused (default) or read as it is (a migration window only). */
  plaintext?: 'refuse' | 'admit';
  /** An encrypted payload written before the workflow binding: admitted (default, see docs/codec.md for how long) or refused. */
  unbound?: 'admit' | 'refuse';
  /**
   * With `unbound: 'admit'`, the key ids an unbound payload may carry: the keys in use before the binding. Unset: any.
   * A payload encrypted under a newer key was written after the binding, when xborder writes bound payloads, so an
   * unbound one is no old payload (e.g. encoded by a tool without a workflow, such as the codec server's /encode).
   */
  unboundKeyIds?: ReadonlyArray<string>;
  /**
   * Payloads bound to workflows of ANOTHER namespace that this decoder reads on purpose: a Nexus caller's workflow
   * receives the result of the workflow behind the operation as that workflow wrote it (bound to it), by callback
   * (src/client/nexus-caller-codec.ts). Only IDs starting with `workflowIdPrefix` in exactly `namespace`, never one of the
   * decoder's own namespace: a copy across the decoder's own workflows stays refused. Default none.
   */
  admitBoundTo?: ReadonlyArray<{ namespace: string; workflowIdPrefix: string }>;
  /**
   * The Nexus callers' own key sets, by endpoint (xborder's worker only: src/codec/nexus-caller-keys.ts). What is
   * encoded or decoded WITHOUT a SerializationContext inside a Nexus request that came through an endpoint listed
   * here (the operation's input, its synchronous answer and failures) uses that caller's keys and no other, and so
   * do the payloads of that caller's outcome relays (`nexus-outcome:<endpoint>:<key>`, which have no input and no
   * messages: nexus-outcome-binding.ts); every other payload with a context (every other workflow's) uses xborder's
   * keys only. So a caller's key never opens a payment's payload, and nothing a caller encrypts is read by a
   * workflow that acts on it.
   */
  nexusCallers?: NexusCallerKeyring;
}

/** Which keys serve a Nexus request's own payloads (EncryptionCodec.nexusCallerKeysOf). */
export type NexusCallerKeysState =
  /** the endpoint has its own key set: the request's input and answers use it */
  | 'own-keys'
  /** XBORDER_NEXUS_CALLER_KEYS is set and does not list the endpoint: its requests are refused */
  | 'refused'
  /** XBORDER_NEXUS_CALLER_KEYS is unset: callers hold xborder's keys (less safe, SECURITY.md "Nexus") */
  | 'xborder-keys';

interface Binding {
  namespace: string;
  workflowId: string;
}

/**
 * No key at all: what a Nexus request through an endpoint without a caller key set sends is read with none, so the
 * codec refuses it before any handler runs (EncryptionCodecOptions.nexusCallers). Never used to encode.
 */
const NO_KEYS: CodecKeyProvider = {
  currentKey: () => Promise.reject(new CodecError('UNKNOWN_KEY_ID', 'no key to encode with')),
  keyById: () => Promise.resolve(undefined),
  knownKeyIds: () => Promise.resolve([]),
};

/** What the input of a request through an endpoint without a key set decodes to: null (`binary/null`), unread. */
const REFUSED_INPUT: Payload = { metadata: { encoding: new TextEncoder().encode('binary/null') } };

/** Whose keys serve a payload: xborder's, a caller's (`owner`: its endpoint), or none (`refused`: that endpoint). */
interface KeysChoice {
  keys: CodecKeyProvider;
  owner?: string;
  refused?: string;
}

function bindingOf(context: SerializationContext | undefined): Binding | undefined {
  // An empty ID is still an ID (never a licence to skip the check); only a context without one is unbound.
  if (context?.workflowId === undefined) return undefined;
  return { namespace: context.namespace, workflowId: context.workflowId };
}

const boundAad = (keyId: string, b: Binding) =>
  Buffer.from(JSON.stringify([BOUND_AAD_VERSION, keyId, b.namespace, b.workflowId]), 'utf8');

function readBinding(payload: Payload): Binding | undefined {
  const raw = text(payload.metadata?.[METADATA_CONTEXT]);
  if (raw === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((x) => typeof x === 'string')) {
    throw new CodecError('MALFORMED', `encrypted payload with an unreadable ${METADATA_CONTEXT} metadata`);
  }
  return { namespace: parsed[0] as string, workflowId: parsed[1] as string };
}

export class EncryptionCodec implements PayloadCodec {
  private readonly plaintext: 'refuse' | 'admit';
  private readonly unbound: 'admit' | 'refuse';
  private readonly unboundKeyIds: ReadonlySet<string> | undefined;
  private readonly admitBoundTo: ReadonlyArray<{ namespace: string; workflowIdPrefix: string }>;
  private readonly nexusCallers: NexusCallerKeyring | undefined;

  constructor(
    private readonly keys: CodecKeyProvider,
    options: EncryptionCodecOptions = {},
  ) {
    this.plaintext = options.plaintext ?? 'refuse';
    this.unbound = options.unbound ?? 'admit';
    this.unboundKeyIds = options.unboundKeyIds ? new Set(options.unboundKeyIds) : undefined;
    this.admitBoundTo = options.admitBoundTo ?? [];
    this.nexusCallers = options.nexusCallers;
  }

  /** Which keys the requests through `endpoint` use (the Nexus handler refuses 'refused': src/nexus/caller.ts). */
  nexusCallerKeysOf(endpoint: string): NexusCallerKeysState {
    if (!this.nexusCallers) return 'xborder-keys';
    return this.nexusCallers.forEndpoint(endpoint) ? 'own-keys' : 'refused';
  }

  /**
   * The keys for a payload: a caller's only for one without a context inside a request through that caller's
   * endpoint (the request's own input, answer and failures: EncryptionCodecOptions.nexusCallers); else xborder's.
   * To decode, a payload without a context inside a request through an endpoint without a key set (or naming none)
   * gets NO key: fail closed, nothing such a request sends reaches a handler (SECURITY.md, "Nexus"), whatever the
   * handler's own check finds. Its answers (the refusal) are still written under xborder's keys: they carry no
   * payment's data, and the failure of a refused request must be encodable to be sent at all.
   */
  private keysFor(context: SerializationContext | undefined, use: 'encode' | 'decode'): KeysChoice {
    if (!this.nexusCallers) return { keys: this.keys };
    // a relay of a payment's outcome (`nexus-outcome:<endpoint>:<key>`, nexus-outcome-binding.ts) is the caller's;
    // every other workflow's payload is xborder's, inside a Nexus request too
    const endpoint = context
      ? context.workflowId === undefined
        ? undefined
        : nexusOutcomeOf(context.workflowId)?.endpoint
      : currentNexusEndpoint();
    const caller = endpoint === undefined ? undefined : this.nexusCallers.forEndpoint(endpoint);
    if (caller) return { keys: caller, owner: endpoint };
    if (use === 'decode' && !context && insideNexusRequest())
      return { keys: NO_KEYS, refused: endpoint ?? '(none)' };
    return { keys: this.keys };
  }

  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    const key = await this.keysFor(context, 'encode').keys.currentKey();
    // no context inside a Nexus request: the answer of an operation, bound to the caller's workflow (nexus-result-binding.ts)
    const binding = bindingOf(context) ?? (context ? undefined : nexusAnswerBinding());
    return payloads.map((payload) => {
      const plain = temporal.api.common.v1.Payload.encode(payload).finish();
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key.material, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(binding ? boundAad(key.id, binding) : Buffer.from(key.id, 'utf8'));
      const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
      return {
        metadata: {
          [METADATA_ENCODING]: utf8(ENCRYPTED_ENCODING),
          [METADATA_KEY_ID]: utf8(key.id),
          [METADATA_CIPHER]: utf8(CIPHER),
          ...(binding
            ? { [METADATA_CONTEXT]: utf8(JSON.stringify([binding.namespace, binding.workflowId])) }
            : {}),
        },
        data: new Uint8Array(sealed),
      };
    });
  }

  async decode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return Promise.all(payloads.map((payload) => this.decodeOne(payload, context)));
  }

  /** A payload of another namespace's workflow this decoder was told to read (admitBoundTo). */
  private admitsFromElsewhere(binding: Binding, context: SerializationContext): boolean {
    if (binding.namespace === context.namespace) return false;
    return this.admitBoundTo.some(
      (a) => a.namespace === binding.namespace && binding.workflowId.startsWith(a.workflowIdPrefix),
    );
  }

  /** An unbound payload read in a workflow: admitted only as a payload written before the binding (docs/codec.md). */
  private async checkUnbound(keyId: string, keys: CodecKeyProvider): Promise<void> {
    if (this.unbound === 'refuse') {
      throw new CodecError(
        'UNBOUND',
        'refused an encrypted payload that is not bound to its workflow (written before the binding): XBORDER_CODEC_UNBOUND=refuse is set (docs/codec.md)',
      );
    }
    // the current key writes bound payloads only: an unbound one under it is no old payload, listed or not
    if (this.unboundKeyIds && (!this.unboundKeyIds.has(keyId) || keyId === (await keys.currentKey()).id)) {
      throw new CodecError(
        'UNBOUND',
        `refused an encrypted payload that is not bound to its workflow under key "${keyId}", which is not a key used before the binding (XBORDER_CODEC_UNBOUND_KEY_IDS, never the current key) ` +
          '(the keys used before the binding): no payload written since is unbound (docs/codec.md)',
      );
    }
  }

  private async decodeOne(payload: Payload, context: SerializationContext | undefined): Promise<Payload> {
    if (!isEncryptedPayload(payload)) {
      if (this.plaintext === 'admit') return payload;
      const encoding = text(payload.metadata?.[METADATA_ENCODING]) ?? 'none';
      throw new CodecError(
        'PLAINTEXT',
        `refused a payload that is not encrypted (encoding "${encoding.slice(0, 40)}"): xborder reads ciphertext only, so data written to ` +
          'Temporal without the keys (e.g. a plain `temporal workflow signal`) is never acted on. Send it through an xborder client (the ' +
          'xborder CLI), which encrypts it bound to its workflow; for workflows started before the codec, XBORDER_CODEC_PLAINTEXT=admit reads plaintext during a migration window (docs/codec.md)',
      );
    }
    const keyId = text(payload.metadata?.[METADATA_KEY_ID]);
    if (!keyId) throw new CodecError('MALFORMED', `encrypted payload without ${METADATA_KEY_ID} metadata`);
    const binding = readBinding(payload);
    const expected = bindingOf(context);
    const wrongWorkflow =
      binding &&
      context &&
      (binding.namespace !== context.namespace ||
        (expected && !sameWorkflow(binding.workflowId, expected.workflowId)));
    if (wrongWorkflow && !this.admitsFromElsewhere(binding, context)) {
      throw new CodecError(
        'WRONG_WORKFLOW',
        `payload belongs to workflow "${binding.workflowId}" of namespace "${binding.namespace}", not to ` +
          `${expected ? `"${expected.workflowId}" of ` : ''}namespace "${context.namespace}": a payload copied from another workflow is never read (docs/codec.md)`,
      );
    }
    const { keys, owner, refused } = this.keysFor(context, 'decode');
    // Not read: the request's input becomes null, never the ciphertext's plaintext, and the handler refuses the
    // request UNAUTHORIZED (src/nexus/caller.ts, currentCaller) after binding its answer to the caller's workflow, so
    // the caller reads its refusal. Thrown here instead, the SDK would answer before that binding (an unbound failure
    // the caller refuses to read) or retry it (any error but a HandlerError is a retried INTERNAL).
    if (refused !== undefined) return REFUSED_INPUT;
    if (!binding && expected) await this.checkUnbound(keyId, keys);
    const key = await keys.keyById(keyId);
    if (!key) {
      const known = (await keys.knownKeyIds()).join(', ');
      throw new CodecError(
        'UNKNOWN_KEY_ID',
        owner === undefined
          ? `payload encrypted with key "${keyId}", which is not among the configured keys (${known}); add it to XBORDER_CODEC_KEYS (see docs/codec.md)`
          : `payload encrypted with key "${keyId}", which is not among the keys of Nexus endpoint "${owner}" (${known}): a request through it is read with that caller's keys only (XBORDER_NEXUS_CALLER_KEYS, docs/codec.md)`,
      );
    }
    const sealed = Buffer.from(payload.data ?? new Uint8Array());
    if (sealed.length < IV_BYTES + TAG_BYTES)
      throw new CodecError('MALFORMED', `encrypted payload too short (${sealed.length} bytes)`);
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const body = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.material, iv, { authTagLength: TAG_BYTES });
      // The binding as written in the metadata: checked against the decoder's context above, authenticated here.
      decipher.setAAD(binding ? boundAad(keyId, binding) : Buffer.from(keyId, 'utf8'));
      decipher.setAuthTag(tag);
      // GCM releases nothing until final() has checked the tag: no partial plaintext on failure.
      plain = Buffer.concat([decipher.update(body), decipher.final()]);
    } catch {
      throw new CodecError(
        'DECRYPT_FAILED',
        `payload encrypted with key "${keyId}" did not authenticate: the key under that id is not the one it was written with, or the payload (or its ${METADATA_CONTEXT}) was altered`,
      );
    }
    return temporal.api.common.v1.Payload.decode(plain);
  }
}
