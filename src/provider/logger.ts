// Structured request logging. The shape matches Temporal's activity logger (`log.info(message, meta)`),
// so `createProviderClient({ logger: log })` works inside an activity. The API key is never a field here.

export interface ProviderLogger {
  debug?(message: string, meta: Record<string, unknown>): void;
  info(message: string, meta: Record<string, unknown>): void;
  warn(message: string, meta: Record<string, unknown>): void;
  error(message: string, meta: Record<string, unknown>): void;
}

/** One line per request (after all retries, if retry is on), and one per call our rate budget deferred (status null). */
export interface RequestLogFields {
  method: string;
  /** Path relative to the host, without the query string, e.g. /v1/payments/pay_1. */
  path: string;
  /** HTTP status, or null when no answer arrived. */
  status: number | null;
  durationMs: number;
  idempotencyKey: string | null;
  requestId: string | null;
  retryCount: number;
  /** The ProviderError type when the call failed, else null. */
  errorType: string | null;
}

export const silentLogger: ProviderLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function logRequest(logger: ProviderLogger, fields: RequestLogFields): void {
  const message = `provider ${fields.method} ${fields.path} -> ${fields.status ?? fields.errorType ?? 'no answer'}`;
  const meta: Record<string, unknown> = { ...fields };
  if (fields.errorType === null && fields.status !== null && fields.status < 400) logger.info(message, meta);
  // deferred by our own rate budget: nothing was sent, nothing failed at the service
  else if ((fields.status !== null && fields.status < 500) || fields.errorType === 'RateBudgetError')
    logger.warn(message, meta);
  else logger.error(message, meta);
}
