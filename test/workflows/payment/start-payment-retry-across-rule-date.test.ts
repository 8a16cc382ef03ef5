// A retry of a payment that runs is answered by that payment, even when a dated rule of the contract came into force
// between the first attempt and the retry (spec: Changes over time): the payment was valid at its own date and may be
// moving money, so "refused, nothing was sent" would be a lie.
import { startPayment } from '../../../src/client';
import { PaymentRequestInvalidError } from '../../../src/client/payment-request';
import { uniqueWorkflowId } from '../../support/temporal';
import { wrapActivities } from '../support/fake-provider';
import { paymentRequest, useTestBed } from '../support/test-bed';
import { PAYMENT_WORKFLOW_TYPE, paymentWorkflowId } from '../../../workflows/payment/api';

const bed = useTestBed();

it('a payment started before WIRE was retired answers its retry after the date with its own answer', async () => {
  // the rule as the payment's own date judged it: WIRE still meant SWIFT then (spec: Rail values)
  wrapActivities(bed.newFake(), () => ({ validatePaymentRequest: async () => [] }));
  const paymentKey = uniqueWorkflowId('retry-date');
  const input = {
    paymentKey,
    request: paymentRequest({ destination: { currencyCode: 'EUR', rail: 'WIRE', accountId: 'acc_dest' } }),
  };
  // today's rules refuse the request: a first start now would be refused, nothing sent
  await expect(
    startPayment(
      bed.env.client,
      { ...input, paymentKey: uniqueWorkflowId('fresh') },
      { taskQueue: bed.taskQueue },
    ),
  ).rejects.toBeInstanceOf(PaymentRequestInvalidError);
  // the first attempt, made before the date (started directly: a client of that day)
  const first = await bed.env.client.workflow.start(PAYMENT_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId: paymentWorkflowId(paymentKey),
    args: [input],
  });
  bed.worker.started.add(first.workflowId);
  const retried = await startPayment(bed.env.client, input, { taskQueue: bed.taskQueue });
  expect(retried.workflowId).toBe(first.workflowId);
  expect(retried.created).toMatchObject({ outcome: 'CREATED' });
  // another request under the key is still refused as such
  await expect(
    startPayment(
      bed.env.client,
      { ...input, request: paymentRequest({ source: { currencyCode: 'USD', amount: 5, rail: 'ACH' } }) },
      { taskQueue: bed.taskQueue },
    ),
  ).rejects.toMatchObject({ name: 'IdempotencyKeyReusedError' });
});
