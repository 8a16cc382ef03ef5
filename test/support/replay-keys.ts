// The key of the encrypted replay histories (test/replay/histories/encrypted-*): committed, hence public, hence
// refused by every process (src/security/known-secrets.ts). Only the replay test and the history recorder use it,
// through this data converter, never through a process's configuration.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataConverter } from '@temporalio/common';
import {
  codecDataConverter,
  parseCodecKeys,
  staticKeyProvider,
  staticNexusCallerKeyring,
  type CodecKeysJson,
  type EncryptionCodecOptions,
} from '../../src/codec';
import { XBORDER_NEXUS_ENDPOINT } from '../../src/nexus/service';

export const REPLAY_KEYS_FILE = path.join(__dirname, 'codec-test-keys.json');
/** The Nexus caller's key (endpoint `xborder`) of the relay's replay history: public too, refused by every process. */
export const REPLAY_CALLER_KEYS_FILE = path.join(__dirname, 'codec-test-caller-keys.json');

export const replayKeys = (): CodecKeysJson =>
  parseCodecKeys(readFileSync(REPLAY_KEYS_FILE, 'utf8'), REPLAY_KEYS_FILE);
export const replayCallerKeys = (): CodecKeysJson =>
  parseCodecKeys(readFileSync(REPLAY_CALLER_KEYS_FILE, 'utf8'), REPLAY_CALLER_KEYS_FILE);

/** The replay key, and the test caller key for the endpoint `xborder` (a relay's payloads: docs/codec.md). */
export function replayDataConverter(options: EncryptionCodecOptions = {}): DataConverter {
  return codecDataConverter(staticKeyProvider(replayKeys()), {
    nexusCallers: staticNexusCallerKeyring({ [XBORDER_NEXUS_ENDPOINT]: replayCallerKeys() }),
    ...options,
  });
}
