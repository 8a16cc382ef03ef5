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
  type EncryptionCodecOptions,
} from '../../src/codec';

export const REPLAY_KEYS_FILE = path.join(__dirname, 'codec-test-keys.json');

export function replayDataConverter(options: EncryptionCodecOptions = {}): DataConverter {
  return codecDataConverter(
    staticKeyProvider(parseCodecKeys(readFileSync(REPLAY_KEYS_FILE, 'utf8'), REPLAY_KEYS_FILE)),
    options,
  );
}
