import {
  ContractParseError,
  PAYMENT_FIELD_MAP,
  PaymentSchema,
  TransitionalPaymentSchema,
  LegacyPaymentSchema,
  normalizePayment,
  toTransitionalPayment,
} from '../../../src/contract';
import { currentPayment, legacyPayload, transitionalPayload } from './fixtures';

const OLD_TOP_LEVEL = PAYMENT_FIELD_MAP.filter((m) => !m.old.includes('.')).map((m) => m.old);

describe('normalizePayment', () => {
  test('the spec table has one row per old field (24 rows: 3+1+1+1+1+1+1+1+4+1+1+1+3+1+1+2)', () => {
    expect(PAYMENT_FIELD_MAP).toHaveLength(24);
    expect(new Set(PAYMENT_FIELD_MAP.map((m) => m.old)).size).toBe(24);
  });

  test('a transitional payload (CRYPTO rail + chain, both field sets) becomes the current shape', () => {
    const raw = transitionalPayload();
    expect(TransitionalPaymentSchema.safeParse(raw).success).toBe(true);
    const p = normalizePayment(raw);
    expect(p).toEqual(currentPayment());
    for (const old of OLD_TOP_LEVEL) expect(p).not.toHaveProperty(old);
    expect(p.source).not.toHaveProperty('chain');
    expect(p.source).not.toHaveProperty('estimatedSourceAmount');
    expect(p.destination).not.toHaveProperty('account');
    expect(p.fundingInstructions).not.toHaveProperty('chain');
  });

  test('CRYPTO rail is replaced by the chain value in source, destination and fundingInstructions', () => {
    const raw = transitionalPayload() as Record<string, any>;
    raw.destination = { ...raw.destination, rail: 'CRYPTO', chain: 'SOLANA' };
    const p = normalizePayment(raw);
    expect(p.source.rail).toBe('POLYGON');
    expect(p.destination.rail).toBe('SOLANA');
    expect(p.fundingInstructions.rail).toBe('POLYGON');
  });

  test('current fields win over old ones when both are present and differ', () => {
    const raw = transitionalPayload() as Record<string, any>;
    raw.memo = 'stale memo';
    raw.exchangeRate = 9.99;
    raw.entityId = 'cus_other';
    const p = normalizePayment(raw);
    expect(p.reference).toBe('inv-42');
    expect(p.quote.exchangeRate).toBe(5.1);
    expect(p.customerId).toBe('cus_1');
  });

  test('a legacy-only payload maps every old field and fills the fields it never had', () => {
    const raw = legacyPayload();
    expect(LegacyPaymentSchema.safeParse(raw).success).toBe(true);
    const p = normalizePayment(raw);
    expect(p.lifecycle).toEqual({
      createdAt: '2025-06-01T08:00:00Z',
      sentAt: '2025-06-01T08:10:00Z',
      completedAt: '2025-06-01T09:00:00Z',
      expiredAt: null,
      refundedAt: null,
    });
    expect(p.customerId).toBe('cus_old');
    expect(p.type).toBe('PAYOUT');
    expect(p.reference).toBe('old memo');
    expect(p.paymentReason).toBe('REMITTANCES');
    expect(p.quote).toEqual({ exchangeRate: 18.2, expiresAt: '2025-06-01T08:00:00Z' });
    expect(p.tracking).toEqual({ traceNumber: null, omad: 'O1', imad: null, certificate: null, uetr: null });
    expect(p.fee).toBe(1.2);
    expect(p.source).toMatchObject({
      amount: 50,
      currencyCode: 'USDT',
      rail: 'TRON',
      fromAccountNumber: null,
      accountId: null,
    });
    expect(p.destination).toMatchObject({
      amount: 888.4,
      currencyCode: 'MXN',
      rail: 'LOCAL',
      accountId: 'acc_mx',
    });
    expect(p.fundingInstructions).toEqual({
      rail: 'TRON',
      amount: 50,
      toAddress: null,
      fromAddress: null,
      currencyCode: 'USDT',
    });
    expect(p.configurations.expiredQuoteBehavior).toBe('REFUND_PAYMENT');
    expect(PaymentSchema.safeParse(p).success).toBe(true);
    expect(p).not.toHaveProperty('updatedAt');
    expect(p).not.toHaveProperty('documentReference');
  });

  test('unknown extra fields are kept, at the top level and inside objects', () => {
    const raw = transitionalPayload() as Record<string, any>;
    raw.riskScore = 7;
    raw.source.network = 'mainnet';
    const p = normalizePayment(raw) as Record<string, any>;
    expect(p.riskScore).toBe(7);
    expect(p.source.network).toBe('mainnet');
  });

  test('a current payload passes through unchanged', () => {
    expect(normalizePayment(currentPayment())).toEqual(currentPayment());
  });

  test('the input is not mutated', () => {
    const raw = transitionalPayload();
    const copy = structuredClone(raw);
    normalizePayment(raw);
    expect(raw).toEqual(copy);
  });

  test('a missing required field throws a ContractParseError naming the path and the old name', () => {
    const raw = legacyPayload() as Record<string, any>;
    delete raw.source.estimatedSourceAmount;
    delete raw.entityId;
    let error: unknown;
    try {
      normalizePayment(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContractParseError);
    const err = error as ContractParseError;
    expect(err.type).toBe('CONTRACT_PARSE_ERROR');
    expect(err.retryable).toBe(false);
    expect(err.violations.map((v) => v.path).sort()).toEqual([
      'customerId',
      'fundingInstructions.amount',
      'source.amount',
    ]); // fundingInstructions is built from source
    expect(err.message).toContain('source.amount');
    expect(err.message).toContain('old name: source.estimatedSourceAmount');
    expect(err.message).toContain('old name: entityId');
  });

  test('a non-object is refused', () => {
    expect(() => normalizePayment(null)).toThrow(ContractParseError);
    expect(() => normalizePayment([1])).toThrow(ContractParseError);
  });
});

describe('toTransitionalPayment', () => {
  test('adds every old field from the same table, and matches the transitional schema', () => {
    const t = toTransitionalPayment(currentPayment()) as Record<string, any>;
    expect(TransitionalPaymentSchema.safeParse(t).success).toBe(true);
    expect(t.createdAt).toBe('2026-02-01T10:00:00.000Z');
    expect(t.sentAt).toBe('2026-02-01T10:05:00.000Z');
    expect(t.updatedAt).toBe('2026-02-01T10:05:00.000Z');
    expect(t.entityId).toBe('cus_1');
    expect(t.paymentType).toBe('PAYOUT');
    expect(t.memo).toBe('inv-42');
    expect(t.documentReference).toBeNull();
    expect(t.reason).toBe('PURCHASE_OF_GOODS');
    expect(t.exchangeRate).toBe(5.1);
    expect([t.traceNumber, t.omad, t.imad, t.uetr]).toEqual(['T1', null, 'I1', 'U1']);
    expect(t.estimatedTotalFeeInSourceCurrency).toBe(2.5);
    expect(t.source.estimatedSourceAmount).toBe(100);
    expect(t.source.chain).toBe('POLYGON');
    expect(t.source.accountNumber).toBeNull();
    expect(t.destination.estimatedAmount).toBe(497.25);
    expect(t.destination.chain).toBeNull(); // PIX is a bank rail
    expect(t.fundingInstructions.chain).toBe('POLYGON');
    // the current fields are all still there
    expect(PaymentSchema.parse(t)).toMatchObject(currentPayment());
  });

  test('round trip: normalizePayment(toTransitionalPayment(p)) equals p', () => {
    const p = currentPayment();
    expect(normalizePayment(toTransitionalPayment(p))).toEqual(p);
  });

  test('does not produce the GET-only objects and does not mutate its input', () => {
    const p = currentPayment();
    const t = toTransitionalPayment(p) as Record<string, any>;
    expect(t).not.toHaveProperty('customer');
    expect(t).not.toHaveProperty('sendingCustomer');
    expect(t.destination).not.toHaveProperty('account');
    expect(p).toEqual(currentPayment());
  });
});
