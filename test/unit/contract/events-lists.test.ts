import {
  ERROR_CODES,
  ErrorBodySchema,
  ListQuerySchema,
  PaymentSchema,
  WEBHOOK_EVENT_TYPES,
  WebhookEventSchema,
  isPaymentEventType,
  listEnvelope,
  normalizePayment,
  toTransitionalPayment,
} from '../../../src/contract';
import { currentPayment } from './fixtures';

describe('webhook events', () => {
  test('a payment.updated event carrying a transitional payment normalises to the current payment', () => {
    const event = WebhookEventSchema.parse({
      id: 'evt_1',
      type: 'payment.updated',
      createdAt: '2026-03-01T12:00:00Z',
      data: toTransitionalPayment(currentPayment()),
    });
    expect(isPaymentEventType(event.type)).toBe(true);
    expect(normalizePayment(event.data)).toEqual(currentPayment());
  });

  test('an event name we do not know still parses; it is not a payment event', () => {
    const event = WebhookEventSchema.parse({
      id: 'evt_2',
      type: 'account.deposit',
      createdAt: '2025-09-01T00:00:00Z',
      data: {},
    });
    expect(isPaymentEventType(event.type)).toBe(false);
    expect(WEBHOOK_EVENT_TYPES).not.toContain('account.deposit');
  });

  test('data must be an object', () => {
    const r = WebhookEventSchema.safeParse({
      id: 'evt_3',
      type: 'payment.created',
      createdAt: '2026-01-01T00:00:00Z',
      data: [],
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['data']);
  });
});

describe('list envelope and query', () => {
  test('limit defaults to 20, is coerced from a query string and bounded to 1..100', () => {
    expect(ListQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(ListQuerySchema.parse({ limit: '50', cursor: 'abc' })).toEqual({ limit: 50, cursor: 'abc' });
    expect(ListQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(ListQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
  });

  test('items of the envelope are checked with the item schema, naming the index', () => {
    const bad = { ...currentPayment(), id: '' };
    const r = listEnvelope(PaymentSchema).safeParse({
      data: [currentPayment(), bad],
      pagination: { limit: 2, nextCursor: 'c2' },
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['data', 1, 'id']);
  });
});

describe('error body', () => {
  test('14 error codes; an unknown code from the real service still parses', () => {
    expect(ERROR_CODES).toHaveLength(14);
    const body = { error: { code: 'SOMETHING_NEW', message: 'x', requestId: 'r', fields: [] } };
    expect(ErrorBodySchema.parse(body)).toEqual(body);
  });
});
