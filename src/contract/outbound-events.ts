// The events xborder sends to a backend's endpoint (outbound events, docs/outbound-events.md): one versioned
// schema, the receiver's contract. Bodies carry ids, amounts, currencies, statuses and codes only — never a
// name, address, account holder or free text a caller typed (a cancel reason, a violation's message): the
// spec's personal data rule (docs/architecture.md, "Data rules") holds for what leaves us as for what we log.
import { z } from 'zod';

/** The schema version in every body. A change that removes or renames a field is a new version. */
export const XBORDER_EVENT_VERSION = 1;

/**
 * One type per lifecycle change a backend acts on. `payment.created` is sent again for each new provider payment
 * of a requote (new funding instructions, new quote expiry); `payment.moved_after_outcome` is a return or refund
 * heard by the providerPayment entity after the payment closed (docs/outbound-events.md).
 */
export const XBORDER_EVENT_TYPES = [
  'payment.created',
  'payment.quote_expired',
  'payment.funds_received',
  'payment.cancel_accepted',
  'payment.needs_attention',
  'payment.completed',
  'payment.failed',
  'payment.expired',
  'payment.refunded',
  'payment.rejected',
  'payment.cancelled',
  'payment.moved_after_outcome',
] as const;
/** One of XBORDER_EVENT_TYPES. */
export type XborderEventType = (typeof XBORDER_EVENT_TYPES)[number];

const Amount = z.object({ amount: z.number(), currencyCode: z.string() });

export const XborderEventDataSchema = z.object({
  /** the payment's phase after the change (workflows/types.ts PAYMENT_PHASES; unknown ones passed through) */
  phase: z.string(),
  providerPaymentId: z.string().nullable(),
  /** the provider's status, as it came (an unknown status is passed through) */
  providerStatus: z.string().nullable(),
  source: Amount.nullable(),
  destination: Amount.nullable(),
  /** total fee, in the source currency */
  fee: z.number().nullable(),
  quote: z.object({ exchangeRate: z.number(), expiresAt: z.string() }).nullable(),
  /** what to send where (the provider's deposit details) until the quote expires; null for a pulled payment */
  fundingInstructions: z
    .object({
      rail: z.string(),
      amount: z.number(),
      currencyCode: z.string(),
      toAddress: z.string().nullable(),
    })
    .nullable(),
  fundingDeadline: z.string().nullable(),
  /** FAILED/REFUNDED: the provider's error code; REJECTED: the first rule broken; NEEDS_ATTENTION: the alert kind */
  code: z.string().nullable(),
  /** how many requotes the payment had */
  requotes: z.number().int().nonnegative(),
});

/** A payment's outbound event, version XBORDER_EVENT_VERSION (docs/outbound-events.md). */
export const XborderEventSchema = z.object({
  /** stable per change: the same on every delivery of it (also the `webhook-id` header) — dedupe on it */
  id: z.string().min(1),
  type: z.union([z.enum(XBORDER_EVENT_TYPES), z.string().min(1)]),
  version: z.literal(XBORDER_EVENT_VERSION),
  /** 1, 2, 3… per payment: an event is delivered only after every smaller one was */
  sequence: z.number().int().positive(),
  /** when the change happened (the workflow's time), not when it was delivered */
  occurredAt: z.string(),
  /** the caller's business key (the payment's `payment:<paymentKey>` workflow) */
  paymentKey: z.string().min(1),
  data: XborderEventDataSchema,
});
/** A payment's outbound event (XborderEventSchema): `paymentKey`, `type`, `sequence`, `data`. */
export type XborderEvent = z.infer<typeof XborderEventSchema>;
export type XborderEventData = z.infer<typeof XborderEventDataSchema>;

/**
 * A transfer's own lifecycle (onboard → register → pay, workflows/transfer/), version 1 of the transfer events. Its
 * payment sends its `payment.*` events besides (keyed by the paymentKey named in `transfer.payment_started`).
 */
export const XBORDER_TRANSFER_EVENT_VERSION = 1;
/** The types of a transfer's own events (version XBORDER_TRANSFER_EVENT_VERSION). */
export const XBORDER_TRANSFER_EVENT_TYPES = [
  'transfer.customer_approved',
  'transfer.customer_not_approved',
  'transfer.account_registered',
  'transfer.account_rejected',
  'transfer.payment_started',
  'transfer.completed',
  'transfer.payment_not_completed',
  'transfer.not_completed',
  'transfer.cancelled',
] as const;
/** One of XBORDER_TRANSFER_EVENT_TYPES. */
export type XborderTransferEventType = (typeof XBORDER_TRANSFER_EVENT_TYPES)[number];

export const XborderTransferEventDataSchema = z.object({
  /** where the transfer is after the change: ONBOARDING, REGISTERING, PAYING, DONE */
  step: z.string(),
  /**
   * the transfer's outcome once it ended (COMPLETED, CUSTOMER_NOT_APPROVED, ACCOUNT_REJECTED, PAYMENT_NOT_COMPLETED;
   * NOT_COMPLETED / CANCELLED when the transfer workflow itself failed / was cancelled: `step` says where)
   */
  outcome: z.string().nullable(),
  /** the key of the transfer's payment (its `payment.*` events carry it), known from the start */
  paymentKey: z.string().min(1),
  /**
   * customer_not_approved: the onboarding outcome (REJECTED, REVIEW_REJECTED, REVIEW_TIMEOUT); account_rejected: the
   * first rule broken; payment_not_completed: the payment's outcome (FAILED, EXPIRED, …); not_completed: the failure's
   * type (STEP_NOT_COMPLETED: a step that already ran under the same key and did not complete). No customer or account id.
   */
  code: z.string().nullable(),
  /** a cancel of the transfer came while its payment ran (the payment decided: docs/spec-gaps.md "Cancelling a transfer") */
  cancelRequested: z.boolean(),
});

/** A transfer's outbound event, version XBORDER_TRANSFER_EVENT_VERSION (docs/outbound-events.md, "Transfers"). */
export const XborderTransferEventSchema = z.object({
  /** stable per change, as a payment event's */
  id: z.string().min(1),
  type: z.union([z.enum(XBORDER_TRANSFER_EVENT_TYPES), z.string().startsWith('transfer.')]),
  version: z.literal(XBORDER_TRANSFER_EVENT_VERSION),
  /** 1, 2, 3… per transfer: delivered in this order */
  sequence: z.number().int().positive(),
  occurredAt: z.string(),
  /** the caller's business key (the `transfer:<transferKey>` workflow) */
  transferKey: z.string().min(1),
  data: XborderTransferEventDataSchema,
});
/** A transfer's outbound event (XborderTransferEventSchema): `transferKey`, `type`, `sequence`, `data`. */
export type XborderTransferEvent = z.infer<typeof XborderTransferEventSchema>;
export type XborderTransferEventData = z.infer<typeof XborderTransferEventDataSchema>;

/** Anything xborder POSTs to an endpoint: a payment's event or a transfer's (tell them apart with isTransferEvent). */
export const XborderOutboundEventSchema = z.union([XborderEventSchema, XborderTransferEventSchema]);
/** Anything xborder POSTs to an endpoint: a payment's event or a transfer's. */
export type XborderOutboundEvent = XborderEvent | XborderTransferEvent;

/** True for a transfer's event (it has `transferKey`), false for a payment's (`paymentKey`). */
export function isTransferEvent(event: XborderOutboundEvent): event is XborderTransferEvent {
  return 'transferKey' in event;
}

/** Where a payment's events go (PaymentInput.events). Absent url: the worker's default endpoint. */
export const EventEndpointUrlSchema = z.string().superRefine((u, ctx) => {
  // one clear message per mistake, the first found (an unparsable URL has no scheme to complain about)
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'events.url must be an absolute URL, e.g. https://backend.example/xborder-events',
    });
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    ctx.addIssue({ code: 'custom', message: 'events.url must be http(s)' });
  else if (url.username || url.password)
    ctx.addIssue({ code: 'custom', message: 'events.url must not hold credentials (user:password@)' });
});
export const PaymentEventsOptionsSchema = z.object({ url: EventEndpointUrlSchema.optional() }).strict();
export type PaymentEventsOptions = z.infer<typeof PaymentEventsOptionsSchema>;
