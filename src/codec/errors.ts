/** Why the codec refused a payload. Messages name the key id at most: never key material or payload bytes. */
export type CodecErrorType =
  /** The payload names a key id that no configured key has (rotated out too early, or another environment's). */
  | 'UNKNOWN_KEY_ID'
  /** Authentication failed: the key under that id is not the one it was encrypted with, or the bytes were altered. */
  | 'DECRYPT_FAILED'
  /** Not a payload this codec wrote (missing key id, too short). */
  | 'MALFORMED'
  /** Not encrypted at all: written without the keys (XBORDER_CODEC_PLAINTEXT=admit reads it during a migration). */
  | 'PLAINTEXT'
  /** Encrypted for another workflow (or namespace) than the one reading it: copied from elsewhere. */
  | 'WRONG_WORKFLOW'
  /** Encrypted before payloads were bound to their workflow, and XBORDER_CODEC_UNBOUND=refuse is set. */
  | 'UNBOUND';

/**
 * Not retryable by itself: the same bytes and keys fail the same way until an operator adds the key. (A worker
 * failing to decode fails the workflow task, which Temporal retries: adding the key later heals it.)
 */
export class CodecError extends Error {
  override readonly name = 'CodecError';
  constructor(
    readonly type: CodecErrorType,
    message: string,
  ) {
    super(message);
  }
}
