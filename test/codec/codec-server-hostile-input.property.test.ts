// Hostile input at the codec server, property-based (fast-check) and bounded: bad tokens (header and path, with
// malformed %-escapes), methods, paths, malformed or huge bodies, payloads with wrong key ids, bad base64 and
// forged ciphertext. Every request gets a clear 4xx (or 200 for a well-formed authenticated one), never a 5xx or
// a crash, and the server keeps serving. Counts: 400 requests, then a round trip.
import fc from 'fast-check';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const TOKEN = 'test-token-fuzz-0123456789abcdef';
/** may /encode too (the round trip at the end); the fuzzed requests use TOKEN, a decode token, whose /encode is 403 */
const ENCODE_TOKEN = generatedToken();
const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('fuzz')));
let server: CodecServer;
const uncaught: unknown[] = [];
const onUncaught = (e: unknown) => uncaught.push(e);

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  server = await startCodecServer({
    codecs: [codec],
    tokens: [TOKEN],
    encodeTokens: [ENCODE_TOKEN],
    maxBodyBytes: 256 * 1024,
  });
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  await server?.close();
});

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '%', '%E0%A4%A', '%ZZ', '..', '__proto__', TOKEN, `${TOKEN}x`, 'Bearer'),
);
const payload = fc.oneof(
  fc.record({
    metadata: fc.dictionary(
      fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('encoding', 'encryption-key-id', '__proto__')),
      fc.oneof(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }).map(b64)),
    ),
    data: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('base64')),
    ),
  }),
  // shaped like ours: encrypted encoding, a key id that is not configured or is, and random "ciphertext"
  fc.record({
    metadata: fc.record({
      encoding: fc.constant(b64('binary/encrypted')),
      'encryption-key-id': fc.oneof(fc.string({ maxLength: 12 }), fc.constant('fuzz')).map(b64),
    }),
    data: fc.uint8Array({ maxLength: 80 }).map((a) => Buffer.from(a).toString('base64')),
  }),
);
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc.array(payload, { maxLength: 5 }).map((payloads) => JSON.stringify({ payloads })),
  fc.constantFrom(
    '{"payloads":null}',
    '{"__proto__":{"payloads":[]}}',
    `{"payloads":[${'{"data":"AA=="},'.repeat(30_000)}{"data":"AA=="}]}`,
  ),
);

it('answers 400 requests of hostile input with 200 or a clear 4xx, never 5xx or a crash, and keeps serving', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('POST', 'GET', 'PUT', 'OPTIONS', 'DELETE'),
      fc.oneof(
        fc.constantFrom('/decode', '/encode', `/${TOKEN}/decode`, '/health'),
        text.map((t) => `/${encodeURI(t).replace(/^\/+/, '')}/decode`),
        text.map((t) => `/${t.replace(/[^\x21-\x7e]/g, '')}`),
      ),
      fc.option(
        fc.oneof(
          fc.constant(`Bearer ${TOKEN}`),
          text.map((t) => `Bearer ${t}`),
          text,
        ),
        { nil: undefined },
      ),
      body,
      async (method, path, authorization, raw) => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (authorization !== undefined && /^[\x20-\x7e]*$/.test(authorization))
          headers.authorization = authorization;
        let status: number;
        try {
          const answer = await fetch(`${server.url}${path.startsWith('/') ? path : `/${path}`}`, {
            method,
            headers,
            body: method === 'GET' || method === 'OPTIONS' ? undefined : raw,
          });
          status = answer.status;
          await answer.arrayBuffer();
        } catch {
          return; // a request fetch itself refuses to send (bad URL)
        }
        expect(status === 200 || status === 204 || (status >= 400 && status < 500)).toBe(true);
        if (status === 200 && path !== '/health')
          expect(headers.authorization === `Bearer ${TOKEN}` || path.includes(TOKEN)).toBe(true);
        // TOKEN only decodes and the encode token is never sent here: nothing is ever encoded
        if (path.split('?')[0]!.endsWith('/encode')) expect(status).not.toBe(200);
      },
    ),
    { numRuns: 400 },
  );
  expect(uncaught).toEqual([]);
  // still serving: a round trip through /encode and /decode
  const plain = defaultPayloadConverter.toPayload({ still: 'serving' });
  const json = {
    payloads: [
      {
        metadata: Object.fromEntries(
          Object.entries(plain.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v!).toString('base64')]),
        ),
        data: Buffer.from(plain.data!).toString('base64'),
      },
    ],
  };
  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const encodeAuth = { ...auth, authorization: `Bearer ${ENCODE_TOKEN}` };
  const encoded = (await (
    await fetch(`${server.url}/encode`, { method: 'POST', headers: encodeAuth, body: JSON.stringify(json) })
  ).json()) as typeof json;
  const decoded = await fetch(`${server.url}/decode`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(encoded),
  });
  expect(decoded.status).toBe(200);
  expect(((await decoded.json()) as typeof json).payloads[0]!.data).toBe(json.payloads[0]!.data);
}, 120_000);

it('answers a malformed %-escape where the path token goes with 401, without throwing out of the handler', async () => {
  const answer = await fetch(`${server.url}/%E0%A4%A/decode`, { method: 'POST', body: '{}' });
  expect(answer.status).toBe(401);
  expect(uncaught).toEqual([]);
});
