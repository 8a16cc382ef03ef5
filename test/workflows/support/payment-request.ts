// The payment request the workflow tests send, as `startPayment` takes it. Free of jest globals: the bench's
// actions scenario (scripts/bench, type-checked by `npm run build`) drives the same paths.
import type { PaymentRequest } from '../../../src/client/payment-request';

/** A payment request the fake provider serves; typed as `startPayment` takes it (overrides may make it invalid on purpose). */
export function paymentRequest(overrides: Record<string, unknown> = {}): PaymentRequest {
  return {
    source: { currencyCode: 'USD', amount: 1000, rail: 'ACH' },
    destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_dest' },
    paymentReason: 'PURCHASE_OF_SERVICES',
    customerId: 'cus_1',
    ...overrides,
  } as PaymentRequest;
}
