// Provider payment snapshots for the tests of the pure decision modules (workflows/payment-rules.ts,
// workflows/payment-merge.ts, workflows/provider-payment/push-confirmation.ts) and the simulation.
import type { Payment } from '../../../../src/contract';
import { currentPayment } from '../../contract/fixtures';

export const T0 = '2026-11-20T12:00:00.000Z';
export const T1 = '2026-11-20T13:00:00.000Z';
export const T2 = '2026-11-20T14:00:00.000Z';
export const T3 = '2026-11-26T12:00:00.000Z';

export type Stamps = Partial<Payment['lifecycle']>;

/** A payout pushed to an external account, funded by instructions (no source.accountId), created at T0. */
export function snapshot(status: string, stamps: Stamps = {}, patch: Partial<Payment> = {}): Payment {
  const p = currentPayment();
  return {
    ...p,
    status,
    error: null,
    source: { ...p.source, accountId: null },
    lifecycle: {
      createdAt: T0,
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
      ...stamps,
    },
    ...patch,
  } as Payment;
}

/** The same snapshot with no lifecycle object at all (a shape the contract does not promise; read as no timestamps). */
export function withoutLifecycle(p: Payment): Payment {
  const copy = { ...p } as Partial<Payment>;
  delete copy.lifecycle;
  return copy as Payment;
}
