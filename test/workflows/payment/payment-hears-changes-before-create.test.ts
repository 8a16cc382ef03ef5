// A change the providerPayment entity tells the payment before the payment has recorded its create (the create
// activity subscribes to the entity before it returns) is kept and applied once the create is recorded: a fast
// pull payment that COMPLETED in that gap must not show IN_PROGRESS until the next reconcile (hours later).
import { getPaymentState, startPayment } from '../../../src/client';
import { providerPaymentChangedSignal } from '../../../workflows/provider-payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { wrapActivities } from '../support/fake-provider';
import { deliverPaymentEvent, eventually } from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';
import { PAYMENT_WORKFLOW_TYPE } from '../../../workflows/payment/api';

const bed = useTestBed();

/** Has the payment workflow heard the entity (a providerPaymentChanged signal) and finished that task? */
async function heardAndProcessed(workflowId: string): Promise<boolean> {
  const events = (await bed.env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const signalAt = events.findIndex(
    (e) => e.workflowExecutionSignaledEventAttributes?.signalName === providerPaymentChangedSignal.name,
  );
  return signalAt >= 0 && events.slice(signalAt).some((e) => e.workflowTaskCompletedEventAttributes);
}

describe('a change told before the create is recorded', () => {
  it('is applied once the create is recorded: a pull payment completed meanwhile ends COMPLETED at once', async () => {
    const fake = bed.newFake();
    // The webhook of the completion reaches the entity right after the create subscribed to it, and the entity
    // tells the payment, all before the create activity's result reaches the payment workflow.
    wrapActivities(fake, (inner) => ({
      createPaymentAndFollow: async (request, key, follow) => {
        const made = await inner.createPaymentAndFollow(request, key, follow);
        bed.worker.started.add(`provider-payment:${made.payment.id}`);
        await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(made.payment.id, 'COMPLETED'));
        await eventually(
          () => heardAndProcessed(follow.subscriber),
          (heard) => heard,
        );
        return made;
      },
    }));
    const paymentKey = uniqueWorkflowId('early');
    const started = await startPayment(
      bed.env.client,
      {
        paymentKey,
        request: paymentRequest({
          source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
        }),
        // the next reconcile is far away: only the told change can end the payment soon
        options: { expiredLingerMs: MIN, reconcileEveryMs: 24 * 60 * MIN },
      },
      { taskQueue: bed.taskQueue },
    );
    bed.worker.started.add(started.workflowId);
    expect(started.created).toMatchObject({ outcome: 'CREATED', pulledFromAccount: true });

    const state = await eventually(
      () => getPaymentState(bed.env.client, paymentKey),
      (s) => s.outcome !== null,
    );
    expect(state).toMatchObject({
      phase: 'COMPLETED',
      providerStatus: 'COMPLETED',
      outcome: { outcome: 'COMPLETED' },
    });
    expect(fake.callsOf('getPayment', PAYMENT_WORKFLOW_TYPE)).toHaveLength(0); // heard, not read on a timer
  });
});
