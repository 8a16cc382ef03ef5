// Every secret an entry reads may come from a mounted file, `<NAME>_FILE` (src/support/secret-files.ts): the
// ingress's webhook secrets, the worker's events secrets and endpoints, the codec server's tokens (the provider key
// and the codec keys had theirs). Exactly one of the two; errors name the variable and the path, never the content.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ingressConfigFromEnv } from '../../src/ingress/config';
import { codecServerConfigFromEnv } from '../../src/codec/server-config';
import { eventsConfigFromEnv } from '../../workers/events-config';
import { withSecretFiles } from '../../src/support/secret-files';
import { writeGeneratedTestKeys } from '../support/test-keys';

const dir = mkdtempSync(path.join(os.tmpdir(), 'xborder-secret-files-'));
function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content, { mode: 0o600 });
  return p;
}
const keysFile = writeGeneratedTestKeys();
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;

it('takes the value from the file, trimmed, and leaves other variables alone', () => {
  const env = withSecretFiles({ A_FILE: file('a', ' s3cret-value\n'), B: 'b' }, ['A', 'B'], 'test');
  expect(env.A).toBe('s3cret-value');
  expect(env.B).toBe('b');
});

it('refuses both forms, an unreadable file and an empty one, naming the variable and the path only', () => {
  const secretPath = file('both', 'the-secret-itself');
  expect(() => withSecretFiles({ A: 'x', A_FILE: secretPath }, ['A'], 'ingress')).toThrow(
    'ingress: set A or A_FILE, not both',
  );
  expect(() => withSecretFiles({ A_FILE: path.join(dir, 'missing') }, ['A'], 'ingress')).toThrow(
    /A_FILE cannot be read \(ENOENT\): .*missing/,
  );
  expect(() => withSecretFiles({ A_FILE: file('empty', '\n') }, ['A'], 'ingress')).toThrow(/A_FILE is empty/);
  try {
    withSecretFiles({ A: 'x', A_FILE: secretPath }, ['A'], 'ingress');
  } catch (error) {
    expect(String(error)).not.toContain('the-secret-itself');
  }
});

it('the ingress reads XBORDER_WEBHOOK_SECRETS_FILE, and the published-secret check still applies', () => {
  const config = ingressConfigFromEnv({
    XBORDER_WEBHOOK_SECRETS_FILE: file('webhook', webhookSecret),
    XBORDER_CODEC_KEYS_FILE: keysFile,
  });
  expect(config.secrets).toEqual([webhookSecret]);
  expect(() =>
    ingressConfigFromEnv({
      XBORDER_WEBHOOK_SECRETS_FILE: file('weak', 'whsec_YQ=='),
      XBORDER_CODEC_KEYS_FILE: keysFile,
    }),
  ).toThrow(/XBORDER_WEBHOOK_SECRETS/);
});

it('the worker reads XBORDER_EVENTS_SECRETS_FILE; the codec server XBORDER_CODEC_SERVER_TOKENS_FILE', () => {
  const events = eventsConfigFromEnv({
    XBORDER_EVENTS_URL: 'https://backend.example/events',
    XBORDER_EVENTS_SECRETS_FILE: file('events', webhookSecret),
  });
  expect(events.defaultEndpoint?.secrets).toEqual([webhookSecret]);
  const token = randomBytes(24).toString('hex');
  const codec = codecServerConfigFromEnv({
    XBORDER_CODEC_SERVER_TOKENS_FILE: file('tokens', token),
    XBORDER_CODEC_KEYS_FILE: keysFile,
  });
  expect(codec.tokens).toEqual([token]);
});

afterAll(() => chmodSync(dir, 0o700));
