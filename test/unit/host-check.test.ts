// DNS rebinding (SECURITY.md, "Local servers and DNS rebinding"): the codec server and the sandbox answer only their
// own Host names. A page on an attacker's domain resolved to 127.0.0.1 sends that domain as Host: refused with 421
// before any route, token or body is looked at. IP literals, localhost, *.localhost and the names an operator lists
// are answered. A single-label name is not, unless listed (found in the attacker's review: a page on `http://wpad/` or
// any dotless name an attacker answers by LLMNR, mDNS or a search domain rebinds as well as a dotted one; a
// container's service name, `sandbox`, is listed where compose uses it). Property part: 2,000 dotted names and
// 2,000 single labels, all refused unless listed.
import fc from 'fast-check';
import http from 'node:http';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { isOwnHost } from '../../src/support/host-check';
import { generatedToken } from '../support/secrets';

const TOKEN = generatedToken();
let codec: CodecServer;
let sandbox: RunningSandbox;
beforeAll(async () => {
  codec = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(generateCodecKeys('host')))],
    tokens: [TOKEN],
    allowedHosts: ['codec.ops.example', 'codec-server'],
  });
  sandbox = await startSandbox({ port: 0, log: null, allowedHosts: ['sandbox'] });
});
afterAll(async () => {
  await codec?.close();
  await sandbox?.close();
});

/** A request with this exact Host header (fetch does not let a caller set Host). */
function request(
  base: string,
  path: string,
  host: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: string,
): Promise<number> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers: { ...headers, host } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it('the codec server refuses a rebinding page’s Host (421) even with the right token, and answers its own names', async () => {
  const decode = (host: string) =>
    request(
      codec.url,
      `/${TOKEN}/decode`,
      host,
      'POST',
      { 'content-type': 'application/json' },
      '{"payloads":[]}',
    );
  const port = new URL(codec.url).port;
  for (const evil of [
    `evil.example:${port}`,
    `127.0.0.1.nip.io:${port}`,
    `localhost.evil.example:${port}`,
    'attacker.test',
    `wpad:${port}`,
    `codec-server-2:${port}`,
    'intranet',
  ])
    expect({ evil, status: await decode(evil) }).toEqual({ evil, status: 421 });
  for (const own of [
    `127.0.0.1:${port}`,
    `localhost:${port}`,
    `[::1]:${port}`,
    `codec-server:${port}`,
    `codec.ops.example:${port}`,
  ])
    expect({ own, status: await decode(own) }).toEqual({ own, status: 200 });
});

it('the sandbox refuses a rebinding page’s Host (421) on the API and the control routes, and answers its own names', async () => {
  const port = new URL(sandbox.url).port;
  for (const path of ['/openapi.json', '/sandbox/health', '/v1/customers']) {
    expect(
      await request(sandbox.url, path, `evil.example:${port}`, 'GET', { 'x-api-key': sandbox.apiKey }),
    ).toBe(421);
  }
  expect(await request(sandbox.url, '/sandbox/health', `127.0.0.1:${port}`)).toBe(200);
  expect(await request(sandbox.url, '/sandbox/health', `sandbox:${port}`)).toBe(200);
  // a single label it was not given: a rebinding page on a dotless name
  expect(await request(sandbox.url, '/sandbox/health', `wpad:${port}`)).toBe(421);
  expect(
    await request(sandbox.url, '/v1/customers', `intranet:${port}`, 'GET', { 'x-api-key': sandbox.apiKey }),
  ).toBe(421);
});

it('isOwnHost: every single-label name but localhost is refused unless listed (2,000 cases)', () => {
  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);
  fc.assert(
    fc.property(
      label,
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.boolean(),
      (name, port, upper) => {
        fc.pre(name !== 'localhost');
        const host = `${upper ? name.toUpperCase() : name}${port === undefined ? '' : `:${port}`}`;
        expect(isOwnHost(host)).toBe(false);
        expect(isOwnHost(host, { allowedHosts: [name] })).toBe(true);
        expect(isOwnHost(host, { allowedHosts: [`${name}x`] })).toBe(false);
      },
    ),
    { numRuns: 2_000 },
  );
});

it('isOwnHost: every dotted DNS name that is not localhost or listed is refused (2,000 cases); literals and localhost pass', () => {
  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/);
  fc.assert(
    fc.property(
      fc.array(label, { minLength: 2, maxLength: 4 }),
      fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
      fc.boolean(),
      (labels, port, upper) => {
        const name = labels.join('.');
        fc.pre(labels.at(-1) !== 'localhost' && !/^[\d.]+$/.test(name));
        const host = `${upper ? name.toUpperCase() : name}${port === undefined ? '' : `:${port}`}`;
        expect(isOwnHost(host)).toBe(false);
        expect(isOwnHost(host, { allowedHosts: [name] })).toBe(true);
      },
    ),
    { numRuns: 2_000 },
  );
  for (const own of [
    '127.0.0.1',
    '127.0.0.1:4030',
    '[::1]:4030',
    'localhost',
    'LOCALHOST:1',
    'app.localhost:8233',
    '10.0.0.7:80',
  ])
    expect({ own, ok: isOwnHost(own) }).toEqual({ own, ok: true });
  for (const bad of [
    undefined,
    '',
    'evil.example',
    'evil.example.:80',
    '[::1',
    'a b',
    'localhost:abc',
    '127.0.0.1.nip.io',
    'sandbox:4010',
    'wpad',
  ])
    expect({ bad, ok: isOwnHost(bad) }).toEqual({ bad, ok: false });
});

describe('the sandbox compares API keys in constant time', () => {
  it('findApiKey: the key equal to the candidate, never a prefix, a suffix or another case; no `===` on keys in auth.ts', async () => {
    const { findApiKey } = await import('../../src/sandbox/http/auth');
    const keys = [{ key: 'sk_aaaaaaaaaaaaaaaa' }, { key: 'sk_bbbbbbbbbbbbbbbb', allowedIps: ['10.0.0.1'] }];
    expect(findApiKey(keys, 'sk_bbbbbbbbbbbbbbbb')).toBe(keys[1]);
    for (const wrong of ['sk_bbbbbbbbbbbbbbb', 'sk_bbbbbbbbbbbbbbbbb', 'SK_BBBBBBBBBBBBBBBB', '', 'sk_'])
      expect(findApiKey(keys, wrong)).toBeUndefined();
    const source = (await import('node:fs')).readFileSync(
      require.resolve('../../src/sandbox/http/auth'),
      'utf8',
    );
    expect(source).not.toMatch(/\.key\s*===|===\s*key\b/);
  });
});
