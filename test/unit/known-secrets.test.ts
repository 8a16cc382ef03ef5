// No secret that appears in the repository ever runs: every process refuses, at start and naming the variable, a
// value published in the repository (examples, tests, docs) or a placeholder (src/security/known-secrets.ts).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { codecKeysFromEnv, dataConverterFromEnv } from '../../src/codec';
import { codecServerConfigFromEnv } from '../../src/codec/server-config';
import { ingressConfigFromEnv } from '../../src/ingress/config';
import { createLambdaIngress } from '../../src/ingress/lambda-main';
import { createWebhookHandler } from '../../src/ingress';
import { eventsConfigFromEnv } from '../../workers/events-config';
import { DEFAULT_API_KEY, parseSandboxArgs, SandboxArgsError } from '../../src/sandbox';
import { KnownSecretError, knownSecretReason } from '../../src/security/known-secrets';
import { workerConfigFromEnv } from '../../workers/config';
import { lambdaWorkerSettingsFromEnv } from '../../workers/lambda-worker';
import { REPLAY_KEYS_FILE } from '../support/replay-keys';
import {
  generatedApiKey,
  generatedCodecKey,
  generatedToken,
  generatedWebhookSecret,
} from '../support/secrets';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every secret-looking value in the repository's files: webhook secrets, API keys, codec tokens, 32-byte keys. */
function committedSecretLikeValues(): Map<string, string> {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    // The replay histories (current and archived per build) are base64 payloads, not secrets; the lock file is hashes.
    .filter((f) => f && !/^test\/replay\/(histories|archive)\//.test(f) && f !== 'package-lock.json');
  const patterns = [
    /whsec_[A-Za-z0-9+/_-]{4,}={0,2}/g,
    /\bsk_[A-Za-z0-9_]{3,}/g,
    /\bcodec_[0-9a-f]{16,}/g,
    /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])/g,
  ];
  const found = new Map<string, string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      continue; // listed but not in this checkout
    }
    if (text.includes('\0')) continue;
    for (const pattern of patterns)
      for (const [value] of text.matchAll(pattern)) if (!found.has(value)) found.set(value, file);
  }
  return found;
}

const committed = committedSecretLikeValues();
const publishedWebhookSecret = [...committed.keys()].find((v) => v.startsWith('whsec_') && v.length > 30)!;
const PLACEHOLDERS = [
  '',
  'change-me',
  'CHANGE_ME',
  'replace-me',
  '<generate: openssl rand -base64 32>',
  'whsec_...',
  'x'.repeat(32),
  `whsec_${'A'.repeat(32)}`,
  'secret',
  'sk_test',
];

function refusal(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('the known values', () => {
  it('every secret-looking value committed in the repository is refused (add its SHA-256 to known-secrets.ts)', () => {
    expect(committed.size).toBeGreaterThan(5);
    const accepted = [...committed]
      .filter(([value]) => knownSecretReason(value) === null)
      .map(([value, file]) => `${file}: ${value.slice(0, 12)}…`);
    expect(accepted).toEqual([]);
  });

  it('refuses placeholders and accepts generated secrets', () => {
    for (const value of PLACEHOLDERS)
      expect({ value, refused: knownSecretReason(value) !== null }).toEqual({ value, refused: true });
    expect(knownSecretReason(Buffer.alloc(32).toString('base64'))).not.toBeNull();
    for (const value of [generatedApiKey(), generatedWebhookSecret(), generatedToken(), generatedCodecKey()])
      expect(knownSecretReason(value)).toBeNull();
  });
});

describe('every process refuses them at start, naming the variable and never echoing the value', () => {
  const expectRefused = (run: () => unknown, variable: RegExp, value: string) => {
    const error = refusal(run);
    expect(error.message).toMatch(variable);
    if (value.length >= 6) expect(error.message).not.toContain(value);
  };
  const worker = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010' };

  it('the worker and the Lambda worker: XBORDER_PROVIDER_API_KEY', () => {
    for (const value of [DEFAULT_API_KEY, 'change-me']) {
      expectRefused(
        () => workerConfigFromEnv({ ...worker, XBORDER_PROVIDER_API_KEY: value }),
        /XBORDER_PROVIDER_API_KEY/,
        value,
      );
      expectRefused(
        () =>
          lambdaWorkerSettingsFromEnv({ ...worker, XBORDER_PROVIDER_API_KEY: value, XBORDER_BUILD_ID: 'b1' }),
        /XBORDER_PROVIDER_API_KEY/,
        value,
      );
    }
    expect(
      refusal(() => workerConfigFromEnv({ ...worker, XBORDER_PROVIDER_API_KEY: DEFAULT_API_KEY })),
    ).toBeInstanceOf(KnownSecretError);
  });

  it('the ingress and the Lambda ingress: XBORDER_WEBHOOK_SECRETS, each secret of a rotation', () => {
    const env = { XBORDER_WEBHOOK_SECRETS: `${generatedWebhookSecret()},${publishedWebhookSecret}` };
    expectRefused(() => ingressConfigFromEnv(env), /XBORDER_WEBHOOK_SECRETS \(#2\)/, publishedWebhookSecret);
    const connect = () => Promise.reject(new Error('must not connect'));
    expectRefused(
      () => createLambdaIngress(env, { connect }),
      /XBORDER_WEBHOOK_SECRETS/,
      publishedWebhookSecret,
    );
    expectRefused(
      () => ingressConfigFromEnv({ XBORDER_WEBHOOK_SECRETS: 'whsec_change-me' }),
      /XBORDER_WEBHOOK_SECRETS/,
      'x',
    );
  });

  it('every process reading payload keys (worker, ingress, CLI, codec server, dev stack): XBORDER_CODEC_KEYS(_FILE)', () => {
    // The replay histories' key is committed: it decrypts those histories in the replay test, and nothing runs with it.
    expectRefused(
      () => dataConverterFromEnv({ XBORDER_CODEC_KEYS_FILE: REPLAY_KEYS_FILE }),
      /XBORDER_CODEC_KEYS_FILE key "xborder-test-1"/,
      'x',
    );
    const replayKeys = readFileSync(REPLAY_KEYS_FILE, 'utf8');
    const key = (JSON.parse(replayKeys) as { keys: Record<string, string> }).keys['xborder-test-1']!;
    expectRefused(() => codecKeysFromEnv({ XBORDER_CODEC_KEYS: replayKeys }), /XBORDER_CODEC_KEYS key/, key);
    const zeros = JSON.stringify({ current: 'k', keys: { k: Buffer.alloc(32).toString('base64') } });
    expectRefused(() => codecKeysFromEnv({ XBORDER_CODEC_KEYS: zeros }), /XBORDER_CODEC_KEYS key "k"/, 'x');
  });

  it('the codec server: XBORDER_CODEC_SERVER_TOKENS', () => {
    const keys = JSON.stringify({ current: 'k', keys: { k: generatedCodecKey() } });
    for (const token of ['x'.repeat(16), '<generate: openssl rand -hex 24>', DEFAULT_API_KEY]) {
      expectRefused(
        () =>
          codecServerConfigFromEnv({
            XBORDER_CODEC_KEYS: keys,
            XBORDER_CODEC_SERVER_TOKENS: `${generatedToken()},${token}`,
          }),
        /XBORDER_CODEC_SERVER_TOKENS \(#2\)/,
        token,
      );
    }
  });

  it('the sandbox, for the secrets it is given: webhook secret, API keys, control token', () => {
    for (const argv of [
      ['--webhook-secret', publishedWebhookSecret],
      ['--api-key', DEFAULT_API_KEY],
      ['--control-token', 'change-me-change-me'],
    ]) {
      const error = refusal(() => parseSandboxArgs(argv));
      expect(error).toBeInstanceOf(SandboxArgsError);
      expect(error.message).toContain(argv[0]!);
      expect(error.message).not.toContain(argv[1]!);
    }
    const env = refusal(() => parseSandboxArgs([], { SANDBOX_WEBHOOK_SECRET: publishedWebhookSecret }));
    expect(env.message).toContain('SANDBOX_WEBHOOK_SECRET');
  });

  it('a started process exits before it listens: `xborder ingress` with the published webhook secret', async () => {
    const child = spawn(
      path.join(ROOT, 'node_modules', '.bin', 'tsx'),
      [path.join(ROOT, 'src', 'ingress', 'main.ts')],
      {
        env: {
          ...process.env,
          XBORDER_WEBHOOK_SECRETS: publishedWebhookSecret,
          XBORDER_INGRESS_PORT: '0',
          TEMPORAL_ADDRESS: '127.0.0.1:1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(out).toContain('XBORDER_WEBHOOK_SECRETS must not be used');
    expect(out).not.toContain('listening');
    expect(out).not.toContain(publishedWebhookSecret);
  }, 30_000);
});

describe('secrets are compared as what they decode to, with a minimum strength per kind', () => {
  const key = publishedWebhookSecret.slice('whsec_'.length);
  /** Every spelling of the published webhook key: the HMAC key (decoded bytes) is the same in each. */
  const respellings = [
    `${publishedWebhookSecret}=`,
    `${publishedWebhookSecret}==`,
    key,
    `${key}=`,
    ` ${publishedWebhookSecret}`,
  ];
  const codecEnv = { XBORDER_CODEC_KEYS: JSON.stringify({ current: 'k', keys: { k: generatedCodecKey() } }) };
  const handler = (secret: string) =>
    createWebhookHandler({
      secrets: [secret],
      router: { route: () => Promise.reject(new Error('no')) } as never,
    });

  it('a respelled published webhook secret is refused by every entry (ingress, outbound events, sandbox, the handler itself)', () => {
    for (const value of respellings) {
      expect({ value, reason: knownSecretReason(value, 'webhook-secret') }).toEqual({
        value,
        reason: expect.stringContaining('published'),
      });
      expect(() => ingressConfigFromEnv({ XBORDER_WEBHOOK_SECRETS: value.trim() })).toThrow(
        /XBORDER_WEBHOOK_SECRETS must not be used/,
      );
      expect(() =>
        eventsConfigFromEnv({
          XBORDER_EVENTS_URL: 'http://127.0.0.1:9/e',
          XBORDER_EVENTS_SECRETS: value.trim(),
        }),
      ).toThrow(/XBORDER_EVENTS_SECRETS/);
    }
    expect(() => parseSandboxArgs(['--webhook-secret', `${publishedWebhookSecret}=`])).toThrow(
      SandboxArgsError,
    );
    expect(() => handler(`${publishedWebhookSecret}=`)).toThrow(/Webhook secret #1 must not be used/);
  });

  it('Standard Webhooks keys are 24 to 64 bytes: `whsec_YQ==` (one byte) and 65 bytes refused at the ingress, the worker and the sandbox', () => {
    const ofBytes = (n: number) => `whsec_${randomBytes(n).toString('base64')}`;
    for (const weak of ['whsec_YQ==', ofBytes(16), ofBytes(23), ofBytes(65)]) {
      expect(knownSecretReason(weak, 'webhook-secret')).toMatch(/bytes/);
      expect(() => ingressConfigFromEnv({ XBORDER_WEBHOOK_SECRETS: weak })).toThrow(
        /XBORDER_WEBHOOK_SECRETS must not be used/,
      );
      expect(() =>
        eventsConfigFromEnv({ XBORDER_EVENTS_URL: 'http://127.0.0.1:9/e', XBORDER_EVENTS_SECRETS: weak }),
      ).toThrow(/XBORDER_EVENTS_SECRETS/);
      expect(() =>
        eventsConfigFromEnv({
          XBORDER_EVENTS_ENDPOINTS: JSON.stringify([{ url: 'http://127.0.0.1:9/e', secrets: [weak] }]),
        }),
      ).toThrow(/XBORDER_EVENTS_ENDPOINTS/);
      expect(() => parseSandboxArgs(['--webhook-secret', weak])).toThrow(SandboxArgsError);
      expect(() => handler(weak)).toThrow(/Webhook secret #1/);
    }
    for (const ok of [ofBytes(24), ofBytes(32), ofBytes(64)]) {
      expect(knownSecretReason(ok, 'webhook-secret')).toBeNull();
      expect(ingressConfigFromEnv({ XBORDER_WEBHOOK_SECRETS: ok }).secrets).toEqual([ok]);
    }
  });

  it('tokens need 24+ random characters, API keys 16+: the codec server, the sandbox, the worker', () => {
    for (const weak of ['x'.repeat(30), 'abcdabcdabcdabcdabcdabcd', randomBytes(8).toString('hex')]) {
      expect(() => codecServerConfigFromEnv({ ...codecEnv, XBORDER_CODEC_SERVER_TOKENS: weak })).toThrow(
        /XBORDER_CODEC_SERVER_TOKENS must not be used/,
      );
      expect(() => parseSandboxArgs(['--control-token', weak])).toThrow(SandboxArgsError);
    }
    expect(() => parseSandboxArgs(['--api-key', 'sk_short1'])).toThrow(SandboxArgsError);
    expect(() =>
      workerConfigFromEnv({
        XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010',
        XBORDER_PROVIDER_API_KEY: 'sk_short1',
      }),
    ).toThrow(/XBORDER_PROVIDER_API_KEY/);
    expect(
      codecServerConfigFromEnv({ ...codecEnv, XBORDER_CODEC_SERVER_TOKENS: generatedToken() }).tokens,
    ).toHaveLength(1);
  });

  it('a codec key respelled (extra padding) is the same key: the replay histories’ key is refused in any spelling', () => {
    const replay = (JSON.parse(readFileSync(REPLAY_KEYS_FILE, 'utf8')) as { keys: Record<string, string> })
      .keys['xborder-test-1']!;
    expect(knownSecretReason(`${replay}=`, 'codec-key')).toMatch(/published/);
  });
});
