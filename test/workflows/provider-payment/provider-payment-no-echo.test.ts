// The providerPayment entity of a payment (entity-fewer-actions, workflows/provider-payment/patches.ts) does not send
// the payment back a read the payment told it (payment/steps/reconcile.ts, tellEntity): that signal would change
// nothing the payment knows. A file of its own: one time-skipping server per file keeps time skipping predictable.
import { temporal } from '@temporalio/proto';
import { startPayment } from '../../../src/client/payments';
import { paymentStateQuery } from '../../../workflows/payment/api';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { eventually } from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const EventType = temporal.api.enums.v1.EventType;

async function followedPayment(request: ReturnType<typeof paymentRequest>) {
  const paymentKey = uniqueWorkflowId('no-echo');
  // the payment's periodic read is the caller's opt-in (workflows/payment/state.ts, reconcileEveryMs): asked for here
  const options = { reconcileEveryMs: 6 * 60 * MIN };
  const started = await startPayment(
    bed.env.client,
    { paymentKey, request, options },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(started.workflowId);
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const id = started.created.providerPaymentId;
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  bed.worker.started.add(entity.workflowId);
  return { id, entity, payment: bed.env.client.workflow.getHandle(started.workflowId) };
}

it('does not send the payment back what the payment read and told it', async () => {
  bed.newFake();
  // pulled from an account: PENDING at creation, no quote to wait on, so nothing but the reads moves it
  const pull = paymentRequest({
    source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
  });
  const { id, entity, payment } = await followedPayment(pull);
  await bed.env.sleep(30 * MIN); // past the entity's quiet-read ladder
  await bed.fake.advance(id, 'PROCESSING'); // its webhook is lost
  await bed.env.sleep(6 * 60 * MIN); // the payment's opted-in read every 6 h finds it and tells the entity
  await eventually(
    () => entity.query(providerPaymentSnapshotQuery),
    (s) => s.payment?.status === 'PROCESSING',
  );
  expect((await payment.query(paymentStateQuery)).providerStatus).toBe('PROCESSING');
  const signals = ((await payment.fetchHistory()).events ?? []).filter(
    (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
  );
  expect(signals).toHaveLength(0);
});
