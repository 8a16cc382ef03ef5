// A backend that restarted has lost the handle `startPayment` gave it; it learns the outcome by the business key
// alone, with a client made afresh (docs/backend.md, "Learning an outcome after a restart"). Both helpers wait while the
// payment runs and answer at once once it has closed.
import { Client } from '@temporalio/client';
import { awaitPaymentOutcome, awaitTransferOutcome, startPayment, startTransfer } from '../../../src/client';
import { uniqueWorkflowId } from '../../support/temporal';
import { deliverPaymentEvent, eventually } from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

/** A client of its own, as a restarted process would make: nothing carried over but the key. */
function restartedClient(): Client {
  return new Client({ connection: bed.env.client.connection, namespace: bed.env.namespace ?? 'default' });
}

it('awaitPaymentOutcome and awaitTransferOutcome answer by key alone, from a new client', async () => {
  const fake = bed.newFake();
  const paymentKey = uniqueWorkflowId('bykey');
  const request = paymentRequest({
    customerId: 'cus_known',
    destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_known' },
  });
  const started = await startPayment(
    bed.env.client,
    { paymentKey, request, options: { expiredLingerMs: MIN } },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(started.workflowId);
  if (started.created.outcome !== 'CREATED') throw new Error('payment not created');
  const providerPaymentId = started.created.providerPaymentId;

  // the backend "restarts" while the payment waits for funds: it waits by key on a client of its own
  const waiting = awaitPaymentOutcome(restartedClient(), paymentKey);
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await fake.fund(providerPaymentId, await bed.env.currentTimeMs()),
  );
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(providerPaymentId, 'COMPLETED'));
  await expect(waiting).resolves.toMatchObject({ outcome: 'COMPLETED', payment: { id: providerPaymentId } });
  // the workflow ID works as well as the key, and a closed payment answers at once
  await expect(awaitPaymentOutcome(restartedClient(), started.workflowId)).resolves.toMatchObject({
    outcome: 'COMPLETED',
  });

  // a transfer of that payment key attaches to the closed payment; its outcome is read by the transfer's key
  const transferKey = uniqueWorkflowId('bykeyt');
  const transfer = await startTransfer(
    bed.env.client,
    {
      transferKey,
      customer: { customerId: 'cus_known' },
      account: { accountId: 'acc_known' },
      payment: { paymentKey, request, options: { expiredLingerMs: MIN } },
    },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(transfer.workflowId);
  await eventually(
    () => transfer.describe().then((d) => d.status.name),
    (status) => status !== 'RUNNING',
  );
  await expect(awaitTransferOutcome(restartedClient(), transferKey)).resolves.toMatchObject({
    outcome: 'COMPLETED',
    payment: { outcome: 'COMPLETED' },
  });
  expect(fake.callsOf('createPayment')).toHaveLength(1);
});
