import { type z } from 'zod';
import {
  AccountRequirementSchema,
  AccountSchema,
  ContractParseError,
  CorridorSchema,
  CreateAccountRequestSchema,
  CreateCustomerRequestSchema,
  CreatePaymentRequestSchema,
  CustomerSchema,
  ErrorBodySchema,
  LegacyAccountRequirementsSchema,
  LegacyCorridorSchema,
  LegacyRateSchema,
  PaymentSchema,
  RateSchema,
  WebhookEventSchema,
  listEnvelope,
  normalizeCorridor,
  normalizeRate,
  normalizeRequirements,
  parseOrThrow,
} from '../../../src/contract';
import { bankAccountBody, businessBody, currentPayment, individualBody, paymentBody } from './fixtures';

function paths(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

const corridor = () => ({
  source: { currencyCodes: ['USDC'], rails: ['POLYGON'] },
  destination: { currencyCodes: ['BRL'], rails: ['PIX', 'TED'], countryCode: 'BR' },
  fees: { fixed: 1, variable: 0.005 },
});
const legacyCorridor = () => ({
  source: { currencyCode: 'USDC', chain: 'POLYGON' },
  destination: { currencyCode: 'EUR', chain: 'ETHEREUM', countryCode: 'DE' },
  fees: {
    LOCAL: { fixedFeeInUSD: 1, variableFeeInSourceCurrency: 0.01 },
    WIRE: { fixedFeeInUSD: 25, variableFeeInSourceCurrency: 0.002 },
    CRYPTO: { fixedFeeInUSD: 0.5, variableFeeInSourceCurrency: 0.001 },
  },
});
const rate = () => ({
  midMarketRate: 5.2,
  invertedMidMarketRate: 1 / 5.2,
  serviceFee: { fixed: 1, variable: 0.01 },
  developerFee: { fixed: 0, variable: 0 },
  calculatedAmount: {
    description: 'USDC→BRL',
    sourceAmount: 100,
    destinationAmount: 509.6,
    totalFeeInSourceCurrency: 1.99,
  },
  quoteId: 'q_1',
});
const legacyRate = () => ({
  midMarketRate: 5.2,
  invertedMidMarketRate: 1 / 5.2,
  serviceFees: { description: 'fees', LOCAL: { fixed: 1, variable: 0.01 }, WIRE: { fixed: 20, variable: 0 } },
  serviceRates: { description: 'deprecated', LOCAL: 0.01 },
  developerFees: { description: 'dev', fixed: 0.5, variable: 0.002 },
  calculatedAmounts: {
    LOCAL: { sourceAmount: 100, destinationAmount: 508, totalFeeInSourceCurrency: 2.3 },
    WIRE: { sourceAmount: 100, destinationAmount: 400, totalFeeInSourceCurrency: 20.5 },
  },
  quoteId: 'q_old',
});
const requirement = () => ({
  variableName: 'bank.pixCode',
  rails: ['PIX'],
  accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
  regex: '^.+$',
  example: 'ana@example.com',
  enum: [],
});

// [name, schema, valid value, a required path to delete]
const CASES: Array<[string, z.ZodType, () => Record<string, any>, string[]]> = [
  ['Payment', PaymentSchema, () => currentPayment() as unknown as Record<string, any>, ['source', 'amount']],
  ['CreatePaymentRequest', CreatePaymentRequestSchema, paymentBody, ['destination', 'accountId']],
  ['CreateCustomerRequest (individual)', CreateCustomerRequestSchema, individualBody, ['firstName']],
  ['CreateCustomerRequest (business)', CreateCustomerRequestSchema, businessBody, ['address', 'countryCode']],
  [
    'Customer (response)',
    CustomerSchema,
    () => ({ ...individualBody(), id: 'cus_1', status: 'PENDING_REVIEW', createdAt: '2026-01-01T00:00:00Z' }),
    ['status'],
  ],
  ['CreateAccountRequest', CreateAccountRequestSchema, bankAccountBody, ['type']],
  [
    'Account (response)',
    AccountSchema,
    () => ({ ...bankAccountBody(), id: 'acc_1', createdAt: '2026-01-01T00:00:00Z' }),
    ['id'],
  ],
  ['Corridor', CorridorSchema, corridor, ['destination', 'countryCode']],
  ['LegacyCorridor', LegacyCorridorSchema, legacyCorridor, ['source', 'currencyCode']],
  ['Rate', RateSchema, rate, ['calculatedAmount', 'totalFeeInSourceCurrency']],
  ['LegacyRate', LegacyRateSchema, legacyRate, ['developerFees', 'fixed']],
  ['AccountRequirement', AccountRequirementSchema, requirement, ['variableName']],
  [
    'LegacyAccountRequirements',
    LegacyAccountRequirementsSchema,
    () => ({ INDIVIDUAL: [], BUSINESS: [] }),
    ['BUSINESS'],
  ],
  [
    'ErrorBody',
    ErrorBodySchema,
    () => ({
      error: {
        code: 'VALIDATION_ERROR',
        message: 'bad',
        requestId: 'req_1',
        fields: [{ path: 'a', rule: 'SCHEMA', message: 'fix a' }],
      },
    }),
    ['error', 'requestId'],
  ],
  [
    'WebhookEvent',
    WebhookEventSchema,
    () => ({
      id: 'evt_1',
      type: 'payment.created',
      createdAt: '2026-01-01T00:00:00Z',
      data: { id: 'pay_1' },
    }),
    ['createdAt'],
  ],
  [
    'list envelope of payments',
    listEnvelope(PaymentSchema),
    () => ({ data: [currentPayment()], pagination: { limit: 20, nextCursor: null } }),
    ['pagination', 'nextCursor'],
  ],
];

function deletePath(obj: Record<string, any>, path: string[]): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) cur = cur[key];
  delete cur[path[path.length - 1]];
}

describe.each(CASES)('%s schema', (_name, schema, valid, required) => {
  test('accepts the valid value', () => {
    expect(paths(schema, valid())).toEqual([]);
  });

  test('keeps unknown extra fields at the top level and in nested objects', () => {
    const value = valid();
    value.extraTop = { any: 'thing' };
    const nestedKey = Object.keys(value).find(
      (k) =>
        value[k] !== null && typeof value[k] === 'object' && !Array.isArray(value[k]) && k !== 'extraTop',
    );
    if (nestedKey) value[nestedKey].extraNested = 42;
    const parsed = schema.parse(value) as Record<string, any>;
    expect(parsed.extraTop).toEqual({ any: 'thing' });
    if (nestedKey) expect(parsed[nestedKey].extraNested).toBe(42);
  });

  test(`a missing required field (${required.join('.')}) fails with a message naming the path`, () => {
    const value = valid();
    deletePath(value, required);
    expect(paths(schema, value)).toContain(required.join('.'));
    expect(() => parseOrThrow(schema, value, 'thing')).toThrow(required.join('.'));
  });
});

describe('nullable fields of the payment are nullable, and present', () => {
  const nullablePaths = [
    ['lifecycle', 'sentAt'],
    ['lifecycle', 'refundedAt'],
    ['statusReasons'],
    ['error'],
    ['comment'],
    ['reference'],
    ['returnAddress'],
    ['developerFee', 'total'],
    ['tracking', 'uetr'],
    ['source', 'accountId'],
    ['source', 'fromAddress'],
    ['source', 'transactionHash'],
    ['source', 'fromAccountNumber'],
    ['destination', 'transactionHash'],
  ];
  test.each(nullablePaths)('%s.%s accepts null but not absence', (...path) => {
    const withNull = currentPayment() as unknown as Record<string, any>;
    let cur = withNull;
    for (const key of path.slice(0, -1)) cur = cur[key];
    cur[path[path.length - 1]] = null;
    expect(PaymentSchema.safeParse(withNull).success).toBe(true);
    deletePath(withNull, path);
    expect(paths(PaymentSchema, withNull)).toContain(path.join('.'));
  });

  test('non-nullable fields refuse null (destination.accountId, quote.expiresAt, fee)', () => {
    for (const path of [['destination', 'accountId'], ['quote', 'expiresAt'], ['fee']]) {
      const p = currentPayment() as unknown as Record<string, any>;
      let cur = p;
      for (const key of path.slice(0, -1)) cur = cur[key];
      cur[path[path.length - 1]] = null;
      expect(paths(PaymentSchema, p)).toContain(path.join('.'));
    }
  });

  test('timestamps must be ISO 8601 UTC', () => {
    const p = currentPayment();
    p.lifecycle.createdAt = '2026-02-01 10:00';
    expect(paths(PaymentSchema, p)).toContain('lifecycle.createdAt');
  });

  test('customer type is a discriminator: an unknown type names the path type', () => {
    expect(paths(CreateCustomerRequestSchema, { ...individualBody(), type: 'TRUST' })).toContain('type');
  });
});

describe('normalizeCorridor / normalizeRate / normalizeRequirements', () => {
  test('a current corridor passes through as one corridor', () => {
    expect(normalizeCorridor(corridor())).toEqual([corridor()]);
  });

  test('a legacy corridor becomes one corridor per fee key (LOCAL, WIRE → SWIFT, CRYPTO → chain)', () => {
    const out = normalizeCorridor(legacyCorridor());
    expect(out.map((c) => c.destination.rails[0])).toEqual(['LOCAL', 'SWIFT', 'ETHEREUM']);
    expect(out[1]).toEqual({
      source: { currencyCodes: ['USDC'], rails: ['POLYGON'] },
      destination: { currencyCodes: ['EUR'], rails: ['SWIFT'], countryCode: 'DE' },
      fees: { fixed: 25, variable: 0.002 },
    });
    for (const c of out) expect(CorridorSchema.safeParse(c).success).toBe(true);
  });

  test('a broken corridor throws naming the path', () => {
    const c = corridor() as Record<string, any>;
    delete c.fees.fixed;
    expect(() => normalizeCorridor(c)).toThrow(ContractParseError);
    expect(() => normalizeCorridor(c)).toThrow('fees.fixed');
  });

  test('a legacy rate becomes the current rate for the chosen rail key', () => {
    expect(normalizeRate(legacyRate())).toEqual({
      midMarketRate: 5.2,
      invertedMidMarketRate: 1 / 5.2,
      serviceFee: { fixed: 1, variable: 0.01 },
      developerFee: { fixed: 0.5, variable: 0.002 },
      calculatedAmount: {
        description: 'fees',
        sourceAmount: 100,
        destinationAmount: 508,
        totalFeeInSourceCurrency: 2.3,
      },
      quoteId: 'q_old',
    });
    expect(normalizeRate(legacyRate(), 'WIRE').calculatedAmount.destinationAmount).toBe(400);
    expect(() => normalizeRate(legacyRate(), 'CRYPTO')).toThrow('calculatedAmounts.CRYPTO');
    expect(normalizeRate(rate())).toEqual(rate());
  });

  test('legacy requirements are merged by variableName with their holder types', () => {
    const out = normalizeRequirements({
      INDIVIDUAL: [{ variableName: 'bank.accountNumber', regex: '^\\d+$', example: '123', enum: [] }],
      BUSINESS: [
        { variableName: 'bank.accountNumber', regex: '^\\d+$', example: '123', enum: [] },
        { variableName: 'accountType', regex: '', example: 'CHECKING', enum: ['CHECKING', 'SAVINGS'] },
      ],
    });
    expect(out).toEqual([
      {
        variableName: 'bank.accountNumber',
        regex: '^\\d+$',
        example: '123',
        enum: [],
        rails: [],
        accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
      },
      {
        variableName: 'accountType',
        regex: '',
        example: 'CHECKING',
        enum: ['CHECKING', 'SAVINGS'],
        rails: [],
        accountHolderTypes: ['BUSINESS'],
      },
    ]);
    expect(normalizeRequirements([requirement()])).toEqual([requirement()]);
    expect(() => normalizeRequirements([{ variableName: 'x' }])).toThrow('[0].rails');
  });
});
