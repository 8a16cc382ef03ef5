// A transfer whose payment key already names a payment workflow (a caller started `payment:<key>` itself, or a
// retried transfer) attaches to that payment and reports its real outcome, as it does for onboarding and
// registration: the payment runs once, and the transfer never fails while its payment goes on.
import { ApplicationFailure } from '@temporalio/common';
import { startPayment, startTransfer } from '../../../src/client';
import { transferStateQuery, type TransferResult } from '../../../workflows/transfer/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { closedResult, deliverPaymentEvent, eventually } from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

function transferInput(transferKey: string, paymentKey: string) {
  return {
    transferKey,
    customer: { customerId: 'cus_known' },
    account: { accountId: 'acc_known' },
    payment: { paymentKey, request: paymentRequest(), options: { expiredLingerMs: MIN } },
  };
}

describe('a transfer whose payment already runs or ran', () => {
  it('attaches to the running payment, follows it to its outcome, and a later transfer takes the closed one', async () => {
    const fake = bed.newFake();
    const paymentKey = uniqueWorkflowId('attp');
    const started = await startPayment(
      bed.env.client,
      {
        paymentKey,
        request: paymentRequest({
          customerId: 'cus_known',
          destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_known' },
        }),
        options: { expiredLingerMs: MIN },
      },
      { taskQueue: bed.taskQueue },
    );
    bed.worker.started.add(started.workflowId);
    if (started.created.outcome !== 'CREATED') throw new Error('payment not created');
    const providerPaymentId = started.created.providerPaymentId;

    const transferKey = uniqueWorkflowId('attt');
    const transfer = await startTransfer(bed.env.client, transferInput(transferKey, paymentKey), {
      taskQueue: bed.taskQueue,
    });
    bed.worker.started.add(transfer.workflowId);
    await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.step === 'PAYING',
    );
    // time for the child start to be refused: before the fix the transfer FAILED here, its payment running on
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await transfer.describe()).status.name).toBe('RUNNING');

    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(providerPaymentId, await bed.env.currentTimeMs()),
    );
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(providerPaymentId, 'COMPLETED'));
    await eventually(
      () =>
        bed.env.client.workflow
          .getHandle(started.workflowId)
          .describe()
          .then((d) => d.status.name),
      (s) => s === 'COMPLETED',
    );
    await bed.env.sleep(31 * MIN); // past the transfer's next look at its payment
    const result = await closedResult<TransferResult>(transfer);
    expect(result).toMatchObject({ outcome: 'COMPLETED', paymentWorkflowId: started.workflowId });
    expect(result.payment).toMatchObject({ outcome: 'COMPLETED', payment: { id: providerPaymentId } });

    // the same transfer retried after it closed (the backend lost the first answer) answers with that transfer,
    // as startPayment does: never "already started", which a backend reads as "not started" and retries elsewhere
    const retried = await startTransfer(bed.env.client, transferInput(transferKey, paymentKey), {
      taskQueue: bed.taskQueue,
    });
    expect(retried.workflowId).toBe(transfer.workflowId);
    expect(await closedResult<TransferResult>(retried)).toMatchObject({
      outcome: 'COMPLETED',
      paymentWorkflowId: started.workflowId,
    });

    // the payment has closed: another transfer of the same payment key takes its outcome, never pays again
    const again = await startTransfer(bed.env.client, transferInput(uniqueWorkflowId('attt'), paymentKey), {
      taskQueue: bed.taskQueue,
    });
    bed.worker.started.add(again.workflowId);
    const second = await closedResult<TransferResult>(again);
    expect(second).toMatchObject({ outcome: 'COMPLETED', payment: { outcome: 'COMPLETED' } });
    expect(fake.callsOf('createPayment')).toHaveLength(1);
  });
});

describe('a transfer attached to a payment that waits for weeks', () => {
  it('reads it every 30 minutes for a day, then every 6 hours: far below the history limit', async () => {
    const fake = bed.newFake();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
    );
    const paymentKey = uniqueWorkflowId('waitp');
    const started = await startPayment(
      bed.env.client,
      { paymentKey, request: transferInput('x', paymentKey).payment.request },
      { taskQueue: bed.taskQueue },
    );
    bed.worker.started.add(started.workflowId);
    expect(started.created.outcome).toBe('NEEDS_ATTENTION'); // waits for an operator, for as long as it takes
    const transfer = await startTransfer(
      bed.env.client,
      transferInput(uniqueWorkflowId('waitt'), paymentKey),
      { taskQueue: bed.taskQueue },
    );
    bed.worker.started.add(transfer.workflowId);
    await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.step === 'PAYING',
    );
    await bed.env.sleep(10 * 24 * 60 * MIN);
    const history = await transfer.fetchHistory();
    const reads = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
    // about 11 reads up to 30 minutes, ~46 in the rest of the first day, then 4 a day: ~93 in 10 days (480+ before)
    expect(reads).toBeLessThan(110);
    expect((await transfer.describe()).status.name).toBe('RUNNING');
  }, 120_000);
});
