// onboardCustomer without a review webhook: GET reconciliation when the client has one, and the review
// deadline (REVIEW_TIMEOUT) when it has none. Timer-driven, so in a file (and time-skipping server) of its own.
import {
  ONBOARD_CUSTOMER_WORKFLOW_TYPE,
  type OnboardCustomerResult,
} from '../../../workflows/onboard-customer/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { closedResult, eventually } from '../support/harness';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();

const individual = {
  type: 'INDIVIDUAL',
  firstName: 'Ana',
  lastName: 'Silva',
  email: 'ana.silva@example.org',
  phone: '+5511999999999',
  birthDate: '1990-05-20',
  accountPurpose: 'Receiving salary from abroad',
  address: { line1: 'Rua A 1', city: 'São Paulo', postalCode: '01000-000', countryCode: 'BR' },
};

async function startOnboarding(extra: Record<string, unknown>) {
  const key = uniqueWorkflowId('c');
  const workflowId = `customer:${key}`;
  await bed.env.client.workflow.start(ONBOARD_CUSTOMER_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId,
    args: [{ customerKey: key, customer: individual, ...extra }],
  });
  bed.worker.started.add(workflowId);
  return bed.env.client.workflow.getHandle<() => Promise<OnboardCustomerResult>>(workflowId);
}

describe('onboardCustomer timers', () => {
  it('finds the review outcome by GET when no webhook comes', async () => {
    const fake = bed.newFake();
    const handle = await startOnboarding({ reconcileEveryMs: 60 * MIN });
    const customer = await eventually(
      async () => [...fake.customers.values()][0],
      (c) => c !== undefined,
    );
    bed.worker.started.add(`provider-customer:${customer!.id}`);
    fake.customers.set(customer!.id, { ...customer!, status: 'APPROVED' }); // the service decided; its webhook is lost
    await bed.env.sleep(61 * MIN);
    const result = await closedResult<OnboardCustomerResult>(handle);
    expect(result.outcome).toBe('APPROVED');
    expect(fake.callsOf('getCustomer')).toHaveLength(1);
  });

  it('gives up with REVIEW_TIMEOUT at the deadline, and stops GETs the client does not support', async () => {
    const fake = bed.newFake();
    fake.customerGetSupported = false;
    const handle = await startOnboarding({ reconcileEveryMs: 30 * MIN, reviewTimeoutMs: 120 * MIN });
    const customer = await eventually(
      async () => [...fake.customers.values()][0],
      (c) => c !== undefined,
    );
    bed.worker.started.add(`provider-customer:${customer!.id}`);
    await bed.env.sleep(121 * MIN);
    const result = await closedResult<OnboardCustomerResult>(handle);
    expect(result).toMatchObject({
      outcome: 'REVIEW_TIMEOUT',
      customer: { id: customer!.id, status: 'PENDING_REVIEW' },
    });
    expect(fake.callsOf('getCustomer')).toHaveLength(1);
  });
});
