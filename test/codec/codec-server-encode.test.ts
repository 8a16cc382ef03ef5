// The codec server's /encode is no forging tool (docs/codec.md, "The codec server"; SECURITY.md, "Codec server"): what it
// encodes is bound to no workflow, and workers admit unbound payloads by default (XBORDER_CODEC_UNBOUND=admit). A holder of
// a codec-server token (every operator has one, for the UI's decode) who reaches Temporal could otherwise encode an entity's
// `event` signal claiming to be a read (`from`) with a final status, and the entity would take it as the service's answer.
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import got from 'got';
import { EncryptionCodec, generateCodecKeys, staticKeyProvider } from '../../src/codec';
import { dataConverterFromEnv } from '../../src/codec/data-converter';
import { startCodecServer, type CodecServer } from '../../src/codec/server';
import { generatedToken } from '../support/secrets';

const KEYS = generateCodecKeys('encode-test');
const DECODE_TOKEN = generatedToken();
const servers: CodecServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

type JsonPayload = { metadata: Record<string, string>; data: string };
const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? []).toString('base64'),
});
const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
  ),
  data: new Uint8Array(Buffer.from(p.data, 'base64')),
});

async function serve(options: Partial<Parameters<typeof startCodecServer>[0]> = {}): Promise<CodecServer> {
  const server = await startCodecServer({
    codecs: [new EncryptionCodec(staticKeyProvider(KEYS))],
    tokens: [DECODE_TOKEN],
    ...options,
  });
  servers.push(server);
  return server;
}

const post = (server: CodecServer, path: string, body: unknown, token?: string) =>
  got.post(`${server.url}${path}`, {
    body: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    throwHttpErrors: false,
  });

/** The forgery: the providerPayment entity's `event` signal, claiming to be the reconcile sweep's read of a final status. */
const forgedSignal = {
  eventId: 'forged-1',
  type: 'payment.reconciled',
  from: 'reconcile-sweep',
  payment: { id: 'pay_forged', status: 'COMPLETED' },
};
const ENTITY = { type: 'workflow' as const, namespace: 'default', workflowId: 'provider-payment:pay_forged' };

it('a decode token on /encode gets 403 and nothing a worker reads inside a workflow (the forging path is closed)', async () => {
  const server = await serve();
  const answer = await post(
    server,
    '/encode',
    { payloads: [toJson(defaultPayloadConverter.toPayload(forgedSignal))] },
    DECODE_TOKEN,
  );
  // the worker's codec as it runs by default (XBORDER_CODEC_UNBOUND unset = admit), decoding the entity's signal
  const workerCodec = dataConverterFromEnv({ XBORDER_CODEC_KEYS: JSON.stringify(KEYS) }).payloadCodecs![0]!;
  const returned = ((JSON.parse(answer.body) as { payloads?: JsonPayload[] }).payloads ?? []).map(fromJson);
  const readByWorker = (
    await Promise.allSettled(returned.map((p) => workerCodec.decode([p], ENTITY)))
  ).filter((r) => r.status === 'fulfilled').length;
  expect({ status: answer.statusCode, returned: returned.length, readByWorker }).toEqual({
    status: 403,
    returned: 0,
    readByWorker: 0,
  });
});

it('/encode is off by default: 403 for every decode token, header or path, with a message saying why and what to use', async () => {
  const server = await serve();
  const body = { payloads: [toJson(defaultPayloadConverter.toPayload({ n: 1 }))] };
  const header = await post(server, '/encode', body, DECODE_TOKEN);
  const path = await post(server, `/${DECODE_TOKEN}/encode`, body);
  for (const answer of [header, path]) {
    expect(answer.statusCode).toBe(403);
    const { message, payloads } = JSON.parse(answer.body) as { message: string; payloads?: unknown };
    expect(payloads).toBeUndefined();
    expect(message).toMatch(/\/encode is off/);
    expect(message).toMatch(/bound to no workflow/);
    expect(message).toMatch(/xborder CLI/);
  }
  // authentication comes first: without a token it is 401, as for /decode
  expect((await post(server, '/encode', body)).statusCode).toBe(401);
  expect((await post(server, '/encode', body, generatedToken())).statusCode).toBe(401);
  expect((await post(server, '/decode', body, DECODE_TOKEN)).statusCode).toBe(200);
});

it('with encode tokens configured: an encode token encodes (header and path) and decodes; a decode token still never encodes', async () => {
  const encodeToken = generatedToken();
  const server = await serve({ encodeTokens: [encodeToken] });
  const body = { payloads: [toJson(defaultPayloadConverter.toPayload(forgedSignal))] };
  for (const answer of [
    await post(server, '/encode', body, encodeToken),
    await post(server, `/${encodeToken}/encode`, body),
  ]) {
    expect(answer.statusCode).toBe(200);
    const [encoded] = (JSON.parse(answer.body) as { payloads: JsonPayload[] }).payloads;
    // unbound: no encryption-context, so a worker under XBORDER_CODEC_UNBOUND=refuse does not read it
    expect(Object.keys(encoded!.metadata)).not.toContain('encryption-context');
    const refusing = dataConverterFromEnv({
      XBORDER_CODEC_KEYS: JSON.stringify(KEYS),
      XBORDER_CODEC_UNBOUND: 'refuse',
    }).payloadCodecs![0]!;
    await expect(refusing.decode([fromJson(encoded!)], ENTITY)).rejects.toMatchObject({ type: 'UNBOUND' });
    const decoded = await post(server, '/decode', { payloads: [encoded] }, encodeToken);
    expect(decoded.statusCode).toBe(200);
  }
  const refused = await post(server, '/encode', body, DECODE_TOKEN);
  expect(refused.statusCode).toBe(403);
  expect(JSON.parse(refused.body)).toEqual({ message: expect.stringMatching(/decodes only/) as unknown });
});

it('refuses at start an encode token that is weak or is also a decode token', async () => {
  await expect(serve({ encodeTokens: ['short'] })).rejects.toThrow(/24\+ characters/);
  await expect(serve({ encodeTokens: [DECODE_TOKEN] })).rejects.toThrow(/must not also be a decode token/);
});
