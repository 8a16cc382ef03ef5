// The codec server: POST /encode and /decode as the Temporal UI and CLI call them (body and answer
// `{"payloads":[{"metadata":{"<k>":"<base64>"},"data":"<base64>"}]}`), so operators see decoded payloads where
// they are allowed to. Unlike Temporal's sample it authenticates every call: a bearer token from the
// configuration in the Authorization header (the CLI's --codec-auth, or the UI's forwarded access token when
// it is one of the tokens), or the same token as the first path segment (`/<token>/decode`) for a UI that
// cannot send a header (the Temporal UI, whose endpoint a person enters in its Codec Server settings: http://host:port/<token>). CORS answers the
// configured UI origins only. Nothing is logged but method, route and status: never bodies, never tokens.
// /encode is refused (403) unless encode tokens are configured apart from the decode tokens: what it encodes is bound to
// no workflow, and decoding is all the UI and CLI need to show payloads (docs/codec.md, "The codec server").
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { isEncryptedPayload } from './encryption-codec';
import { CodecError } from './errors';
import { secretStrengthProblem } from '../security/known-secrets';
import { isOwnHost, MISDIRECTED } from '../support/host-check';

export interface CodecServerOptions {
  /** Applied in order on /encode, in reverse on /decode (as DataConverter.payloadCodecs). */
  codecs: PayloadCodec[];
  /** Accepted bearer tokens, for /decode: at least one; there is no unauthenticated mode. They never encode. */
  tokens: string[];
  /**
   * Tokens that may POST /encode (and /decode): none by default, and then /encode answers 403. What /encode writes is
   * bound to no workflow, so only workers that admit unbound payloads read it (docs/codec.md, "The codec server").
   * Each as strong as a decode token and none equal to one.
   */
  encodeTokens?: string[];
  /** Browser origins allowed by CORS, e.g. the Temporal UI's `http://127.0.0.1:8233`. */
  allowedOrigins?: string[];
  host?: string;
  port?: number;
  /** DNS names (single labels too) the server answers besides IP literals and localhost (src/support/host-check.ts). */
  allowedHosts?: string[];
  maxBodyBytes?: number;
  /** Open connections at most (Node closes the ones over it at once). Default 64. */
  maxConnections?: number;
  /** A request's headers and body must arrive within this (slow-body connections are closed). Default 15 s. */
  bodyTimeoutMs?: number;
  /** Body bytes held by every request together; a request over it is answered 503. Default 32 MiB. */
  maxBufferedBytes?: number;
  log?: (line: string) => void;
}

export interface CodecServer {
  /** Base URL for the CLI (`--codec-endpoint`), used with `--codec-auth "Bearer <token>"`. */
  url: string;
  /** Endpoint for a UI that cannot send the header: the token is in the path (keep the URL secret). */
  uiEndpoint(token: string): string;
  close(): Promise<void>;
}

export const DEFAULT_CODEC_SERVER_PORT = 4030;
const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
// Bounds (SECURITY.md, "Codec server"): an operator's UI sends a few requests at a time, each a page of payloads.
const DEFAULT_MAX_CONNECTIONS = 64;
const DEFAULT_BODY_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
const ALLOWED_HEADERS = 'authorization, content-type, x-namespace';

// Why /encode is refused (docs/codec.md, "The codec server"): its payloads carry no workflow binding, and a worker that
// admits unbound payloads (XBORDER_CODEC_UNBOUND=admit, the default) would take one as data from xborder. Every operator
// holds a decode token, so an encoding decode token would let any of them forge an entity's signal.
const WHY_NO_ENCODE =
  'what it encodes is bound to no workflow, and a worker admitting unbound payloads (XBORDER_CODEC_UNBOUND=admit) would ' +
  'take it as data from xborder (a forged signal). Send workflows data with the xborder CLI (xborder pay, cancel, ...), ' +
  'which encodes each payload bound to its target workflow; /decode is unaffected (docs/codec.md, "The codec server")';
const ENCODE_OFF_MESSAGE = `POST /encode is off on this codec server: ${WHY_NO_ENCODE}`;
const DECODE_ONLY_MESSAGE = `this token decodes only; POST /encode takes a token of XBORDER_CODEC_SERVER_ENCODE_TOKENS, and even then ${WHY_NO_ENCODE}`;

const base64 = z.string().refine((s) => /^[A-Za-z0-9+/_-]*={0,2}$/.test(s), 'must be base64');
const PayloadsBodySchema = z.object({
  payloads: z.array(
    z.object({
      metadata: z.record(z.string(), base64).optional().nullable(),
      data: base64.optional().nullable(),
    }),
  ),
});

const toPayload = (p: z.infer<typeof PayloadsBodySchema>['payloads'][number]): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, 'base64'))]),
  ),
  data: new Uint8Array(Buffer.from(p.data ?? '', 'base64')),
});
const fromPayload = (p: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')]),
  ),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

/** A malformed %-escape is no token; decodeURIComponent would throw it out of the request handler and stop the server. */
function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison against every configured token (hashing first hides the lengths). */
function tokenMatcher(tokens: string[]): (candidate: string | undefined) => boolean {
  const digests = tokens.map(digest);
  return (candidate) => {
    if (!candidate) return false;
    const d = digest(candidate);
    return digests.reduce((ok, t) => timingSafeEqual(t, d) || ok, false);
  };
}

/** What every request of one server shares: its configuration, resolved once, and the memory budget in use. */
interface ServerState {
  options: CodecServerOptions;
  /** a decode or an encode token: may POST /decode */
  isToken: (candidate: string | undefined) => boolean;
  /** an encode token: may POST /encode too */
  isEncodeToken: (candidate: string | undefined) => boolean;
  origins: Set<string>;
  maxBytes: number;
  maxBuffered: number;
  log: (line: string) => void;
  /** body bytes held now, every request together (the memory budget) */
  buffered: number;
}

/** One request: where it goes, its credentials, and how it is answered (CORS headers on every answer). */
interface Exchange {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  origin: string | undefined;
  cors: Record<string, string>;
  segments: string[];
  route: string | undefined;
  pathToken: string | undefined;
  send: (status: number, body: unknown, extra?: Record<string, string>) => void;
  /** logs method, route and status: never the body, never a token */
  done: (status: number) => void;
}

function serverState(options: CodecServerOptions): ServerState {
  if (options.tokens.length === 0 || options.tokens.some((t) => secretStrengthProblem('token', t) !== null)) {
    throw new Error(
      'The codec server needs at least one random token of 24+ characters (XBORDER_CODEC_SERVER_TOKENS): it never runs unauthenticated.',
    );
  }
  const encodeTokens = options.encodeTokens ?? [];
  if (encodeTokens.some((t) => secretStrengthProblem('token', t) !== null)) {
    throw new Error(
      'Each codec-server encode token (XBORDER_CODEC_SERVER_ENCODE_TOKENS) is a random token of 24+ characters.',
    );
  }
  if (encodeTokens.some((t) => options.tokens.includes(t))) {
    // a decode token never encodes: every operator holds one (SECURITY.md, "Codec server")
    throw new Error(
      'A codec-server encode token (XBORDER_CODEC_SERVER_ENCODE_TOKENS) must not also be a decode token (XBORDER_CODEC_SERVER_TOKENS).',
    );
  }
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    options,
    isToken: tokenMatcher([...options.tokens, ...encodeTokens]),
    isEncodeToken: tokenMatcher(encodeTokens),
    origins: new Set(options.allowedOrigins ?? []),
    maxBytes,
    maxBuffered: Math.max(options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES, maxBytes),
    log: options.log ?? (() => undefined),
    buffered: 0,
  };
}

function exchangeOf(s: ServerState, req: http.IncomingMessage, res: http.ServerResponse): Exchange {
  const origin = req.headers.origin;
  const cors: Record<string, string> =
    origin && s.origins.has(origin)
      ? {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          vary: 'Origin',
        }
      : { vary: 'Origin' };
  const segments = (req.url ?? '/').split('?')[0]!.split('/').filter(Boolean);
  const route = segments.at(-1);
  return {
    req,
    res,
    origin,
    cors,
    segments,
    route,
    pathToken: segments.length === 2 ? decodePathSegment(segments[0]!) : undefined,
    send: (status, body, extra = {}) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
        ...cors,
        ...extra,
      });
      res.end(JSON.stringify(body));
    },
    done: (status) => s.log(`codec-server ${req.method} /${route ?? ''} ${status}`),
  };
}

export async function startCodecServer(options: CodecServerOptions): Promise<CodecServer> {
  const state = serverState(options);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  // Node checks its request timeouts every connectionsCheckingInterval (30 s by default): too coarse here.
  const server = http.createServer(
    {
      connectionsCheckingInterval: 1_000,
      requestTimeout: bodyTimeoutMs,
      headersTimeout: Math.min(bodyTimeoutMs, 10_000),
    },
    (req, res) => handleRequest(state, exchangeOf(state, req, res)),
  );
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  return listen(server, options);
}

/** Host, route, method and token, in that order; then the body is read and converted. */
function handleRequest(s: ServerState, x: Exchange): void {
  const { req, segments, route } = x;
  // DNS rebinding: a page whose domain resolves here is refused before anything else (src/support/host-check.ts).
  if (!isOwnHost(req.headers.host, { allowedHosts: s.options.allowedHosts ?? [] })) {
    x.done(MISDIRECTED.status);
    return x.send(MISDIRECTED.status, { message: MISDIRECTED.message });
  }
  if (req.method === 'GET' && segments.length === 1 && route === 'health') return x.send(200, { ok: true });
  if (!((route === 'encode' || route === 'decode') && segments.length <= 2)) {
    x.done(404);
    return x.send(404, { message: 'POST /encode or /decode' });
  }
  if (req.method === 'OPTIONS') return answerPreflight(s, x);
  if (req.method !== 'POST') {
    x.done(405);
    return x.send(405, { message: 'POST only' }, { allow: 'POST, OPTIONS' });
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  if (!s.isToken(bearer) && !s.isToken(x.pathToken)) {
    x.done(401);
    return x.send(
      401,
      { message: 'missing or invalid codec server token' },
      { 'www-authenticate': 'Bearer' },
    );
  }
  if (route === 'encode' && !s.isEncodeToken(bearer) && !s.isEncodeToken(x.pathToken)) {
    // before the body is read: nothing is encoded
    const on = (s.options.encodeTokens ?? []).length > 0;
    return refuse(x, 403, on ? DECODE_ONLY_MESSAGE : ENCODE_OFF_MESSAGE);
  }
  readBody(s, x, (raw) => answerPayloads(s.options.codecs, x, route, raw));
}

/** Preflight carries no credentials: answer it for allowed origins only. */
function answerPreflight(s: ServerState, x: Exchange): void {
  if (!x.origin || !s.origins.has(x.origin)) {
    x.done(403);
    return x.send(403, { message: 'origin not allowed' });
  }
  x.res.writeHead(204, {
    ...x.cors,
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOWED_HEADERS,
    'access-control-max-age': '600',
  });
  x.res.end();
}

/** Answers and closes the connection: the rest of the body is never read. */
function refuse(x: Exchange, status: number, message: string, extra: Record<string, string> = {}): void {
  x.done(status);
  x.send(status, { message }, { connection: 'close', ...extra });
  x.res.once('finish', () => x.req.socket.destroy());
}

/** Reads the body within the bounds (its own size, then every request's together) and hands it on whole. */
function readBody(s: ServerState, x: Exchange, then: (raw: Buffer) => void): void {
  const { req, res } = x;
  const declared =
    req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  if (declared !== undefined && declared > s.maxBytes) return refuse(x, 413, `body over ${s.maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  let held = 0;
  let reading = true;
  const release = () => {
    s.buffered -= held;
    held = 0;
  };
  res.once('close', release);
  req.on('error', () => undefined); // an aborted upload: 'close' frees its bytes
  req.on('data', (chunk: Buffer) => {
    if (!reading) return;
    size += chunk.length;
    if (size > s.maxBytes) {
      reading = false;
      return refuse(x, 413, `body over ${s.maxBytes} bytes`);
    }
    if (s.buffered + chunk.length > s.maxBuffered) {
      reading = false;
      return refuse(x, 503, 'too many payloads being decoded; retry shortly', { 'retry-after': '1' });
    }
    s.buffered += chunk.length;
    held += chunk.length;
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (reading) then(Buffer.concat(chunks));
  });
}

/** Parses the body (400 when it is not a payload list) and answers the converted payloads. */
function answerPayloads(codecs: PayloadCodec[], x: Exchange, route: 'encode' | 'decode', raw: Buffer): void {
  let body: z.infer<typeof PayloadsBodySchema>;
  try {
    const parsed = PayloadsBodySchema.safeParse(JSON.parse(raw.toString('utf8')));
    if (!parsed.success)
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    body = parsed.data;
  } catch (error) {
    x.done(400);
    return x.send(400, {
      message: `body must be {"payloads":[{"metadata":{...},"data":"<base64>"}]}: ${(error as Error).message}`,
    });
  }
  void convert(route, codecs, body.payloads.map(toPayload)).then(
    (payloads) => {
      x.done(200);
      x.send(200, { payloads: payloads.map(fromPayload) });
    },
    (error: unknown) => {
      // A payload this server cannot decrypt (unknown key id, altered bytes): say why, never what.
      const status = error instanceof CodecError ? 422 : 500;
      x.done(status);
      x.send(
        status,
        error instanceof CodecError
          ? { type: error.type, message: error.message }
          : { message: 'codec failure' },
      );
    },
  );
}

async function listen(server: http.Server, options: CodecServerOptions): Promise<CodecServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    uiEndpoint: (token) => `${url}/${encodeURIComponent(token)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * /decode shows payloads to an operator and decides nothing: a payload that is not encrypted (a search attribute the
 * UI sends along, a history from before the codec, or data someone wrote without the keys) is shown as it is,
 * while the workers refuse it. There is no workflow context here (the UI sends none): a payload bound to its
 * workflow is authenticated with the binding it carries.
 */
async function convert(
  route: 'encode' | 'decode',
  codecs: PayloadCodec[],
  payloads: Payload[],
): Promise<Payload[]> {
  let result = payloads;
  if (route === 'encode') {
    for (const codec of codecs) result = await codec.encode(result);
    return result;
  }
  const encrypted = payloads.map((p, i) => [p, i] as const).filter(([p]) => isEncryptedPayload(p));
  let decoded = encrypted.map(([p]) => p);
  for (const codec of [...codecs].reverse()) decoded = await codec.decode(decoded);
  result = [...payloads];
  encrypted.forEach(([, i], j) => (result[i] = decoded[j]!));
  return result;
}
