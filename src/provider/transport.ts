// The only place that talks HTTP: got, headers, timeout, optional retry, error mapping, logging, parsing.
// spec: Authentication 1 and 3 (X-Api-Key on every request; X-Idempotency-Key and JSON on creating calls).
import got, { type Got, type Response } from 'got';
import { parseJsonText } from '../contract/json';
import { errorFromResponse, type ServiceErrorInfo } from './error-mapping';
import { NetworkError, type ProviderError, ResponseShapeError, TimeoutError } from './errors';
import { logRequest, type ProviderLogger } from './logger';
import { toResponseShapeError } from './response-shape';
import { type RateBudget, jitteredRetryAfter } from './rate-budget';
import { parseRetryAfter } from './retry-after';
import { injectTraceContext, noteOnProviderSpan, withProviderSpan } from './tracing';

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export interface RetryOptions {
  /** Attempts after the first. 0 (the default) means no retry: Temporal retries the activity instead. */
  limit: number;
  /** Longest Retry-After to honour; a longer one ends the retries. Default: 60 s. */
  maxRetryAfterMs?: number;
}

export interface TransportOptions {
  /** `{base_url}/v1`, from resolveApiBase. */
  apiBase: string;
  apiKey: string;
  timeoutMs: number;
  userAgent: string;
  logger: ProviderLogger;
  retry: RetryOptions;
  /** Reads the service's error body (the contract's ErrorBodySchema); undefined when it does not fit. */
  readErrorBody: (json: unknown) => ServiceErrorInfo | undefined;
  /** Header carrying the service's request id. */
  requestIdHeader: string;
  now: () => Date;
  /** The key's rate budget (src/provider/rate-budget.ts): one slot per HTTP call, repeats by got included. */
  budget?: RateBudget;
}

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** Relative to `{base_url}/v1`, starting with a slash; path parameters already encoded. */
  path: string;
  query?: Query;
  body?: unknown;
  /** Required by the caller's types on every creating call; sent as X-Idempotency-Key. */
  idempotencyKey?: string;
  /** Parses the JSON answer of a 2xx (zod + normalisation); anything it throws becomes a ResponseShapeError. */
  parse: (json: unknown) => T;
}

export interface Transport {
  request<T>(spec: RequestSpec<T>): Promise<T>;
}

const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504];

export function createTransport(opts: TransportOptions): Transport {
  const apiPath = new URL(opts.apiBase).pathname.replace(/\/+$/, '');
  const http = createGot(opts);

  async function send<T>(spec: RequestSpec<T>): Promise<T> {
    const fullPath = apiPath + spec.path;
    const call = new CallLog(opts.logger, spec, fullPath);
    // one slot of the key's budget per call; none spare soon enough: nothing is sent (RateBudgetError, retryable)
    if (opts.budget) {
      try {
        await opts.budget.take({ method: spec.method, path: fullPath });
      } catch (error) {
        call.finish((error as ProviderError).type ?? 'RateBudgetError');
        throw error;
      }
    }
    const response = await sendOnce(http, opts, spec, call);
    return readAnswer(opts, spec, response, call);
  }

  return {
    request<T>(spec: RequestSpec<T>): Promise<T> {
      return withProviderSpan(spec.method, apiPath + spec.path, () => send(spec));
    },
  };
}

/** got, set up once per transport: headers, timeout, no redirects, answers read as text, optional retry. */
function createGot(opts: TransportOptions): Got {
  return got.extend({
    prefixUrl: opts.apiBase,
    headers: {
      'x-api-key': opts.apiKey,
      accept: 'application/json',
      'user-agent': opts.userAgent,
    },
    timeout: opts.timeoutMs,
    throwHttpErrors: false,
    responseType: 'text',
    followRedirect: false,
    // the trace context of the call's span (a no-op while tracing is off)
    hooks: {
      beforeRequest: [injectTraceContext],
      // got's own repeat of a call (retry.limit > 0) is an HTTP call too: it takes its slot of the budget
      beforeRetry: opts.budget ? [async () => opts.budget?.take()] : [],
    },
    retry:
      opts.retry.limit > 0
        ? {
            limit: opts.retry.limit,
            // POSTs are retried too: every creating call carries an idempotency key, so a repeat is safe.
            methods: ['GET', 'POST'],
            statusCodes: RETRY_STATUS_CODES,
            maxRetryAfter: opts.retry.maxRetryAfterMs ?? 60_000,
            // a Retry-After is honoured with jitter, never exactly (every worker that heard it would return at once)
            calculateDelay: ({ computedValue, retryAfter }) =>
              computedValue > 0 && retryAfter !== undefined
                ? jitteredRetryAfter(computedValue)
                : computedValue,
          }
        : { limit: 0 },
  });
}

/** One call as logged and noted on its span when it ends: its status, the service's request id, got's repeats. */
class CallLog {
  status: number | null = null;
  requestId: string | undefined;
  retryCount = 0;
  private readonly started = Date.now();

  constructor(
    private readonly logger: ProviderLogger,
    private readonly spec: Pick<RequestSpec<unknown>, 'method' | 'idempotencyKey'>,
    readonly path: string,
  ) {}

  finish(errorType: string | null): void {
    const { status, requestId, retryCount } = this;
    noteOnProviderSpan({
      ...(status !== null ? { 'http.response.status_code': status } : {}),
      ...(requestId ? { 'xborder.provider.request_id': requestId } : {}),
      ...(retryCount > 0 ? { 'http.request.resend_count': retryCount } : {}),
      ...(errorType ? { 'error.type': errorType } : {}),
    });
    logRequest(this.logger, {
      method: this.spec.method,
      path: this.path,
      status,
      durationMs: Date.now() - this.started,
      idempotencyKey: this.spec.idempotencyKey ?? null,
      requestId: requestId ?? null,
      retryCount,
      errorType,
    });
  }
}

/** The request on the wire (got's own repeats included); no answer at all becomes a typed transport error. */
async function sendOnce<T>(
  http: Got,
  opts: TransportOptions,
  spec: RequestSpec<T>,
  call: CallLog,
): Promise<Response<string>> {
  const headers: Record<string, string> = {};
  if (spec.idempotencyKey !== undefined) headers['x-idempotency-key'] = spec.idempotencyKey;
  if (spec.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await http(spec.path.replace(/^\/+/, ''), {
      method: spec.method,
      headers,
      searchParams: toSearchParams(spec.query),
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    });
  } catch (thrown) {
    // got's own repeats of this call before it gave up (a scalar: nothing else of got's error is kept)
    const repeats = (thrown as { request?: { retryCount?: unknown } } | null)?.request?.retryCount;
    call.retryCount = typeof repeats === 'number' ? repeats : 0;
    const error = transportFailure(thrown, {
      method: spec.method,
      path: call.path,
      isCreatingCall: spec.method === 'POST',
      timeoutMs: opts.timeoutMs,
      retryCount: call.retryCount,
    });
    call.finish(error.type);
    throw error;
  }
}

/** The answer: a 2xx parsed by the spec's parser, else the service's error, typed. */
function readAnswer<T>(
  opts: TransportOptions,
  spec: RequestSpec<T>,
  response: Response<string>,
  call: CallLog,
): T {
  const fullPath = call.path;
  const status = response.statusCode;
  call.status = status;
  call.retryCount = response.retryCount;
  call.requestId = headerValue(response.headers[opts.requestIdHeader.toLowerCase()]);
  const json = parseJson(response.body);

  if (status < 200 || status >= 300) {
    const info = json.ok ? opts.readErrorBody(json.value) : undefined;
    call.requestId = info?.requestId ?? call.requestId;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after'], opts.now());
    // spec: Limits. A 429 stops every call of this process sharing the key, not only this one's next attempt
    // (no Retry-After: one second, the shortest wait the header can say).
    if (status === 429) opts.budget?.pause(retryAfterMs ?? 1000);
    const error = errorFromResponse(
      {
        method: spec.method,
        path: fullPath,
        status,
        isCreatingCall: spec.method === 'POST',
        retryAfterMs,
        headerRequestId: call.requestId,
        retryCount: call.retryCount,
      },
      info ?? {},
    );
    call.finish(error.type);
    throw error;
  }

  const ctx = { method: spec.method, path: fullPath, status, requestId: call.requestId };
  if (!json.ok) {
    const error = new ResponseShapeError(`The answer to ${spec.method} ${fullPath} is not JSON`, {
      ...ctx,
      fields: [{ path: '(body)', rule: 'json', message: 'expected a JSON body' }],
    });
    call.finish(error.type);
    throw error;
  }
  try {
    const parsed = spec.parse(json.value);
    call.finish(null);
    return parsed;
  } catch (thrown) {
    const error = toResponseShapeError(thrown, ctx);
    call.finish(error.type);
    throw error;
  }
}

function toSearchParams(query: Query | undefined): URLSearchParams | undefined {
  if (!query) return undefined;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, String(value));
  }
  return params;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: parseJsonText(text) };
  } catch {
    return { ok: false };
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A request that got no HTTP answer. Only scalars are copied from got's error: it holds the request options,
 * headers included, and must never be attached to what we throw.
 */
function transportFailure(
  thrown: unknown,
  ctx: { method: string; path: string; isCreatingCall: boolean; timeoutMs: number; retryCount: number },
): ProviderError {
  const name = thrown instanceof Error ? thrown.name : '';
  const code =
    typeof (thrown as { code?: unknown })?.code === 'string' ? (thrown as { code: string }).code : undefined;
  const unknownOutcome = ctx.isCreatingCall
    ? '; the outcome is unknown: repeat the call with the same idempotency key'
    : '';
  const details = {
    method: ctx.method,
    path: ctx.path,
    outcomeUnknown: ctx.isCreatingCall,
    retryCount: ctx.retryCount,
  };
  if (name === 'TimeoutError' || code === 'ETIMEDOUT') {
    return new TimeoutError(
      `${ctx.method} ${ctx.path} got no answer within ${ctx.timeoutMs} ms${unknownOutcome}`,
      {
        ...details,
        timeoutMs: ctx.timeoutMs,
      },
    );
  }
  return new NetworkError(
    `${ctx.method} ${ctx.path} failed on the network (${code || name || 'error'})${unknownOutcome}`,
    {
      ...details,
      networkCode: code,
    },
  );
}
