// spec: Payment — PaymentSchema (payment.ts) written with the plain schemas (plain-schema.ts), so that
// normalizePayment runs in the providerPayment entity without zod (docs/performance.md). Same accept/reject as
// the zod schema (what the entity keeps or drops decides its commands): test/unit/plain-schema.test.ts.
export { ISO_DATETIME_UTC, ISO_DATETIME_WITH_OFFSET } from './iso-formats';
import { EXPIRED_QUOTE_BEHAVIORS, PAYMENT_STATUSES, PAYMENT_TYPES } from './enums';
import { ISO_DATETIME_WITH_OFFSET } from './iso-formats';
import { array, literalEnum, nullable, number, object, optional, string, union, unknown } from './plain-schema';

const timestamp = string({ pattern: ISO_DATETIME_WITH_OFFSET, format: 'ISO datetime' });
const nullableTimestamp = nullable(timestamp);
const nullableString = nullable(string());
const nullableNumber = nullable(number());
const currencyCode = string({ min: 3, max: 5 });
const loose = { loose: true } as const;

export const PaymentShape = object(
  {
    id: string({ min: 1 }),
    lifecycle: object(
      {
        createdAt: nullableTimestamp,
        sentAt: nullableTimestamp,
        completedAt: nullableTimestamp,
        expiredAt: nullableTimestamp,
        refundedAt: nullableTimestamp,
      },
      loose,
    ),
    customerId: string({ min: 1 }),
    status: union([literalEnum(PAYMENT_STATUSES), string({ min: 1 })]),
    statusReasons: union<unknown>([nullable(array(string())), array(unknown), object({}, loose), string()]),
    error: nullable(union<unknown>([object({ code: string(), message: optional(nullableString) }, loose), string(), object({}, loose)])),
    type: literalEnum(PAYMENT_TYPES),
    comment: nullableString,
    reference: nullableString,
    returnAddress: nullableString,
    paymentReason: string(),
    fee: number(),
    developerFee: object({ fixed: nullableNumber, variable: nullableNumber, total: nullableNumber }, loose),
    quote: object({ exchangeRate: number(), expiresAt: timestamp }, loose),
    tracking: object(
      { traceNumber: nullableString, omad: nullableString, imad: nullableString, certificate: nullableString, uetr: nullableString },
      loose,
    ),
    files: array(string()),
    configurations: object({ expiredQuoteBehavior: literalEnum(EXPIRED_QUOTE_BEHAVIORS) }, loose),
    source: object(
      {
        amount: number(),
        currencyCode,
        accountId: nullableString,
        rail: string(),
        fromAddress: nullableString,
        transactionHash: nullableString,
        fromAccountNumber: nullableString,
      },
      loose,
    ),
    destination: object(
      { amount: number(), rail: string(), currencyCode, transactionHash: nullableString, accountId: string() },
      loose,
    ),
    fundingInstructions: object(
      { rail: string(), amount: number(), toAddress: nullableString, fromAddress: nullableString, currencyCode },
      loose,
    ),
  },
  loose,
);
