// Payload keys of the tests. Generated per run: every process refuses a key published in the repository
// (src/security/known-secrets.ts). The one committed key, codec-test-keys.json, only decrypts the encrypted replay
// histories (recorded with it, never re-recorded): replay-keys.ts hands it to the replay test and the history
// recorder directly, never through a process's configuration.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Writes a fresh key set (mode 0600, in a new temporary directory) and returns its path, for XBORDER_CODEC_KEYS_FILE. */
export function writeGeneratedTestKeys(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-test-keys-')), 'codec-keys.json');
  writeFileSync(
    file,
    JSON.stringify({ current: 'test-run', keys: { 'test-run': randomBytes(32).toString('base64') } }),
    { mode: 0o600 },
  );
  return file;
}
