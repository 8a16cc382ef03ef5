// Per-file setup of the workflow tests: a time-skipping server with our search attributes, one shared
// worker, a fresh fake provider per test, and cleanup of every workflow a test left running.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { PAYMENT_WORKFLOW_TYPE, type PaymentInput, paymentWorkflowId } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { FakeProvider, type FakeProviderOptions } from './fake-provider';
import { createWorkflowTestEnv, SharedWorker } from './harness';

// jest-free, so the bench's actions scenario (which `npm run build` type-checks) can import it too
import { paymentRequest } from './payment-request';

export { paymentRequest };

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;

export interface TestBed {
  readonly env: TestWorkflowEnvironment;
  readonly worker: SharedWorker;
  readonly taskQueue: string;
  readonly fake: FakeProvider;
  newFake(opts?: Partial<FakeProviderOptions>): FakeProvider;
  startPayment(
    input?: Partial<PaymentInput>,
  ): ReturnType<TestWorkflowEnvironment['client']['workflow']['start']>;
}

/** Registers the jest hooks of one test file and returns its test bed. */
export function useTestBed(): TestBed {
  let env: TestWorkflowEnvironment;
  let worker: SharedWorker;
  let fake: FakeProvider;
  const bed: TestBed = {
    get env() {
      return env;
    },
    get worker() {
      return worker;
    },
    get taskQueue() {
      return worker.taskQueue;
    },
    get fake() {
      return fake;
    },
    newFake(opts = {}) {
      fake = new FakeProvider({ now: () => env.currentTimeMs(), ...opts });
      return fake;
    },
    async startPayment(input = {}) {
      const key = uniqueWorkflowId('t');
      const handle = await env.client.workflow.start(PAYMENT_WORKFLOW_TYPE, {
        taskQueue: worker.taskQueue,
        workflowId: paymentWorkflowId(key),
        args: [{ paymentKey: key, request: paymentRequest(), options: { expiredLingerMs: MIN }, ...input }],
      });
      worker.started.add(handle.workflowId);
      return handle;
    },
  };
  beforeAll(async () => {
    env = await createWorkflowTestEnv();
    bed.newFake();
    worker = new SharedWorker(env, () => fake.activities());
    await worker.start();
  }, 120_000);
  afterEach(async () => {
    await worker.cleanup([...fake.payments.keys()].map(providerPaymentWorkflowId));
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });
  return bed;
}
