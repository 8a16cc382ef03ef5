// Maps an HTTP error answer to the client's error classes.
// spec: Errors (status codes and body shape are "not shown"; our decision is in docs/spec-gaps.md).
import {
  AuthError,
  IdempotencyConflictError,
  NotFoundError,
  type FieldIssue,
  type ProviderError,
  type ProviderErrorDetails,
  RateLimitedError,
  RequestRefusedError,
  ServerError,
  ValidationError,
} from './errors';

/** What the service said about the error, already read from its body (all optional: bodies may be absent). */
export interface ServiceErrorInfo {
  code?: string;
  message?: string;
  requestId?: string;
  fields?: FieldIssue[];
}

export interface HttpErrorContext {
  method: string;
  path: string;
  status: number;
  isCreatingCall: boolean;
  retryAfterMs?: number;
  /** Request id from the response header, used when the body has none. */
  headerRequestId?: string;
  /** the transport's repeats of this call before this answer */
  retryCount?: number;
}

export function errorFromResponse(ctx: HttpErrorContext, info: ServiceErrorInfo): ProviderError {
  const details: ProviderErrorDetails = {
    status: ctx.status,
    code: info.code,
    fields: info.fields ?? [],
    requestId: info.requestId ?? ctx.headerRequestId,
    method: ctx.method,
    path: ctx.path,
    retryAfterMs: ctx.retryAfterMs,
    retryCount: ctx.retryCount,
  };
  const where = `${ctx.method} ${ctx.path}`;
  const said = info.message ? `: ${info.message}` : '';
  const codeText = info.code ? ` ${info.code}` : '';
  const fieldText = describeFields(info.fields);
  const { status } = ctx;

  if (status === 400 || status === 422 || status === 413) {
    return new ValidationError(
      `${where} was refused as invalid (${status}${codeText})${said}${fieldText}`,
      details,
    );
  }
  if (status === 401) {
    return new AuthError(
      `${where} was not authenticated (401${codeText})${said}; check the API key (X-Api-Key)`,
      details,
    );
  }
  if (status === 403) {
    // spec: Authentication 5 (IP allowlist per key, enforced from 2026-03-30)
    return new AuthError(
      `${where} was forbidden (403${codeText})${said}; the key may be restricted by its IP allowlist: ` +
        `the sending server's address must be listed for this key in the dashboard`,
      details,
    );
  }
  if (status === 404 || status === 410) {
    return new NotFoundError(`${where} found nothing (${status}${codeText})${said}`, details);
  }
  if (status === 409) {
    return new IdempotencyConflictError(
      `${where} conflicts (409${codeText})${said}; the idempotency key was already used with a different body: ` +
        `resend the original body or use a new key`,
      details,
    );
  }
  if (status === 429) {
    const wait =
      ctx.retryAfterMs === undefined ? 'no Retry-After given' : `retry after ${ctx.retryAfterMs} ms`;
    return new RateLimitedError(`${where} was rate limited (429${codeText}); ${wait}`, details);
  }
  if (status >= 500) {
    // A 5xx on a creating call may come after the service committed (e.g. a crash before answering).
    return new ServerError(`${where} failed on the service (${status}${codeText})${said}`, {
      ...details,
      outcomeUnknown: ctx.isCreatingCall,
    });
  }
  return new RequestRefusedError(`${where} was refused (${status}${codeText})${said}${fieldText}`, details);
}

function describeFields(fields: FieldIssue[] | undefined): string {
  if (!fields || fields.length === 0) return '';
  return ' [' + fields.map((f) => `${f.path}: ${f.message}`).join('; ') + ']';
}
