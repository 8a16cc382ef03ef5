// The provider API key from a file (XBORDER_PROVIDER_API_KEY_FILE: a Docker or Kubernetes secret), so it is not in the
// container's environment for `docker inspect` to show (docs/deployment.md, "Secrets"). Exactly one of the two.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { workerConfigFromEnv } from '../../workers/config';
import { generatedApiKey } from '../support/secrets';

const base = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010' };
const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-key-file-'));

it('reads the key from the file, trimmed (a secret file ends with a newline)', () => {
  const key = generatedApiKey();
  const file = path.join(dir, 'provider-api-key');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  expect(workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY_FILE: file }).provider.apiKey).toBe(key);
});

it('refuses both, neither, an unreadable or an empty file, naming the variable and never a key', () => {
  const key = generatedApiKey();
  const file = path.join(dir, 'both');
  writeFileSync(file, key);
  expect(() =>
    workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY: key, XBORDER_PROVIDER_API_KEY_FILE: file }),
  ).toThrow(/not both/);
  expect(() => workerConfigFromEnv(base)).toThrow(/XBORDER_PROVIDER_API_KEY is required/);
  expect(() =>
    workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY_FILE: path.join(dir, 'missing') }),
  ).toThrow(/XBORDER_PROVIDER_API_KEY_FILE cannot be read \(ENOENT\)/);
  const empty = path.join(dir, 'empty');
  writeFileSync(empty, '\n');
  expect(() => workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY_FILE: empty })).toThrow(
    /XBORDER_PROVIDER_API_KEY_FILE is empty/,
  );
  try {
    workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY: key, XBORDER_PROVIDER_API_KEY_FILE: file });
  } catch (error) {
    expect(String(error)).not.toContain(key);
  }
});

it('refuses a published or placeholder key read from a file, as from the environment', () => {
  const file = path.join(dir, 'placeholder');
  writeFileSync(file, 'change-me\n');
  expect(() => workerConfigFromEnv({ ...base, XBORDER_PROVIDER_API_KEY_FILE: file })).toThrow(
    /XBORDER_PROVIDER_API_KEY/,
  );
});
