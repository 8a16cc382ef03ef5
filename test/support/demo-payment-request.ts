// The payment request most end-to-end tests send: the sandbox's demo individual customer pushes USDC from a
// wallet (POLYGON) to the demo BRL bank account (PIX). One definition, so a contract change is made once.
import type { PaymentRequest } from '../../src/client/payment-request';

type PaymentRequestInput = PaymentRequest;

/** A wallet address in the sandbox's accepted format (no personal data: it is a test constant). */
export const DEMO_WALLET = '0x1111111111111111111111111111111111111111';

export function demoPaymentRequest(
  reference: string,
  amount = 100,
  extra: Partial<PaymentRequestInput> & Record<string, unknown> = {},
): PaymentRequestInput {
  return {
    customerId: 'cus_demo_individual',
    source: { currencyCode: 'USDC', amount, rail: 'POLYGON', fromAddress: DEMO_WALLET },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    reference,
    paymentReason: 'PERSONAL_TRANSFERS',
    ...extra,
  };
}
