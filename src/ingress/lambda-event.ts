// The HTTP events a Lambda webhook ingress receives: API Gateway REST (payload v1), API Gateway HTTP API
// (payload v2) and a Lambda Function URL (same shape as v2). Read leniently (zod, passthrough): only the
// fields the ingress uses are checked; everything else AWS adds is ignored.
import { z } from 'zod';
import type { LambdaProxyEvent } from './lambda';

const HeadersSchema = z.record(z.string(), z.string().optional()).nullish();

const ProxyEventSchema = z.looseObject({
  /** '2.0' for API Gateway HTTP APIs and Function URLs; '1.0' or absent for REST APIs. */
  version: z.string().optional(),
  headers: HeadersSchema,
  body: z.string().nullish(),
  isBase64Encoded: z.boolean().optional(),
  /** payload v1 */
  httpMethod: z.string().optional(),
  requestContext: z
    .looseObject({ http: z.looseObject({ method: z.string().optional() }).optional() })
    .nullish(),
});

export type LambdaHttpEvent = LambdaProxyEvent & { method: string };

/** The parts of the event the webhook handler needs, or null when the event is no HTTP proxy event at all. */
export function readLambdaHttpEvent(event: unknown): LambdaHttpEvent | null {
  const parsed = ProxyEventSchema.safeParse(event);
  if (!parsed.success) return null;
  const e = parsed.data;
  // Every HTTP event carries its method (v1: httpMethod; v2 and Function URL: requestContext.http.method).
  const method = e.httpMethod ?? e.requestContext?.http?.method;
  if (!method) return null;
  return {
    headers: e.headers ?? {},
    body: e.body ?? null,
    isBase64Encoded: e.isBase64Encoded ?? false,
    method: method.toUpperCase(),
  };
}
