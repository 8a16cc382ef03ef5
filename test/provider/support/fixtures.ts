// Wire bodies for fake-server tests. Unique ids per call.
import { randomUUID } from 'node:crypto';

export const uid = (prefix: string): string => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 16)}`;

/** A payment in the current shape (spec: Payment). */
export function currentPaymentJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: uid('pay'),
    lifecycle: {
      createdAt: '2026-04-01T10:00:00.000Z',
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
    },
    customerId: uid('cus'),
    status: 'AWAITING_FUNDS',
    statusReasons: null,
    error: null,
    type: 'PAYOUT',
    comment: null,
    reference: 'inv-1',
    returnAddress: null,
    paymentReason: 'PURCHASE_OF_SERVICES',
    fee: 2.5,
    developerFee: { fixed: null, variable: null, total: null },
    quote: { exchangeRate: 0.92, expiresAt: '2026-04-01T10:15:00.000Z' },
    tracking: { traceNumber: null, omad: null, imad: null, certificate: null, uetr: null },
    files: [],
    configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
    source: {
      amount: 100,
      currencyCode: 'USDC',
      accountId: null,
      rail: 'POLYGON',
      fromAddress: '0xabc',
      transactionHash: null,
      fromAccountNumber: null,
    },
    destination: {
      amount: 89.7,
      rail: 'SWIFT',
      currencyCode: 'EUR',
      transactionHash: null,
      accountId: uid('acc'),
    },
    fundingInstructions: {
      rail: 'POLYGON',
      amount: 100,
      toAddress: '0xdef',
      fromAddress: '0xabc',
      currencyCode: 'USDC',
    },
    ...overrides,
  };
}

export function errorJson(
  code: string,
  message: string,
  fields: Array<{ path: string; rule: string; message: string }> = [],
) {
  return { error: { code, message, requestId: uid('req'), fields } };
}
