// The codec server: /decode as the Temporal UI and CLI call it (and /encode, off by default:
// codec-server-encode.test.ts), bearer-token auth (401 without it), CORS for the UI's origin only, 400 on a bad body, 422 on a payload it cannot decrypt.
import { defaultPayloadConverter } from '@temporalio/common';
import got, { type Response } from 'got';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const TOKEN = generatedToken();
const UI_ORIGIN = 'http://127.0.0.1:8233';
const codec = new EncryptionCodec(staticKeyProvider(generateCodecKeys('server-test')));
let server: CodecServer;

beforeAll(async () => {
  server = await startCodecServer({ codecs: [codec], tokens: [TOKEN], allowedOrigins: [UI_ORIGIN] });
});
afterAll(async () => {
  await server?.close();
});

const toJson = (p: { metadata?: Record<string, Uint8Array | null> | null; data?: Uint8Array | null }) => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response<string>> {
  return got.post(`${server.url}${path}`, {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers },
    throwHttpErrors: false,
  });
}

async function encryptedBody(value: unknown) {
  const [encrypted] = await codec.encode([defaultPayloadConverter.toPayload(value)]);
  return { payloads: [toJson(encrypted!)] };
}

it('decodes with the bearer token, and refuses without it or with a wrong one (401)', async () => {
  const body = await encryptedBody({ email: 'ana.silva@example.org' });
  const ok = await post('/decode', body, { authorization: `Bearer ${TOKEN}` });
  expect(ok.statusCode).toBe(200);
  const [payload] = (
    JSON.parse(ok.body) as { payloads: Array<{ metadata: Record<string, string>; data: string }> }
  ).payloads;
  expect(Buffer.from(payload!.metadata.encoding!, 'base64').toString()).toBe('json/plain');
  expect(JSON.parse(Buffer.from(payload!.data, 'base64').toString())).toEqual({
    email: 'ana.silva@example.org',
  });

  for (const headers of [
    {},
    { authorization: 'Bearer wrong-token-0123456789' },
    { authorization: TOKEN },
  ] as Array<Record<string, string>>) {
    const refused = await post('/decode', body, headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.body).not.toContain('ana.silva');
  }
});

it('takes the token as the first path segment, for a UI that cannot send a header', async () => {
  const body = await encryptedBody({ n: 1 });
  expect((await post(`/${TOKEN}/decode`, body)).statusCode).toBe(200);
  expect(server.uiEndpoint(TOKEN)).toBe(`${server.url}/${TOKEN}`);
  expect((await post('/not-the-token-0123456789/decode', body)).statusCode).toBe(401);
});

it('refuses /encode to its decode token (403, off by default), and encodes what it decodes with an encode token', async () => {
  const plain = { payloads: [toJson(defaultPayloadConverter.toPayload({ hello: 'world' }))] };
  const refused = await post('/encode', plain, { authorization: `Bearer ${TOKEN}` });
  expect(refused.statusCode).toBe(403);
  expect(refused.body).not.toContain(Buffer.from('world').toString('base64'));
  const encodeToken = generatedToken();
  const encoding = await startCodecServer({ codecs: [codec], tokens: [TOKEN], encodeTokens: [encodeToken] });
  try {
    const encoded = await got.post(`${encoding.url}/encode`, {
      body: JSON.stringify(plain),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${encodeToken}` },
      throwHttpErrors: false,
    });
    expect(encoded.statusCode).toBe(200);
    expect(encoded.body).not.toContain(Buffer.from('world').toString('base64'));
    const decoded = await post('/decode', encoded.body, { authorization: `Bearer ${TOKEN}` });
    expect(JSON.parse(decoded.body)).toEqual(plain);
  } finally {
    await encoding.close();
  }
});

it('answers the CORS preflight of the UI origin only', async () => {
  const preflight = (origin: string) =>
    got(`${server.url}/decode`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-namespace,authorization',
      },
      throwHttpErrors: false,
    });
  const allowed = await preflight(UI_ORIGIN);
  expect(allowed.statusCode).toBe(204);
  expect(allowed.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
  expect(allowed.headers['access-control-allow-headers']).toMatch(/x-namespace/);
  expect(allowed.headers['access-control-allow-headers']).toMatch(/authorization/);
  const other = await preflight('https://evil.example');
  expect(other.statusCode).toBe(403);
  expect(other.headers['access-control-allow-origin']).toBeUndefined();
  // The actual request from the UI carries the CORS header too.
  const decoded = await post('/decode', await encryptedBody({ n: 2 }), {
    origin: UI_ORIGIN,
    authorization: `Bearer ${TOKEN}`,
  });
  expect(decoded.headers['access-control-allow-origin']).toBe(UI_ORIGIN);
});

it('refuses a bad body (400) and a payload it cannot decrypt (422), without echoing data', async () => {
  const auth = { authorization: `Bearer ${TOKEN}` };
  expect((await post('/decode', 'not json', auth)).statusCode).toBe(400);
  expect((await post('/decode', { nope: [] }, auth)).statusCode).toBe(400);
  expect((await post('/decode', { payloads: [{ data: '***' }] }, auth)).statusCode).toBe(400);
  const foreign = new EncryptionCodec(staticKeyProvider(generateCodecKeys('other-key')));
  const [encrypted] = await foreign.encode([
    defaultPayloadConverter.toPayload({ secret: 'ana.silva@example.org' }),
  ]);
  const refused = await post('/decode', { payloads: [toJson(encrypted!)] }, auth);
  expect(refused.statusCode).toBe(422);
  expect(JSON.parse(refused.body)).toMatchObject({ type: 'UNKNOWN_KEY_ID' });
  expect(refused.body).not.toContain('ana.silva');
  expect((await got(`${server.url}/decode`, { throwHttpErrors: false })).statusCode).toBe(405);
});

it('never starts without a token', async () => {
  await expect(startCodecServer({ codecs: [codec], tokens: [] })).rejects.toThrow(
    /never runs unauthenticated/,
  );
  await expect(startCodecServer({ codecs: [codec], tokens: ['short'] })).rejects.toThrow(/24\+ characters/);
  await expect(startCodecServer({ codecs: [codec], tokens: ['x'.repeat(40)] })).rejects.toThrow(
    /24\+ characters/,
  );
});

it('shows a plaintext payload as it is and decodes a workflow-bound one without a context (the UI sends none)', async () => {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const plain = defaultPayloadConverter.toPayload({ searchAttribute: 'PaymentPhase' });
  const [bound] = await codec.encode([defaultPayloadConverter.toPayload({ n: 3 })], {
    type: 'workflow',
    namespace: 'default',
    workflowId: 'payment:k1',
  });
  const res = await post('/decode', { payloads: [toJson(plain), toJson(bound!)] }, auth);
  expect(res.statusCode).toBe(200);
  const [shown, decoded] = (JSON.parse(res.body) as { payloads: Array<{ data: string }> }).payloads;
  expect(shown).toEqual(toJson(plain));
  expect(JSON.parse(Buffer.from(decoded!.data, 'base64').toString())).toEqual({ n: 3 });
});

// Checked after the attacker's review (docs/codec.md, "The codec server"): /decode has no workflow context, so it does
// not check that a payload belongs where the UI shows it; it decides nothing (what it answers is shown, never handed
// to a workflow), the workers check the binding. What it does keep: the binding a payload carries is authenticated,
// so a payload relabelled as another workflow's is refused, not shown under the new label.
it('decodes a bound payload whatever history it is shown in, the worker in another workflow refuses it, and a relabelled binding fails (422)', async () => {
  const auth = { authorization: `Bearer ${TOKEN}` };
  const ofA = { type: 'workflow', namespace: 'default', workflowId: 'payment:a' } as const;
  const [bound] = await codec.encode([defaultPayloadConverter.toPayload({ n: 4 })], ofA);
  expect((await post('/decode', { payloads: [toJson(bound!)] }, auth)).statusCode).toBe(200);
  await expect(codec.decode([bound!], { ...ofA, workflowId: 'payment:b' })).rejects.toMatchObject({
    type: 'WRONG_WORKFLOW',
  });
  const relabelled = {
    ...bound!,
    metadata: {
      ...bound!.metadata,
      'encryption-context': new Uint8Array(Buffer.from(JSON.stringify(['default', 'payment:b']))),
    },
  };
  const res = await post('/decode', { payloads: [toJson(relabelled)] }, auth);
  expect(res.statusCode).toBe(422);
  expect(JSON.parse(res.body)).toMatchObject({ type: 'DECRYPT_FAILED' });
});
