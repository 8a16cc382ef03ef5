// onboardCustomer, registerAccount and transfer on the time-skipping server with fake activities.
import {
  ONBOARD_CUSTOMER_WORKFLOW_TYPE,
  type OnboardCustomerResult,
} from '../../../workflows/onboard-customer/api';
import {
  REGISTER_ACCOUNT_WORKFLOW_TYPE,
  type RegisterAccountResult,
} from '../../../workflows/register-account/api';
import { TRANSFER_WORKFLOW_TYPE, type TransferResult } from '../../../workflows/transfer/api';
import { awaitCreatedUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import {
  customerEventSignal,
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
} from '../../../workflows/provider-customer/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { closedResult, deliverPaymentEvent, eventually } from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';
import { individualBody } from '../../unit/contract/fixtures';

const bed = useTestBed();

function individual(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...individualBody(), ...overrides };
}

function bankAccount(bank: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'EXTERNAL_BANK_ACCOUNT',
    currencyCode: 'USD',
    rails: ['ACH'],
    bank: {
      name: 'First Bank',
      countryCode: 'US',
      accountNumber: '123456789',
      routingNumber: '021000021',
      ...bank,
    },
    accountHolder: {
      type: 'BUSINESS',
      businessName: 'Acme',
      address: { countryCode: 'US', postalCode: '10001', stateRegionOrProvince: 'NY' },
    },
  };
}

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
  {
    variableName: 'bank.accountType',
    rails: ['ACH'],
    accountHolderTypes: ['INDIVIDUAL', 'BUSINESS'],
    regex: '',
    example: 'CHECKING',
    enum: ['CHECKING', 'SAVINGS'],
  },
];

async function start<T>(type: string, workflowId: string, arg: unknown) {
  const handle = await bed.env.client.workflow.start(type, {
    taskQueue: bed.taskQueue,
    workflowId,
    args: [arg],
  });
  bed.worker.started.add(workflowId);
  return bed.env.client.workflow.getHandle<() => Promise<T>>(handle.workflowId);
}

describe('onboardCustomer', () => {
  it('refuses a body that breaks the KYC rules, with every violation and no provider call', async () => {
    bed.newFake();
    const key = uniqueWorkflowId('c');
    const handle = await start<OnboardCustomerResult>(ONBOARD_CUSTOMER_WORKFLOW_TYPE, `customer:${key}`, {
      customerKey: key,
      customer: individual({ accountPurpose: undefined, birthDate: '1950-01-01' }),
    });
    const result = await closedResult<OnboardCustomerResult>(handle);
    expect(result.outcome).toBe('REJECTED');
    if (result.outcome !== 'REJECTED') return;
    expect(result.violations.map((v) => v.path)).toEqual(
      expect.arrayContaining(['accountPurpose', 'birthDate']),
    );
    expect(bed.fake.calls).toHaveLength(0);
  });

  it('creates the customer (key from the workflow ID) and waits for the review outcome webhook', async () => {
    const fake = bed.newFake();
    const key = uniqueWorkflowId('c');
    const handle = await start<OnboardCustomerResult>(ONBOARD_CUSTOMER_WORKFLOW_TYPE, `customer:${key}`, {
      customerKey: key,
      customer: individual(),
    });
    await eventually(
      async () => fake.customers.size,
      (n) => n === 1,
    );
    const [created] = [...fake.customers.values()];
    expect(fake.callsOf('createCustomer')[0]!.args[1]).toBe(`customer:${key}:create`);
    bed.worker.started.add(providerCustomerWorkflowId(created!.id));
    // no wait for the subscription: the review webhook races the entity start, as with a fast service
    const approved = { ...created!, status: 'APPROVED' as const };
    await bed.env.client.workflow.signalWithStart(PROVIDER_CUSTOMER_WORKFLOW_TYPE, {
      workflowId: providerCustomerWorkflowId(created!.id),
      taskQueue: bed.taskQueue,
      args: [{ customerId: created!.id }],
      signal: customerEventSignal,
      signalArgs: [{ eventId: `evt_${key}`, type: 'customer.updated', customer: approved }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    const result = await closedResult<OnboardCustomerResult>(handle);
    expect(result.outcome).toBe('APPROVED');
    expect(result.customer?.id).toBe(created!.id);
  });
});

describe('registerAccount', () => {
  it('reports every mismatch with the requirements and creates nothing', async () => {
    const fake = bed.newFake();
    fake.requirements = US_REQUIREMENTS;
    const key = uniqueWorkflowId('a');
    const handle = await start<RegisterAccountResult>(REGISTER_ACCOUNT_WORKFLOW_TYPE, `account:${key}`, {
      accountKey: key,
      account: bankAccount({ routingNumber: '12', accountNumber: 'abc' }),
    });
    const result = await closedResult<RegisterAccountResult>(handle);
    expect(result.outcome).toBe('REJECTED');
    if (result.outcome !== 'REJECTED') return;
    expect(result.violations.map((v) => `${v.path}:${v.rule}`).sort()).toEqual([
      'bank.accountNumber:PATTERN_MISMATCH',
      'bank.accountType:REQUIRED_BY_REQUIREMENTS',
      'bank.routingNumber:PATTERN_MISMATCH',
    ]);
    expect(fake.callsOf('getAccountRequirements')[0]!.args[0]).toEqual({
      bankCountryCode: 'US',
      currencyCode: 'USD',
    });
    expect(fake.callsOf('createAccount')).toHaveLength(0);
  });

  it('creates an account that meets them, with the idempotency key from the workflow ID', async () => {
    const fake = bed.newFake();
    fake.requirements = US_REQUIREMENTS;
    const key = uniqueWorkflowId('a');
    const handle = await start<RegisterAccountResult>(REGISTER_ACCOUNT_WORKFLOW_TYPE, `account:${key}`, {
      accountKey: key,
      account: bankAccount({ accountType: 'CHECKING' }),
    });
    expect((await closedResult<RegisterAccountResult>(handle)).outcome).toBe('REGISTERED');
    expect(fake.callsOf('createAccount')[0]!.args[1]).toBe(`account:${key}:create`);
  });
});

describe('transfer', () => {
  it('onboards a new customer first and stops when the review rejects it', async () => {
    const fake = bed.newFake();
    const key = uniqueWorkflowId('tr');
    const handle = await start<TransferResult>(TRANSFER_WORKFLOW_TYPE, `transfer:${key}`, {
      transferKey: key,
      customer: { customerKey: key, body: individual() },
      account: { accountKey: key, body: bankAccount({ accountType: 'CHECKING' }) },
      payment: { request: paymentRequest() },
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
    const result = await closedResult<TransferResult>(handle);
    expect(result).toMatchObject({
      outcome: 'CUSTOMER_NOT_APPROVED',
      customer: { outcome: 'REVIEW_REJECTED' },
    });
    expect(fake.callsOf('createCustomer')[0]!.args[1]).toBe(`customer:${key}:create`);
    expect(fake.callsOf('createAccount')).toHaveLength(0);
    expect(fake.callsOf('createPayment')).toHaveLength(0);
  });

  it('skips onboarding for a known customer, registers the account, pays it and completes', async () => {
    const fake = bed.newFake();
    fake.requirements = US_REQUIREMENTS;
    const key = uniqueWorkflowId('tr');
    const handle = await start<TransferResult>(TRANSFER_WORKFLOW_TYPE, `transfer:${key}`, {
      transferKey: key,
      customer: { customerId: 'cus_known' },
      account: { accountKey: key, body: bankAccount({ accountType: 'CHECKING' }) },
      payment: { request: paymentRequest({ destination: { currencyCode: 'USD', rail: 'ACH' } }) },
    });
    const paymentHandle = bed.env.client.workflow.getHandle(`payment:${key}`);
    bed.worker.started.add(paymentHandle.workflowId);
    const created = await eventually(
      () => paymentHandle.executeUpdate(awaitCreatedUpdate).catch(() => null),
      (c) => c !== null,
    );
    if (created?.outcome !== 'CREATED') throw new Error('payment not created');
    const [account] = [...fake.accounts.values()];
    const request = fake.callsOf('createPayment')[0]!.args[0] as {
      customerId: string;
      destination: { accountId: string };
    };
    expect(request).toMatchObject({ customerId: 'cus_known', destination: { accountId: account!.id } });
    expect(fake.callsOf('createCustomer')).toHaveLength(0);

    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.fund(created.providerPaymentId, await bed.env.currentTimeMs()),
    );
    await deliverPaymentEvent(
      bed.env,
      bed.taskQueue,
      await fake.advance(created.providerPaymentId, 'COMPLETED'),
    );
    await eventually(
      () => paymentHandle.query(paymentStateQuery),
      (s) => s.outcome !== null,
    );
    const result = await closedResult<TransferResult>(handle);
    expect(result).toMatchObject({ outcome: 'COMPLETED', customerId: 'cus_known', accountId: account!.id });
    expect(result.payment?.outcome).toBe('COMPLETED');
  });
});
