import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  parseSandboxArgs,
  SandboxArgsError,
  signWebhook,
  webhookHeaders,
  SandboxClock,
  parseIsoDuration,
  parseApiKeySpec,
} from '../../src/sandbox';
import { Scheduler } from '../../src/sandbox/scheduler';
import { Router } from '../../src/sandbox/http/router';
import { RateLimiter } from '../../src/sandbox/http/rate-limit';
import { fingerprintOf } from '../../src/sandbox/http/idempotency';
import { ApiError } from '../../src/sandbox/http/api-error';
import { generatedApiKey, generatedWebhookSecret } from '../support/secrets';

describe('Standard Webhooks signature', () => {
  // The published test vector of the Standard Webhooks specification.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('reproduces the official test vector', () => {
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('agrees with an independent HMAC over id.timestamp.body and changes with the body', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    const headers = webhookHeaders(secret, id, timestamp, body);
    expect(headers).toEqual({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': expected,
    });
    expect(signWebhook(secret, id, timestamp, '{"test": 2432232315}')).not.toBe(expected);
  });
});

describe('SandboxClock', () => {
  it('runs with real time from a movable origin and only moves forward', () => {
    let real = 1_000;
    const clock = new SandboxClock(new Date('2026-03-01T00:00:00Z'), () => real);
    real += 500;
    expect(clock.now().toISOString()).toBe('2026-03-01T00:00:00.500Z');
    clock.advance(60_000);
    expect(clock.now().toISOString()).toBe('2026-03-01T00:01:00.500Z');
    clock.setNow(new Date('2026-04-01T00:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(() => clock.setNow(new Date('2026-03-31T00:00:00Z'))).toThrow(RangeError);
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it('parses ISO 8601 durations of weeks, days and times', () => {
    expect(parseIsoDuration('PT15M')).toBe(900_000);
    expect(parseIsoDuration('P1DT2H')).toBe(93_600_000);
    expect(parseIsoDuration('P1W')).toBe(604_800_000);
    expect(parseIsoDuration('PT0.5S')).toBe(500);
    for (const bad of ['P', 'PT', '15M', 'P1M', 'P1Y', 'bogus'])
      expect(() => parseIsoDuration(bad)).toThrow(RangeError);
  });
});

describe('Scheduler', () => {
  it('fires due jobs in due order with their due instant, including jobs scheduled by fired jobs', () => {
    let now = 0;
    const s = new Scheduler(() => now);
    const fired: string[] = [];
    s.on('a', (job, at) => {
      fired.push(`${job.data.name}@${at}`);
      if (job.data.name === 'first') s.schedule('a', at + 10, { name: 'chained' });
    });
    s.schedule('a', 30, { name: 'third' });
    s.schedule('a', 5, { name: 'first' });
    s.schedule('a', 30, { name: 'fourth' });
    now = 4;
    expect(s.runDue()).toBe(0);
    now = 100;
    s.runDue();
    expect(fired).toEqual(['first@5', 'chained@15', 'third@30', 'fourth@30']);
    expect(s.pending()).toHaveLength(0);
  });

  it('round-trips through a snapshot', () => {
    const s = new Scheduler(() => 0);
    s.schedule('x', 10, { n: 1 });
    const t = new Scheduler(() => 20);
    t.restore(JSON.parse(JSON.stringify(s.snapshot())));
    const seen: unknown[] = [];
    t.on('x', (j) => seen.push(j.data.n));
    t.runDue();
    expect(seen).toEqual([1]);
  });
});

describe('Router', () => {
  const r = new Router()
    .get('/v1/payments/:id', () => ({ status: 200, body: 'one' }))
    .get('/v1/payments/corridors', () => ({ status: 200, body: 'corridors' }))
    .post('/v1/payments', () => ({ status: 201, body: 'created' }));

  it('prefers literal segments and decodes params', () => {
    const m = r.match('GET', '/v1/payments/corridors');
    expect(m !== null && 'route' in m && m.route.template).toBe('/v1/payments/corridors');
    const p = r.match('GET', '/v1/payments/pay%20x');
    expect(p !== null && 'route' in p && p.params).toEqual({ id: 'pay x' });
    expect(r.match('DELETE', '/v1/payments')).toEqual({ allow: ['POST'] });
    expect(r.match('GET', '/v2/nothing')).toBeNull();
  });

  it('answers HEAD with the GET route, and lists HEAD with GET in the allowed methods', () => {
    const head = r.match('HEAD', '/v1/payments/corridors');
    expect(head !== null && 'route' in head && head.route.method).toBe('GET');
    expect(r.match('POST', '/v1/payments/pay_1')).toEqual({ allow: ['GET', 'HEAD'] });
  });
});

describe('RateLimiter', () => {
  it('allows N per window per key, then 429 with Retry-After', () => {
    let now = 0;
    const rl = new RateLimiter({ requests: 2, windowMs: 10_000 }, () => now);
    rl.hit('a');
    rl.hit('a');
    rl.hit('b');
    let err: unknown;
    try {
      rl.hit('a');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    expect((err as ApiError).headers['retry-after']).toBe('10');
    now = 10_000;
    expect(() => rl.hit('a')).not.toThrow();
  });
});

describe('idempotency fingerprint', () => {
  it('ignores key order but not values', () => {
    expect(fingerprintOf({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprintOf({ b: { d: 3, c: 2 }, a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
  });
});

describe('parseSandboxArgs', () => {
  it('reads flags (repeatable keys with IP allowlists) and lets flags win over env', () => {
    // API keys of 16+ random characters (src/security/known-secrets.ts, kind api-key)
    const [K1, K2] = [`sk_${randomBytes(12).toString('hex')}`, `sk_${randomBytes(12).toString('hex')}`];
    const seed = join(tmpdir(), `seed-${process.pid}-${Date.now()}.json`);
    writeFileSync(seed, JSON.stringify({ customers: [], balances: { acc_1: 5 } }));
    const { options, help } = parseSandboxArgs(
      [
        '--port',
        '0',
        '--api-key',
        K1,
        `--api-key=${K2}@10.0.0.1,10.0.0.2`,
        '--webhook-url',
        'http://127.0.0.1:9/h',
        '--as-of',
        '2026-03-01T00:00:00Z',
        '--seed',
        seed,
        '--demo-data',
        '--quiet',
        '--rate-limit',
        '5/1',
      ],
      { SANDBOX_PORT: '9999', SANDBOX_HOST: '127.0.0.2' },
    );
    expect(help).toBe(false);
    expect(options.port).toBe(0);
    expect(options.host).toBe('127.0.0.2');
    expect(options.apiKeys).toEqual([{ key: K1 }, { key: K2, allowedIps: ['10.0.0.1', '10.0.0.2'] }]);
    expect(options.webhookUrls).toEqual(['http://127.0.0.1:9/h']);
    expect(options.asOf).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(options.seed).toEqual({ customers: [], balances: { acc_1: 5 } });
    expect(options.demoData).toBe(true);
    expect(options.log).toBeNull();
    expect(options.rateLimit).toEqual({ requests: 5, windowMs: 1000 });
  });

  it('reads the env equivalents', () => {
    const secret = generatedWebhookSecret();
    const [a, b] = [generatedApiKey(), generatedApiKey()];
    const { options } = parseSandboxArgs([], {
      SANDBOX_API_KEYS: `${a};${b}@127.0.0.1`,
      SANDBOX_WEBHOOK_URLS: 'http://x.test/1 http://x.test/2',
      SANDBOX_WEBHOOK_SECRET: secret,
      SANDBOX_AS_OF: '2026-08-01T00:00:00Z',
      SANDBOX_DATA_FILE: '/tmp/x.json',
      SANDBOX_DEMO_DATA: '1',
      SANDBOX_RATE_LIMIT: 'off',
    });
    expect(options.apiKeys).toEqual([{ key: a }, { key: b, allowedIps: ['127.0.0.1'] }]);
    expect(options.webhookUrls).toEqual(['http://x.test/1', 'http://x.test/2']);
    expect(options.webhookSecret).toBe(secret);
    expect(options.dataFile).toBe('/tmp/x.json');
    expect(options.demoData).toBe(true);
    expect(options.rateLimit).toBe(false);
  });

  it('reads its secrets from files (SANDBOX_*_FILE, a mounted Docker secret), never both ways, naming no value', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-secret-files-'));
    try {
      const file = (name: string, content: string) => {
        writeFileSync(join(dir, name), content, { mode: 0o600 });
        return join(dir, name);
      };
      const [key, secret, token] = [
        generatedApiKey(),
        generatedWebhookSecret(),
        randomBytes(24).toString('base64'),
      ];
      const env = {
        SANDBOX_API_KEYS_FILE: file('api-keys', `${key}\n`),
        SANDBOX_WEBHOOK_SECRET_FILE: file('webhook-secret', `${secret}\n`),
        SANDBOX_CONTROL_TOKEN_FILE: file('control-token', token),
      };
      const { options } = parseSandboxArgs([], env);
      expect(options.apiKeys).toEqual([{ key }]);
      expect(options.webhookSecret).toBe(secret);
      expect(options.controlToken).toBe(token);
      // a flag still wins over the environment, whichever way the environment gives it
      expect(parseSandboxArgs(['--control-token', `${token}x`], env).options.controlToken).toBe(`${token}x`);
      for (const [bad, pattern] of [
        [
          { ...env, SANDBOX_WEBHOOK_SECRET: secret },
          /SANDBOX_WEBHOOK_SECRET or SANDBOX_WEBHOOK_SECRET_FILE, not both/,
        ],
        [{ SANDBOX_API_KEYS_FILE: join(dir, 'missing') }, /SANDBOX_API_KEYS_FILE cannot be read \(ENOENT\)/],
        [{ SANDBOX_CONTROL_TOKEN_FILE: file('empty', '\n') }, /SANDBOX_CONTROL_TOKEN_FILE is empty/],
      ] as const) {
        expect(() => parseSandboxArgs([], bad)).toThrow(SandboxArgsError);
        expect(() => parseSandboxArgs([], bad)).toThrow(pattern);
      }
      try {
        parseSandboxArgs([], { ...env, SANDBOX_WEBHOOK_SECRET: secret });
      } catch (error) {
        expect((error as Error).message).not.toContain(secret);
      }
      // the checks of a value given directly apply to one read from a file
      expect(() => parseSandboxArgs([], { SANDBOX_WEBHOOK_SECRET_FILE: file('plain', 'plain') })).toThrow(
        /whsec_/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad input with a typed error', () => {
    for (const argv of [
      ['--port', 'x'],
      ['--nope'],
      ['--as-of', 'yesterday'],
      ['--webhook-secret', 'plain'],
      ['--port'],
      ['--seed', '/does/not/exist.json'],
    ]) {
      expect(() => parseSandboxArgs(argv, {})).toThrow(SandboxArgsError);
    }
    expect(parseSandboxArgs(['--help'], {}).help).toBe(true);
    expect(parseApiKeySpec('key')).toEqual({ key: 'key' });
  });
});
