import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type SandboxCore } from '../core';
import { type Fault } from '../faults';
import { ApiError } from './api-error';
import { authenticate, authenticateControl } from './auth';
import { readJsonBody } from './body';
import { type Reply, type RequestContext, type RouteMatch, type Router } from './router';

export interface ServerRules {
  /** spec: Authentication 5 — IP whitelist enforced from 2026-03-30. */
  enforceAllowlist: (asOf: Date) => boolean;
  /** spec: Limits — rate limit enforced from 2026-03-15. */
  enforceRateLimit: (asOf: Date) => boolean;
}

const DROP = Symbol('drop');

/**
 * The request pipeline of the sandbox. `/v1/*`: route → auth (401/403) → rate limit (429) → faults → body
 * (413/400) → idempotency (creating calls) → handler → afterCommit faults. Anything else is the control
 * API and /openapi.json: the control token (auth.ts, authenticateControl) before anything but health and OpenAPI.
 */
export function createRequestListener(core: SandboxCore, api: Router, control: Router, rules: ServerRules) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const requestId = `req_${randomBytes(9).toString('base64url')}`;
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const isApi = url.pathname === '/v1' || url.pathname.startsWith('/v1/');
    const work = isApi
      ? handleApi(core, api, rules, req, url, requestId)
      : handleControl(core, control, req, url, requestId);
    work
      .catch((err: unknown) => errorReply(err, requestId))
      .then((reply) => {
        if (reply === DROP) {
          req.socket.destroy();
          log(core, req, url, 'dropped', started);
          return;
        }
        send(res, reply, requestId);
        log(core, req, url, String(reply.status), started);
      })
      .catch((err: unknown) => {
        console.error('[sandbox] response failed:', err);
        res.destroy();
      });
  };
}

async function handleApi(
  core: SandboxCore,
  api: Router,
  rules: ServerRules,
  req: IncomingMessage,
  url: URL,
  requestId: string,
): Promise<Reply | typeof DROP> {
  core.scheduler.runDue(); // reads see every transition that is due by the clock
  const method = req.method ?? 'GET';
  const match = api.match(method, url.pathname);
  const asOf = core.now();
  const apiKey = authenticate(req, core.options.apiKeys, rules.enforceAllowlist(asOf));
  if (core.rateLimiter && rules.enforceRateLimit(asOf)) core.rateLimiter.hit(apiKey);
  const { route, params } = routeOrThrow(match, method, url.pathname);

  const faults = core.faults.pick(method, route.template, url.pathname);
  const latency = faults.reduce((ms, f) => ms + (f.latencyMs ?? 0), 0);
  if (latency > 0) await sleep(latency);
  const before = faults.find((f) => !f.afterCommit && f.kind !== 'latency');
  if (before) return faultReply(before, requestId);

  const body =
    method === 'GET' || method === 'HEAD' || method === 'DELETE'
      ? { json: undefined }
      : await readJsonBody(req, core.options.maxBodyBytes);
  const ctx: RequestContext = {
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    body: body.json,
    req,
    requestId,
    apiKey,
  };
  const execute = async (): Promise<Reply> => {
    try {
      return await route.handler(ctx);
    } catch (err) {
      return errorReply(err, requestId);
    }
  };

  let reply: Reply;
  const header = req.headers['x-idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (route.idempotent === 'optional' && key === undefined) reply = await execute();
  else if (route.idempotent) {
    if (!key) {
      throw new ApiError(400, 'IDEMPOTENCY_KEY_REQUIRED', 'Creating calls need an X-Idempotency-Key header', [
        {
          path: 'X-Idempotency-Key',
          rule: 'idempotency.required',
          message: 'Send a unique X-Idempotency-Key per record you create',
        },
      ]);
    }
    reply = await core.idempotency.run(`${apiKey}|${method} ${route.template}`, key, body.json, execute);
  } else reply = await execute();
  if (method !== 'GET' && method !== 'HEAD') core.saver.saveSoon();

  const after = faults.find((f) => f.afterCommit && f.kind !== 'latency');
  if (after) return faultReply(after, requestId);
  return reply;
}

async function handleControl(
  core: SandboxCore,
  control: Router,
  req: IncomingMessage,
  url: URL,
  requestId: string,
): Promise<Reply> {
  const method = req.method ?? 'GET';
  const { route, params } = routeOrThrow(control.match(method, url.pathname), method, url.pathname);
  authenticateControl(req, method, url.pathname, core.options.controlToken);
  const readOnly = method === 'GET' || method === 'HEAD';
  const body = readOnly ? { json: undefined } : await readJsonBody(req, core.options.maxBodyBytes);
  const reply = await route.handler({
    method,
    path: url.pathname,
    params,
    query: url.searchParams,
    body: body.json,
    req,
    requestId,
    apiKey: null,
  });
  if (!readOnly) core.saver.saveSoon();
  return reply;
}

/** 404 for an unknown path; 405 with `Allow` (RFC 9110 §15.5.6) for a known path with another method. */
function routeOrThrow(match: ReturnType<Router['match']>, method: string, path: string): RouteMatch {
  if (match === null) throw new ApiError(404, 'NOT_FOUND', `No endpoint ${method} ${path}`);
  if ('allow' in match) {
    throw new ApiError(
      405,
      'METHOD_NOT_ALLOWED',
      `${method} is not supported on ${path}: use ${match.allow.join(', ')}`,
      [],
      { allow: match.allow.join(', ') },
    );
  }
  return match;
}

function faultReply(fault: Fault, requestId: string): Reply | typeof DROP {
  if (fault.kind === 'connectionDrop') return DROP;
  const status = fault.status ?? 500;
  const code =
    status === 429
      ? 'RATE_LIMITED'
      : status === 503
        ? 'SERVICE_UNAVAILABLE'
        : status >= 500
          ? 'INTERNAL_ERROR'
          : 'VALIDATION_ERROR';
  const reply = errorReply(new ApiError(status, code, `Injected fault ${fault.id}`), requestId);
  if (status === 429 || status === 503) reply.headers = { ...reply.headers, 'retry-after': '1' };
  return reply;
}

export function errorReply(err: unknown, requestId: string): Reply {
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: { error: { code: err.code, message: err.message, requestId, fields: err.fields } },
      headers: err.headers,
    };
  }
  console.error('[sandbox] unexpected error:', err);
  return {
    status: 500,
    body: { error: { code: 'INTERNAL_ERROR', message: 'Unexpected sandbox error', requestId, fields: [] } },
  };
}

function send(res: ServerResponse, reply: Reply, requestId: string): void {
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-request-id': requestId,
    ...reply.headers,
  });
  res.end(payload);
}

function log(core: SandboxCore, req: IncomingMessage, url: URL, status: string, started: number): void {
  if (!core.options.log) return;
  core.options.log(
    `${core.nowIso()} ${req.method ?? '?'} ${url.pathname}${url.search} ${status} ${(performance.now() - started).toFixed(1)}ms`,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
