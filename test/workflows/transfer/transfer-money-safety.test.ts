// A cancel of a parent never reaches money in motion, and transfer steps run once.
import {
  ONBOARD_CUSTOMER_WORKFLOW_TYPE,
  type OnboardCustomerResult,
} from '../../../workflows/onboard-customer/api';
import {
  TRANSFER_WORKFLOW_TYPE,
  type TransferResult,
  transferStateQuery,
} from '../../../workflows/transfer/api';
import { awaitCreatedUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import {
  customerEventSignal,
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
} from '../../../workflows/provider-customer/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { closedResult, created, deliverPaymentEvent, eventually } from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';
import type { Customer } from '../../../src/contract';
import { individualBody } from '../../unit/contract/fixtures';

const bed = useTestBed();

async function startTransfer(key: string, extra: Record<string, unknown> = {}) {
  const handle = await bed.env.client.workflow.start(TRANSFER_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId: `transfer:${key}`,
    args: [
      {
        transferKey: key,
        customer: { customerId: 'cus_known' },
        account: { accountId: 'acc_known' },
        payment: { request: paymentRequest(), options: { expiredLingerMs: 60_000 } },
        ...extra,
      },
    ],
  });
  bed.worker.started.add(handle.workflowId);
  bed.worker.started.add(`payment:${key}`);
  return handle;
}

describe('cancelling a parent', () => {
  it('a cancelled transfer leaves its funded payment running to its real outcome, and says so', async () => {
    const fake = bed.newFake();
    const key = uniqueWorkflowId('trc');
    const transfer = await startTransfer(key);
    const paymentHandle = bed.env.client.workflow.getHandle(`payment:${key}`);
    const c = await eventually(
      () => paymentHandle.executeUpdate(awaitCreatedUpdate).catch(() => null),
      (x) => x !== null,
    );
    if (c?.outcome !== 'CREATED') throw new Error('payment not created');
    bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
    );
    await eventually(
      () => paymentHandle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );

    await transfer.cancel();
    await new Promise((r) => setTimeout(r, 1_000)); // time for a cancel to travel, were it sent
    // the cancel did not stop the payment (funded: it ignores the request) nor its entity
    expect((await paymentHandle.describe()).status.name).toBe('RUNNING');
    await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.cancelRequested === true,
    );
    const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(c.providerPaymentId));
    expect((await entity.describe()).status.name).toBe('RUNNING');

    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
    const result = await closedResult<TransferResult>(transfer);
    expect(result).toMatchObject({ outcome: 'COMPLETED', cancelRequested: true });
    expect(result.payment?.outcome).toBe('COMPLETED');
  });

  it('a transfer cancelled before its payment is funded passes the cancel on: the payment is CANCELLED', async () => {
    bed.newFake();
    const key = uniqueWorkflowId('trc0');
    const transfer = await startTransfer(key);
    const paymentHandle = bed.env.client.workflow.getHandle(`payment:${key}`);
    const c = await eventually(
      () => paymentHandle.executeUpdate(awaitCreatedUpdate).catch(() => null),
      (x) => x !== null,
    );
    if (c?.outcome !== 'CREATED') throw new Error('payment not created');
    bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));

    await transfer.cancel();
    // a request, decided by the payment like its own cancel: accepted before funds
    const state = await eventually(
      () => paymentHandle.query(paymentStateQuery),
      (s) => s.phase === 'CANCELLING',
    );
    expect(state.cancel).toMatchObject({ decision: 'ACCEPTED', via: 'TEMPORAL_CANCEL' });
    await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.cancelRequested === true,
    );
  });

  it('a Temporal cancel of a payment never reaches its providerPayment entity', async () => {
    bed.newFake();
    const handle = await bed.startPayment();
    const c = await created(handle);
    const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(c.providerPaymentId));
    bed.worker.started.add(entity.workflowId);
    await eventually(
      () => entity.describe().then((d) => d.status.name),
      (s) => s === 'RUNNING',
    );
    await handle.cancel();
    await eventually(
      () => handle.describe().then((d) => d.status.name),
      (s) => s !== 'RUNNING',
    ).catch(() => undefined); // how the payment itself answers a cancel is not this test's concern
    // give a cancel request time to travel (it would be recorded as WorkflowExecutionCancelRequested)
    await new Promise((r) => setTimeout(r, 1_000));
    const history = await entity.fetchHistory();
    expect(history.events?.some((e) => e.workflowExecutionCancelRequestedEventAttributes)).toBe(false);
    expect((await entity.describe()).status.name).toBe('RUNNING');
  });
});

const customerBody = individualBody();

async function startOnboarding(key: string) {
  const handle = await bed.env.client.workflow.start(ONBOARD_CUSTOMER_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId: `customer:${key}`,
    args: [{ customerKey: key, customer: customerBody }],
  });
  bed.worker.started.add(handle.workflowId);
  const customer = await eventually(
    async () => [...bed.fake.customers.values()][0],
    (c) => c !== undefined,
  );
  bed.worker.started.add(providerCustomerWorkflowId(customer!.id));
  return { handle, customer: customer! };
}

async function approve(customer: Customer, key: string) {
  await bed.env.client.workflow.signalWithStart(PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
    workflowId: providerCustomerWorkflowId(customer.id),
    taskQueue: bed.taskQueue,
    args: [{ customerId: customer.id }],
    signal: customerEventSignal,
    signalArgs: [
      {
        eventId: `evt_${key}`,
        type: 'customer.updated',
        customer: { ...customer, status: 'APPROVED' as const },
      },
    ],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

describe('transfer steps run once', () => {
  it('attaches to an onboarding of the same customer key that is still running, instead of failing', async () => {
    bed.newFake();
    const key = uniqueWorkflowId('once');
    const { customer } = await startOnboarding(key);
    const transfer = await startTransfer(key, { customer: { customerKey: key, body: customerBody } });
    // give the transfer time to try its step: before the fix, the child start failed the transfer here
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await transfer.describe()).status.name).toBe('RUNNING');
    await approve(customer, key);
    await bed.env.sleep(60_000); // past the transfer's next look at the step
    const state = await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.step === 'PAYING',
    );
    expect(state.customerId).toBe(customer.id);
    expect(bed.fake.callsOf('createCustomer')).toHaveLength(1);
  });

  it('never runs an onboarding again once it has closed: the transfer takes its result', async () => {
    bed.newFake();
    const key = uniqueWorkflowId('once');
    const { handle, customer } = await startOnboarding(key);
    await approve(customer, key);
    expect((await closedResult<OnboardCustomerResult>(handle)).outcome).toBe('APPROVED');

    const transfer = await startTransfer(key, { customer: { customerKey: key, body: customerBody } });
    const state = await eventually(
      () => transfer.query(transferStateQuery),
      (s) => s.step === 'PAYING',
    );
    expect(state.customerId).toBe(customer.id);
    // one POST /customers: after the idempotency window a second one would create a second customer
    expect(bed.fake.callsOf('createCustomer')).toHaveLength(1);
  });
});
