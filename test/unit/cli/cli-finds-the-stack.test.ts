// The lines `npm start` prints for another shell, and the UI link the CLI builds when TEMPORAL_UI_URL is not set.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyLines } from '../../../src/cli/dev';
import { defaultUiUrl } from '../../../src/cli/cli-env';
import { findDevCodecKeysFile } from '../../../src/cli/cli-codec';

test('npm start prints TEMPORAL_ADDRESS, XBORDER_CODEC_KEYS_FILE and TEMPORAL_UI_URL of the running stack', () => {
  expect(copyLines('127.0.0.1:47300', 'http://127.0.0.1:48300', '/repo/.data/codec-keys.json')).toEqual([
    'export TEMPORAL_ADDRESS=127.0.0.1:47300',
    'export XBORDER_CODEC_KEYS_FILE=/repo/.data/codec-keys.json',
    'export TEMPORAL_UI_URL=http://127.0.0.1:48300',
  ]);
  // keys from the environment are never printed, only pointed at
  expect(copyLines('a:1', 'http://a:2', 'the environment')[1]).toMatch(/^# XBORDER_CODEC_KEYS/);
});

test("without TEMPORAL_UI_URL the CLI's links follow the dev server's port (frontend + 1000)", () => {
  expect(defaultUiUrl('127.0.0.1:47300')).toBe('http://127.0.0.1:48300');
  expect(defaultUiUrl('localhost:7233')).toBe('http://localhost:8233');
});

test('.data/codec-keys.json is found from a directory below the checkout, and only there', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'xborder-keys-'));
  try {
    mkdirSync(path.join(root, 'checkout', '.data'), { recursive: true });
    mkdirSync(path.join(root, 'checkout', 'a', 'b'), { recursive: true });
    mkdirSync(path.join(root, 'elsewhere'));
    const file = path.join(root, 'checkout', '.data', 'codec-keys.json');
    writeFileSync(file, '{}');
    expect(findDevCodecKeysFile(path.join(root, 'checkout', 'a', 'b'))).toBe(file);
    expect(findDevCodecKeysFile(path.join(root, 'elsewhere'))).toBeNull();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
