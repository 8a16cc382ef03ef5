// payment workflow on the time-skipping server with fake activities: the quote/funding table of the spec
// (States and transitions), limits, cancel and requote.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  paymentStateQuery,
  paymentWorkflowId,
  requoteUpdate,
  type PaymentInput,
  type PaymentOutcome,
} from '../../workflows/messages';
import { uniqueWorkflowId } from '../support/temporal';
import { FakeProvider, QUOTE_VALIDITY_MS } from './support/fake-provider';
import { createWorkflowTestEnv, deliverPaymentEvent, eventually, withWorker } from './support/harness';

let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await createWorkflowTestEnv();
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

const MIN = 60_000;

function request(overrides: Record<string, unknown> = {}): PaymentInput['request'] {
  return {
    source: { currencyCode: 'USD', amount: 1000, rail: 'ACH' },
    destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_dest' },
    paymentReason: 'PURCHASE_OF_SERVICES',
    customerId: 'cus_1',
    ...overrides,
  };
}

function newFake(opts: Partial<ConstructorParameters<typeof FakeProvider>[0]> = {}): FakeProvider {
  return new FakeProvider({ now: () => env.currentTimeMs(), ...opts });
}

async function startPayment(taskQueue: string, input: Partial<PaymentInput> = {}) {
  const key = uniqueWorkflowId('t');
  const handle = await env.client.workflow.start('payment', {
    taskQueue,
    workflowId: paymentWorkflowId(key),
    args: [{ paymentKey: key, request: request(), options: { expiredLingerMs: MIN }, ...input }],
  });
  return handle;
}

describe('payment: funded before the quote expires', () => {
  it('follows PENDING → PROCESSING → SENT → COMPLETED and returns COMPLETED with the final payment', async () => {
    const fake = newFake();
    await withWorker(env, fake.activities(), async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const created = await handle.executeUpdate(awaitCreatedUpdate);
      expect(created.outcome).toBe('CREATED');
      if (created.outcome !== 'CREATED') return;
      expect(fake.callsOf('createPayment')[0]!.args[1]).toBe(`${handle.workflowId}:create:0`);
      expect(created.fundingInstructions.toAddress).toBe(`ACCT-${created.providerPaymentId}`);

      const id = created.providerPaymentId;
      await deliverPaymentEvent(env, taskQueue, await fake.fund(id, await env.currentTimeMs()));
      await eventually(() => handle.query(paymentStateQuery), (s) => s.phase === 'IN_PROGRESS');
      await deliverPaymentEvent(env, taskQueue, await fake.advance(id, 'PROCESSING'));
      await deliverPaymentEvent(env, taskQueue, await fake.advance(id, 'SENT'));
      await deliverPaymentEvent(env, taskQueue, await fake.advance(id, 'COMPLETED'));
      const outcome = await handle.result();
      expect(outcome.outcome).toBe('COMPLETED');
      expect(outcome.payment?.status).toBe('COMPLETED');
      expect(outcome.payment?.lifecycle.completedAt).not.toBeNull();
      const state = await handle.query(paymentStateQuery);
      expect(state.timeline.map((t) => t.kind)).toEqual(expect.arrayContaining(['created', 'status', 'outcome']));
    });
  });
});
