// What a backend runs on each outbound event it receives (docs/outbound-events.md, "Receiving"): the Standard
// Webhooks signature over the exact bytes received (the same code our ingress verifies the provider's webhooks
// with), the timestamp window (a replay days later is refused), then the body against the versioned schema.
import { verifyWebhook, type VerifyWebhookOptions, type WebhookHeaders } from '../provider/webhook-signature';
import {
  isTransferEvent,
  XborderOutboundEventSchema,
  type XborderEvent,
  type XborderOutboundEvent,
  type XborderTransferEvent,
} from '../contract/outbound-events';
import { WebhookVerificationError } from '../provider/errors';

export { WebhookVerificationError };
export { isTransferEvent };
export type {
  WebhookHeaders,
  VerifyWebhookOptions,
  XborderEvent,
  XborderOutboundEvent,
  XborderTransferEvent,
};

/**
 * Verifies and parses one delivery. `secrets`: the endpoint's signing secret, or both during a rotation (any one
 * matching is enough). Throws WebhookVerificationError (answer 400; never process the body). A valid event may
 * still be one already processed (a redelivery): dedupe on `event.id`, which is also the `webhook-id` header.
 * A payment's event or a transfer's (`isTransferEvent` tells them apart): one endpoint receives both.
 */
export function verifyXborderEvent(
  secrets: string | readonly string[],
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: VerifyWebhookOptions = {},
): XborderOutboundEvent {
  const { id } = verifyWebhook(headers, rawBody, secrets, options);
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('Event refused: the body is not JSON', {
      fields: [{ path: 'body', rule: 'json', message: 'not JSON' }],
    });
  }
  const parsed = XborderOutboundEventSchema.safeParse(json);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({
      path: i.path.join('.'),
      rule: i.code,
      message: i.message,
    }));
    throw new WebhookVerificationError('Event refused: the body does not match the event schema', { fields });
  }
  if (parsed.data.id !== id) {
    throw new WebhookVerificationError('Event refused: webhook-id and the body id differ', {
      fields: [{ path: 'id', rule: 'id', message: 'webhook-id and body id differ' }],
    });
  }
  return parsed.data;
}
