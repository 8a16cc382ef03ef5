import { z } from 'zod';
import { EXPIRED_QUOTE_BEHAVIORS, PAYMENT_STATUSES, PAYMENT_TYPES } from './enums';
import { CurrencyCode, NullableNumber, NullableString, NullableTimestamp, Timestamp } from './primitives';

// spec: Payment (structure fixed from 2026-03-30). Every object is loose: unknown fields are kept.

export const PaymentLifecycleSchema = z.looseObject({
  createdAt: NullableTimestamp,
  sentAt: NullableTimestamp,
  completedAt: NullableTimestamp,
  expiredAt: NullableTimestamp,
  refundedAt: NullableTimestamp,
});

/** spec: Payment, error — "carries a failure code"; the object shape is our gap decision. */
export const PaymentErrorSchema = z.looseObject({
  code: z.string(),
  message: NullableString.optional(),
});

export const PaymentSourceSchema = z.looseObject({
  amount: z.number(),
  currencyCode: CurrencyCode,
  accountId: NullableString,
  rail: z.string(),
  fromAddress: NullableString,
  transactionHash: NullableString,
  fromAccountNumber: NullableString,
});

export const PaymentDestinationSchema = z.looseObject({
  amount: z.number(),
  rail: z.string(),
  currencyCode: CurrencyCode,
  transactionHash: NullableString,
  accountId: z.string(),
});

export const FundingInstructionsSchema = z.looseObject({
  rail: z.string(),
  amount: z.number(),
  toAddress: NullableString,
  fromAddress: NullableString,
  currencyCode: CurrencyCode,
});

/** A payment as the service answers it, current shape (spec: Payment). */
export const PaymentSchema = z.looseObject({
  id: z.string().min(1),
  lifecycle: PaymentLifecycleSchema,
  customerId: z.string().min(1),
  // A status the contract does not know is kept as sent and treated as in progress (a payment never freezes;
  // spec: States and transitions — the full status set is not shown). `isKnownPaymentStatus` tells them apart.
  status: z.union([z.enum(PAYMENT_STATUSES), z.string().min(1)]),
  // spec: Payment rule 3 — types not shown; ours: array of strings (docs/spec-gaps.md). Another shape is kept
  // as sent rather than refusing the whole payment.
  statusReasons: z.union([
    z.array(z.string()).nullable(),
    z.array(z.unknown()),
    z.looseObject({}),
    z.string(),
  ]),
  error: z.union([PaymentErrorSchema, z.string(), z.looseObject({})]).nullable(),
  type: z.enum(PAYMENT_TYPES),
  comment: NullableString,
  reference: NullableString,
  returnAddress: NullableString,
  // A string on responses: AUTO_LIQUIDATION and pre-2026-07-31 values still appear there.
  paymentReason: z.string(),
  fee: z.number(),
  developerFee: z.looseObject({ fixed: NullableNumber, variable: NullableNumber, total: NullableNumber }),
  quote: z.looseObject({ exchangeRate: z.number(), expiresAt: Timestamp }),
  tracking: z.looseObject({
    traceNumber: NullableString,
    omad: NullableString,
    imad: NullableString,
    certificate: NullableString,
    uetr: NullableString,
  }),
  files: z.array(z.string()),
  configurations: z.looseObject({ expiredQuoteBehavior: z.enum(EXPIRED_QUOTE_BEHAVIORS) }),
  source: PaymentSourceSchema,
  destination: PaymentDestinationSchema,
  fundingInstructions: FundingInstructionsSchema,
});
/** A payment as the service answers it (PaymentSchema): what PaymentOutcome and PaymentState carry. */
export type Payment = z.infer<typeof PaymentSchema>;

// Zod-free (workflows import them from there: docs/performance.md).
export { isKnownPaymentStatus, unknownPaymentValues } from './payment-status';

// spec: Payment fields present only until March 30, 2026 — the former embedded objects.
export const FormerDestinationAccountSchema = z.looseObject({
  id: z.string(),
  accountHolderName: NullableString.optional(),
  type: z.string().optional(),
  accountType: NullableString.optional(),
  bankName: NullableString.optional(),
});
export const FormerCustomerSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  name: NullableString,
  email: NullableString,
});

/** The old fields, as they appear in a transitional (and legacy) payload. */
const oldTopLevel = {
  createdAt: NullableTimestamp,
  sentAt: NullableTimestamp,
  completedAt: NullableTimestamp,
  updatedAt: NullableTimestamp,
  entityId: z.string().min(1),
  paymentType: z.enum(PAYMENT_TYPES),
  memo: NullableString,
  documentReference: NullableString,
  reason: z.string(),
  exchangeRate: z.number(),
  traceNumber: NullableString,
  omad: NullableString,
  imad: NullableString,
  uetr: NullableString,
  estimatedTotalFeeInSourceCurrency: z.number(),
  // GET responses only:
  customer: FormerCustomerSchema.nullable().optional(),
  sendingCustomer: FormerCustomerSchema.nullable().optional(),
};

/** Current shape plus every old field (responses before 2026-03-30). */
export const TransitionalPaymentSchema = PaymentSchema.extend({
  ...oldTopLevel,
  source: PaymentSourceSchema.extend({
    estimatedSourceAmount: z.number(),
    chain: NullableString,
    accountNumber: NullableString,
  }),
  destination: PaymentDestinationSchema.extend({
    estimatedAmount: z.number(),
    chain: NullableString,
    account: FormerDestinationAccountSchema.nullable().optional(), // GET responses only
  }),
  fundingInstructions: FundingInstructionsSchema.extend({ chain: NullableString }),
});
export type TransitionalPayment = z.infer<typeof TransitionalPaymentSchema>;

/**
 * Old fields only (payloads recorded before the current fields existed). Fields the old shape
 * did not have (lifecycle.expiredAt, tracking.certificate, quote.expiresAt, …) are optional here and
 * filled by normalizePayment (docs/spec-gaps.md, Contract).
 */
export const LegacyPaymentSchema = z.looseObject({
  id: z.string().min(1),
  status: z.enum(PAYMENT_STATUSES),
  ...oldTopLevel,
  createdAt: Timestamp,
  sentAt: NullableTimestamp.optional(),
  completedAt: NullableTimestamp.optional(),
  updatedAt: NullableTimestamp.optional(),
  memo: NullableString.optional(),
  documentReference: NullableString.optional(),
  traceNumber: NullableString.optional(),
  omad: NullableString.optional(),
  imad: NullableString.optional(),
  uetr: NullableString.optional(),
  statusReasons: z.array(z.string()).nullable().optional(),
  error: PaymentErrorSchema.nullable().optional(),
  comment: NullableString.optional(),
  returnAddress: NullableString.optional(),
  files: z.array(z.string()).optional(),
  source: z.looseObject({
    estimatedSourceAmount: z.number(),
    currencyCode: CurrencyCode,
    chain: NullableString.optional(),
    rail: z.string().optional(),
    accountId: NullableString.optional(),
    accountNumber: NullableString.optional(),
    fromAddress: NullableString.optional(),
    transactionHash: NullableString.optional(),
  }),
  destination: z.looseObject({
    estimatedAmount: z.number(),
    currencyCode: CurrencyCode,
    chain: NullableString.optional(),
    rail: z.string().optional(),
    accountId: z.string(),
    transactionHash: NullableString.optional(),
    account: FormerDestinationAccountSchema.nullable().optional(),
  }),
  fundingInstructions: z
    .looseObject({
      chain: NullableString.optional(),
      rail: z.string().optional(),
      amount: z.number(),
      toAddress: NullableString.optional(),
      fromAddress: NullableString.optional(),
      currencyCode: CurrencyCode,
    })
    .optional(),
});
export type LegacyPayment = z.infer<typeof LegacyPaymentSchema>;

// spec: Endpoints, POST /payments body. Required fields are our gap decision (docs/spec-gaps.md).
// Rail values are plain strings here: which rails are accepted depends on the date (validate-payment.ts).
/** The POST /payments body (spec: Endpoints); validatePaymentRequest checks the dated rules besides. */
export const CreatePaymentRequestSchema = z.looseObject({
  source: z.looseObject({
    currencyCode: CurrencyCode,
    amount: z.number().positive(),
    rail: z.string().min(1),
    fromAddress: z.string().optional(),
    accountId: z.string().min(1).optional(),
  }),
  destination: z.looseObject({
    currencyCode: CurrencyCode,
    rail: z.string().min(1),
    accountId: z.string().min(1),
  }),
  customerId: z.string().min(1).optional(),
  comment: z.string().optional(),
  reference: z.string().optional(),
  paymentReason: z.string().min(1),
  returnAddress: z.string().optional(),
});
/** The POST /payments body (CreatePaymentRequestSchema). */
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequestSchema>;
