// A transfer started with `events` tells the backend each change it acts on (transfer.*: account registered,
// payment started, completed; customer not approved …), in order, through its own delivery workflow
// `transfer-events:<transferKey>`, and its payment sends its payment.* events to the same endpoint; a transfer
// started without `events` sends nothing (docs/outbound-events.md, "Transfers").
import { XborderTransferEventSchema } from '../../../src/contract/outbound-events';
import { TRANSFER_WORKFLOW_TYPE, type TransferResult } from '../../../workflows/transfer/api';
import { awaitCreatedUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import {
  customerEventSignal,
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
} from '../../../workflows/provider-customer/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import {
  getTransferEventsState,
  paymentEventsWorkflowId,
  transferEventsWorkflowId,
} from '../../../workflows/payment-events/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { closedResult, deliverPaymentEvent, eventually } from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';
import { individualBody } from '../../unit/contract/fixtures';

const bed = useTestBed();

const US_REQUIREMENTS = [
  {
    variableName: 'bank.accountNumber',
    rails: ['ACH'],
    accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
    regex: '^\\d{4,17}$',
    example: '123456789',
    enum: [],
  },
  {
    variableName: 'bank.routingNumber',
    rails: ['ACH'],
    accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
    regex: '^\\d{9}$',
    example: '021000021',
    enum: [],
  },
];

function bankAccount(): Record<string, unknown> {
  return {
    type: 'EXTERNAL_BANK_ACCOUNT',
    currencyCode: 'USD',
    rails: ['ACH'],
    bank: {
      name: 'First Bank',
      countryCode: 'US',
      accountNumber: '123456789',
      routingNumber: '021000021',
      accountType: 'CHECKING',
    },
    accountHolder: {
      type: 'BUSINESS',
      businessName: 'Acme',
      address: { countryCode: 'US', postalCode: '10001', stateRegionOrProvince: 'NY' },
    },
  };
}

async function startTransfer(key: string, input: Record<string, unknown>) {
  const workflowId = `transfer:${key}`;
  await bed.env.client.workflow.start(TRANSFER_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId,
    args: [{ transferKey: key, ...input }],
  });
  for (const id of [
    workflowId,
    `payment:${key}`,
    transferEventsWorkflowId(key),
    paymentEventsWorkflowId(key),
  ])
    bed.worker.started.add(id);
  return bed.env.client.workflow.getHandle<() => Promise<TransferResult>>(workflowId);
}

async function payToCompletion(key: string): Promise<void> {
  const paymentHandle = bed.env.client.workflow.getHandle(`payment:${key}`);
  const created = await eventually(
    () => paymentHandle.executeUpdate(awaitCreatedUpdate).catch(() => null),
    (c) => c !== null,
  );
  if (created?.outcome !== 'CREATED') throw new Error('payment not created');
  bed.worker.started.add(providerPaymentWorkflowId(created.providerPaymentId));
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await bed.fake.fund(created.providerPaymentId, await bed.env.currentTimeMs()),
  );
  await eventually(
    () => paymentHandle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await bed.fake.advance(created.providerPaymentId, 'COMPLETED'),
  );
}

/** The transfer events delivered for `key`, once at least one has arrived. */
const transferEventsDelivered = (key: string) =>
  eventually(
    () => Promise.resolve(bed.worker.deliveredTransferEvents.filter((e) => e.transferKey === key)),
    (es) => es.length >= 1,
  );

describe('a transfer with outbound events', () => {
  it('sends account_registered, payment_started, completed in order, and its payment sends created … completed', async () => {
    const fake = bed.newFake();
    fake.requirements = US_REQUIREMENTS;
    const key = uniqueWorkflowId('tr-ev');
    const handle = await startTransfer(key, {
      customer: { customerId: 'cus_known' },
      account: { accountKey: key, body: bankAccount() },
      payment: { request: paymentRequest({ destination: { currencyCode: 'USD', rail: 'ACH' } }) },
      events: {},
    });
    await payToCompletion(key);
    expect((await closedResult<TransferResult>(handle)).outcome).toBe('COMPLETED');

    // every event was handed over before the transfer returned
    await eventually(
      () => Promise.resolve(bed.worker.deliveredTransferEvents.filter((e) => e.transferKey === key).length),
      (n) => n >= 3,
    );
    const events = bed.worker.deliveredTransferEvents.filter((e) => e.transferKey === key);
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'transfer.account_registered'],
      [2, 'transfer.payment_started'],
      [3, 'transfer.completed'],
    ]);
    for (const e of events) expect(XborderTransferEventSchema.parse(e)).toEqual(e);
    expect(events[0]!.id).toMatch(/^[0-9a-f-]{36}:1$/);
    expect(events[1]!.data).toEqual({
      step: 'PAYING',
      outcome: null,
      paymentKey: key,
      code: null,
      cancelRequested: false,
    });
    expect(events[2]!.data).toEqual({
      step: 'DONE',
      outcome: 'COMPLETED',
      paymentKey: key,
      code: null,
      cancelRequested: false,
    });
    // no customer or account id, nor the account's details, leave
    const text = JSON.stringify(events);
    expect(text).not.toContain('cus_known');
    expect(text).not.toContain('123456789');
    for (const account of fake.accounts.keys()) expect(text).not.toContain(account);

    // the payment's own events go to the same endpoint, keyed by its payment key
    await eventually(
      () => Promise.resolve(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).length),
      (n) => n >= 3,
    );
    expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).map((e) => e.type)).toEqual([
      'payment.created',
      'payment.funds_received',
      'payment.completed',
    ]);
    expect(await getTransferEventsState(bed.env.client, key)).toMatchObject({ delivered: 3, pending: [] });
  }, 90_000);

  it('a customer the review rejects: customer_not_approved with the review outcome as code, then nothing', async () => {
    const fake = bed.newFake();
    const key = uniqueWorkflowId('tr-ev');
    const handle = await startTransfer(key, {
      customer: { customerKey: key, body: individualBody() },
      account: { accountKey: key, body: bankAccount() },
      payment: { request: paymentRequest() },
      events: {},
    });
    bed.worker.started.add(`customer:${key}`);
    const created = await eventually(
      async () => [...fake.customers.values()][0],
      (c) => c !== undefined,
    );
    bed.worker.started.add(providerCustomerWorkflowId(created!.id));
    await bed.env.client.workflow.signalWithStart(PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
      workflowId: providerCustomerWorkflowId(created!.id),
      taskQueue: bed.taskQueue,
      args: [{ customerId: created!.id }],
      signal: customerEventSignal,
      signalArgs: [
        { eventId: `evt_${key}`, type: 'customer.updated', customer: { ...created, status: 'REJECTED' } },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    expect((await closedResult<TransferResult>(handle)).outcome).toBe('CUSTOMER_NOT_APPROVED');
    const events = await transferEventsDelivered(key);
    expect(events.map((e) => [e.type, e.data.outcome, e.data.code])).toEqual([
      ['transfer.customer_not_approved', 'CUSTOMER_NOT_APPROVED', 'REVIEW_REJECTED'],
    ]);
    expect(JSON.stringify(events)).not.toContain(created!.id);
  }, 90_000);

  it('a transfer that fails (a step that already ran and did not complete) sends transfer.not_completed before it fails', async () => {
    bed.newFake();
    const key = uniqueWorkflowId('tr-ev');
    // an earlier registration under the same key that was terminated: the transfer attaches to it and fails
    const earlier = await bed.env.client.workflow.start('registrationOfAnEarlierBuild', {
      taskQueue: `${bed.taskQueue}-nobody`,
      workflowId: `account:${key}`,
    });
    await earlier.terminate('test: an earlier registration that did not complete');
    const handle = await startTransfer(key, {
      customer: { customerId: 'cus_known' },
      account: { accountKey: key, body: bankAccount() },
      payment: { request: paymentRequest() },
      events: {},
    });
    await expect(handle.result()).rejects.toMatchObject({ cause: { type: 'STEP_NOT_COMPLETED' } });
    const events = await transferEventsDelivered(key);
    expect(events.map((e) => [e.type, e.data.step, e.data.outcome, e.data.code])).toEqual([
      ['transfer.not_completed', 'REGISTERING', 'NOT_COMPLETED', 'STEP_NOT_COMPLETED'],
    ]);
    expect(XborderTransferEventSchema.parse(events[0])).toEqual(events[0]);
    expect(JSON.stringify(events)).not.toContain('cus_known');
  }, 90_000);

  it('a transfer cancelled while onboarding (before its payment started) sends transfer.cancelled before it ends', async () => {
    const fake = bed.newFake();
    const key = uniqueWorkflowId('tr-ev');
    const handle = await startTransfer(key, {
      customer: { customerKey: key, body: individualBody() },
      account: { accountKey: key, body: bankAccount() },
      payment: { request: paymentRequest() },
      events: {},
    });
    bed.worker.started.add(`customer:${key}`);
    const created = await eventually(
      async () => [...fake.customers.values()][0],
      (c) => c !== undefined,
    );
    bed.worker.started.add(providerCustomerWorkflowId(created!.id));
    await handle.cancel();
    await expect(handle.result()).rejects.toMatchObject({ cause: { name: 'CancelledFailure' } });
    const events = await transferEventsDelivered(key);
    expect(events.map((e) => [e.type, e.data.step, e.data.outcome, e.data.code])).toEqual([
      ['transfer.cancelled', 'ONBOARDING', 'CANCELLED', null],
    ]);
    expect(JSON.stringify(events)).not.toContain(created!.id);
  }, 90_000);

  it('a transfer started without `events` sends nothing, and its payment neither', async () => {
    const fake = bed.newFake();
    fake.requirements = US_REQUIREMENTS;
    const key = uniqueWorkflowId('tr-ev');
    const handle = await startTransfer(key, {
      customer: { customerId: 'cus_known' },
      account: { accountKey: key, body: bankAccount() },
      payment: { request: paymentRequest({ destination: { currencyCode: 'USD', rail: 'ACH' } }) },
    });
    await payToCompletion(key);
    expect((await closedResult<TransferResult>(handle)).outcome).toBe('COMPLETED');
    const history = await handle.fetchHistory();
    expect(JSON.stringify(history.events)).not.toContain('handOverTransferEvent');
    expect(bed.worker.deliveredTransferEvents.filter((e) => e.transferKey === key)).toEqual([]);
    expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key)).toEqual([]);
  }, 90_000);
});
