import { z } from 'zod';
import { Timestamp } from './primitives';

// spec: Events 5 — "The complete list of event names: not shown. … the event envelope: not shown."
// Our wire decision (docs/spec-gaps.md, Wire decisions).
export const WEBHOOK_EVENT_TYPES = [
  'payment.created',
  'payment.updated',
  'account.created',
  'customer.created',
  'customer.updated',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
// spec: Events 3 — replaced by payment.created for PAYIN payments.
export const LEGACY_WEBHOOK_EVENT_TYPES = ['account.deposit'] as const;
export const PAYMENT_EVENT_TYPES = ['payment.created', 'payment.updated'] as const;

/**
 * Envelope of every webhook. `type` is a string, not the enum, so an event name we do not know yet
 * still parses (the ingress logs and acknowledges it). `data` is kept raw: payment events carry the
 * payment object in whichever shape the date gives (current or transitional); run normalizePayment.
 */
export const WebhookEventSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().min(1),
  createdAt: Timestamp,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export function isPaymentEventType(type: string): type is (typeof PAYMENT_EVENT_TYPES)[number] {
  return (PAYMENT_EVENT_TYPES as readonly string[]).includes(type);
}
