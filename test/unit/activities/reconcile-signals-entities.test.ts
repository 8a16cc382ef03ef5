// reconcileRecentPayments (activities/reconcile-activities.ts) signals each PAYIN/conversion's entity through the
// entity's one front door (workflows/provider-payment/api.ts): the ingress's policies, the payment as the provider
// client parsed it, one event id per status seen.
import { createReconcileActivities } from '../../../activities/reconcile-activities';
import type { Payment } from '../../../src/contract';
import { normalizePayment } from '../../../src/contract';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE, providerPaymentEventSignal } from '../../../workflows/provider-payment/api';
import { currentPayment } from '../contract/fixtures';
import { recordingClient } from '../../support/recording-client';

describe('reconcileRecentPayments', () => {
  it('signalWithStarts the entity of a recent PAYIN with the parsed payment, and skips ordered payouts', async () => {
    const payin: Payment = normalizePayment({ ...currentPayment(), id: 'pay_in_1', type: 'PAYIN', lifecycle: { ...currentPayment().lifecycle, createdAt: '2026-11-21T10:00:00Z' } });
    const payout: Payment = normalizePayment({ ...currentPayment(), id: 'pay_out_1', type: 'PAYOUT', source: { ...currentPayment().source, accountId: undefined }, lifecycle: { ...currentPayment().lifecycle, createdAt: '2026-11-21T10:00:00Z' } });
    const { client, calls } = recordingClient();
    const activities = createReconcileActivities({
      provider: {
        payments: {
          async *listAll() {
            yield payin;
            yield payout;
          },
        },
      } as never,
      client: () => client,
      taskQueue: () => 'q-reconcile',
      heartbeat: () => undefined,
    });
    const result = await activities.reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(result).toEqual({ listed: 2, signalled: ['pay_in_1'] });
    expect(calls).toHaveLength(1);
    expect(calls[0].type).toBe(PROVIDER_PAYMENT_WORKFLOW_TYPE);
    expect(calls[0].options).toEqual({
      workflowId: 'provider-payment:pay_in_1',
      taskQueue: 'q-reconcile',
      args: [{ providerPaymentId: 'pay_in_1' }],
      signal: providerPaymentEventSignal,
      signalArgs: [{ eventId: `reconcile:pay_in_1:${payin.status}`, type: 'payment.reconciled', payment: payin }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    });
  });
});
