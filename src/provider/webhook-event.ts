// Parses a (verified) webhook body: the contract's envelope, with the payment inside normalised to the current
// shape. spec: Events 1-4; envelope and names are our decision (docs/spec-gaps.md, "Webhook envelope").
import {
  type Account,
  type Customer,
  CustomerSchema,
  isPaymentEventType,
  type LegacyDeposit,
  LegacyDepositSchema,
  normalizeAccount,
  normalizePayment,
  type Payment,
  WebhookEventSchema,
} from '../contract';
import { parseJsonText } from '../contract/json';
import { ResponseShapeError } from './errors';
import { issuesOf } from './response-shape';

interface EventBase {
  id: string;
  type: string;
  createdAt: string;
}
export type ParsedWebhookEvent =
  | (EventBase & { kind: 'payment'; data: Payment })
  | (EventBase & { kind: 'account'; data: Account })
  /** spec: Events 3 — the legacy deposit event (before 2025-09-08), replaced by payment.created of a PAYIN. */
  | (EventBase & { kind: 'deposit'; data: LegacyDeposit })
  | (EventBase & { kind: 'customer'; data: Customer })
  /** An event name we do not know (spec: Events 5, the complete list is not shown): kept raw. */
  | (EventBase & { kind: 'unknown'; data: Record<string, unknown> });

/** Throws ResponseShapeError naming every offending path when the body does not fit the contract. */
export function parseWebhookEvent(body: string | Uint8Array | unknown): ParsedWebhookEvent {
  const json = typeof body === 'string' || body instanceof Uint8Array ? parseJson(body) : body;
  try {
    const event = WebhookEventSchema.parse(json);
    const base: EventBase = { id: event.id, type: event.type, createdAt: event.createdAt };
    if (isPaymentEventType(event.type))
      return { ...base, kind: 'payment', data: normalizePayment(event.data) };
    if (event.type === 'account.deposit')
      return { ...base, kind: 'deposit', data: LegacyDepositSchema.parse(event.data) };
    if (event.type.startsWith('account.'))
      return { ...base, kind: 'account', data: normalizeAccount(event.data) };
    if (event.type.startsWith('customer.'))
      return { ...base, kind: 'customer', data: CustomerSchema.parse(event.data) };
    return { ...base, kind: 'unknown', data: event.data };
  } catch (thrown) {
    const fields = issuesOf(thrown);
    throw new ResponseShapeError(
      `Webhook event does not match the contract at ${fields
        .map((f) => `${f.path}: ${f.message}`)
        .slice(0, 5)
        .join('; ')}`,
      { fields },
    );
  }
}

function parseJson(body: string | Uint8Array): unknown {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  try {
    return parseJsonText(text);
  } catch {
    throw new ResponseShapeError('Webhook body is not JSON', {
      fields: [{ path: '(body)', rule: 'json', message: 'expected a JSON body' }],
    });
  }
}
