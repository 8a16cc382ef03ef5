// What the providerPayment entity's unit tests hold: a payment that expired, got late funds and refunded them (spec:
// States and transitions, the late-funding refund keeps EXPIRED and adds refundedAt): a move after the outcome.
import type { Payment } from '../../../src/contract';

export const refundedAfterExpiry = {
  id: 'pay_1',
  type: 'PAYOUT',
  status: 'EXPIRED',
  customerId: 'cus_1',
  lifecycle: {
    createdAt: '2026-11-20T10:00:00.000Z',
    expiredAt: '2026-11-21T10:00:00.000Z',
    refundedAt: '2026-11-22T10:00:00.000Z',
  },
} as unknown as Payment;
