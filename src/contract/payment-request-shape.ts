// spec: Endpoints, POST /payments body — CreatePaymentRequestSchema (payment.ts) written with the plain
// schemas (plain-schema.ts), so that validatePaymentRequest runs in the payment workflow without zod
// (docs/performance.md). Same accept/reject and messages as the zod schema: test/unit/plain-schema.test.ts.
import { number, object, optional, string } from './plain-schema';

const currencyCode = string({ min: 3, max: 5 });

export const CreatePaymentRequestShape = object(
  {
    source: object(
      {
        currencyCode,
        amount: number({ positive: true }),
        rail: string({ min: 1 }),
        fromAddress: optional(string()),
        accountId: optional(string({ min: 1 })),
      },
      { loose: true },
    ),
    destination: object({ currencyCode, rail: string({ min: 1 }), accountId: string({ min: 1 }) }, { loose: true }),
    customerId: optional(string({ min: 1 })),
    comment: optional(string()),
    reference: optional(string()),
    paymentReason: string({ min: 1 }),
    returnAddress: optional(string()),
  },
  { loose: true },
);
