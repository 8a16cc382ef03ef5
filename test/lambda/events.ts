// Lambda HTTP events as AWS sends them (trimmed to the fields AWS documents for each payload format), around a
// signed webhook: API Gateway REST API (payload v1), HTTP API (payload v2) and a Function URL.
import { randomBytes } from 'node:crypto';
import { signWebhook } from '../../src/provider/webhook-signature';

export const TEST_SECRET = `whsec_${randomBytes(24).toString('base64')}`;

export interface SignedWebhook {
  headers: Record<string, string>;
  raw: string;
  eventId: string;
}

export function signedPaymentEvent(providerPaymentId: string, secret = TEST_SECRET): SignedWebhook {
  const eventId = `evt_${randomBytes(6).toString('hex')}`;
  const raw = JSON.stringify({
    id: eventId,
    type: 'payment.updated',
    createdAt: new Date().toISOString(),
    data: { id: providerPaymentId, status: 'PENDING' },
  });
  const id = `msg_${randomBytes(6).toString('hex')}`;
  const at = Math.floor(Date.now() / 1000);
  // Senders' own header case: Lambda keeps it in v1 events.
  return {
    headers: {
      'Webhook-Id': id,
      'Webhook-Timestamp': String(at),
      'Webhook-Signature': signWebhook(secret, id, at, raw),
    },
    raw,
    eventId,
  };
}

export type EventKind = 'apiGatewayV1' | 'apiGatewayV2' | 'functionUrl';

function body(raw: string, base64: boolean) {
  return { body: base64 ? Buffer.from(raw).toString('base64') : raw, isBase64Encoded: base64 };
}

export function lambdaEvent(
  kind: EventKind,
  webhook: SignedWebhook,
  options: { base64?: boolean; method?: string } = {},
): unknown {
  const method = options.method ?? 'POST';
  const base64 = options.base64 ?? false;
  if (kind === 'apiGatewayV1') {
    return {
      resource: '/webhooks',
      path: '/webhooks',
      httpMethod: method,
      headers: { 'Content-Type': 'application/json', ...webhook.headers },
      multiValueHeaders: Object.fromEntries(
        Object.entries({ 'Content-Type': 'application/json', ...webhook.headers }).map(([k, v]) => [k, [v]]),
      ),
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      requestContext: {
        resourcePath: '/webhooks',
        httpMethod: method,
        path: '/prod/webhooks',
        stage: 'prod',
        requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      },
      ...body(webhook.raw, base64),
    };
  }
  // v2 and Function URLs: lower-case header names, the method under requestContext.http.
  const headers = Object.fromEntries(
    Object.entries({ 'content-type': 'application/json', ...webhook.headers }).map(([k, v]) => [
      k.toLowerCase(),
      v,
    ]),
  );
  return {
    version: '2.0',
    routeKey: kind === 'functionUrl' ? '$default' : 'POST /webhooks',
    rawPath: kind === 'functionUrl' ? '/' : '/webhooks',
    rawQueryString: '',
    headers,
    requestContext: {
      ...(kind === 'functionUrl'
        ? { domainName: 'abcdefg.lambda-url.eu-west-1.on.aws', apiId: 'abcdefg' }
        : { domainName: 'id.execute-api.eu-west-1.amazonaws.com', apiId: 'api-id', stage: '$default' }),
      http: {
        method,
        path: kind === 'functionUrl' ? '/' : '/webhooks',
        protocol: 'HTTP/1.1',
        sourceIp: '192.0.2.1',
        userAgent: 'webhooks',
      },
      requestId: 'id',
      routeKey: kind === 'functionUrl' ? '$default' : 'POST /webhooks',
      timeEpoch: Date.now(),
    },
    ...body(webhook.raw, base64),
  };
}
