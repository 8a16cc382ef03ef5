// Nothing closes before the money can no longer move.
import { getPaymentState } from '../../../src/client/payments';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import {
  customerEventSignal,
  customerSnapshotQuery,
  providerCustomerWorkflowId,
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
} from '../../../workflows/provider-customer/api';
import { closedPaymentOutcome, created, deliverPaymentEvent, eventually } from '../support/harness';
import { uniqueWorkflowId } from '../../support/temporal';
import { DAY, useTestBed } from '../support/test-bed';
import { iso } from '../support/fake-provider';
import { CustomerSchema, type Customer } from '../../../src/contract';
import { individualBody } from '../../unit/contract/fixtures';

const bed = useTestBed();

it('a return by the receiving bank after COMPLETED is seen by whoever asks the closed payment', async () => {
  const fake = bed.newFake();
  const handle = await bed.startPayment();
  const c = await created(handle);
  bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
  );
  const completed = await fake.advance(c.providerPaymentId, 'COMPLETED');
  await deliverPaymentEvent(bed.env, bed.taskQueue, completed);
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  expect((await getPaymentState(bed.env.client, handle.workflowId)).afterOutcome).toBeNull();

  const returned = fake.set(c.providerPaymentId, {
    status: 'REFUNDED',
    error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'returned' },
    lifecycle: { ...completed.lifecycle, refundedAt: iso(await bed.env.currentTimeMs()) },
  });
  await deliverPaymentEvent(bed.env, bed.taskQueue, returned);
  const state = await eventually(
    () => getPaymentState(bed.env.client, handle.workflowId),
    (s) => Boolean(s.afterOutcome),
  );
  expect(state.outcome?.outcome).toBe('COMPLETED'); // what was reported stays
  expect(state.afterOutcome).toMatchObject({
    providerStatus: 'REFUNDED',
    code: 'FUNDS_RETURNED_BY_RECEIVING_BANK',
  });
});

it('a customer entity whose review never ends gets an end; a later webhook starts it again', async () => {
  bed.newFake();
  const id = uniqueWorkflowId('cus');
  const wid = providerCustomerWorkflowId(id);
  bed.worker.started.add(wid);
  // as the ingress sends it: parsed with the contract (the entity takes it as it comes)
  const customer = CustomerSchema.parse({
    id,
    status: 'PENDING_REVIEW',
    createdAt: '2026-01-01T00:00:00Z',
    ...individualBody(),
  });
  const send = (status: Customer['status'], eventId: string) =>
    bed.env.client.workflow.signalWithStart(PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
      workflowId: wid,
      taskQueue: bed.taskQueue,
      args: [{ customerId: id }],
      signal: customerEventSignal,
      signalArgs: [{ eventId, type: 'customer.updated', customer: { ...customer, status } }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  const first = await send('PENDING_REVIEW', `evt_${id}_1`);
  await eventually(
    () => first.query(customerSnapshotQuery),
    (s) => s.customer !== null,
  );
  await bed.env.sleep(31 * DAY);
  await eventually(
    () => first.describe().then((d) => d.status.name),
    (s) => s === 'COMPLETED',
  );
  const second = await send('APPROVED', `evt_${id}_2`);
  expect(second.signaledRunId).not.toBe(first.signaledRunId);
  const snap = await eventually(
    () => bed.env.client.workflow.getHandle(wid).query(customerSnapshotQuery),
    (s) => (s.customer as { status?: string } | null)?.status === 'APPROVED',
  );
  expect(snap.customerId).toBe(id);
});
