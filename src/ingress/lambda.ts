// AWS-Lambda-style adapter (API Gateway / Function URL proxy event) of the webhook handler.
import type { WebhookHandler } from './handler';

export interface LambdaProxyEvent {
  headers?: Record<string, string | undefined> | null;
  body?: string | null;
  isBase64Encoded?: boolean;
}

export interface LambdaProxyResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export function toLambdaHandler(
  handler: WebhookHandler,
): (event: LambdaProxyEvent) => Promise<LambdaProxyResult> {
  return async (event) => {
    // Header names are case-insensitive; Lambda keeps the sender's case.
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(event.headers ?? {}))
      if (value !== undefined) headers[name.toLowerCase()] = value;
    const raw = event.body ?? '';
    const body = event.isBase64Encoded ? Buffer.from(raw, 'base64') : raw;
    const result = await handler(headers, body);
    return {
      statusCode: result.status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(result.body),
    };
  };
}
