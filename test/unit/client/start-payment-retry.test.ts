// startPayment's retry window: errors that leave the outcome open (worker restarting or overloaded:
// "Workflow Task in failed state", FAILED_PRECONDITION) are asked again for a time window, not a count, and
// the end of the window is never reported as a refusal.
import type { Client } from '@temporalio/client';
import {
  START_RETRY_WINDOW_MS,
  startPayment,
  StartPaymentUnconfirmedError,
} from '../../../src/client/payments';

const request = {
  customerId: 'cus_demo_individual',
  source: {
    currencyCode: 'USDC',
    amount: 100,
    rail: 'POLYGON',
    fromAddress: '0x1111111111111111111111111111111111111111',
  },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
  reference: 'retry-window',
  paymentReason: 'PERSONAL_TRANSFERS',
} as const;

/** The server's answer while the workflow task is failing (a gRPC ServiceError's shape). */
function failedPrecondition(): Error {
  return Object.assign(
    new Error('Unable to perform workflow execution update due to Workflow Task in failed state.'),
    {
      code: 9,
      details: 'Workflow Task in failed state',
      metadata: {},
    },
  );
}

/** A client whose update-with-start fails until `failForMs` has passed (fake time), then answers CREATED. */
function flakyClient(failForMs: number) {
  const started = Date.now();
  let calls = 0;
  const client = {
    // no workflow with the key yet (what the history read of the same-key check, if any, finds)
    workflowService: {
      async getWorkflowExecutionHistory() {
        throw Object.assign(new Error('not found'), { code: 5, details: 'not found', metadata: {} });
      },
    },
    workflow: {
      options: { namespace: 'default' },
      async executeUpdateWithStart(
        _def: unknown,
        options: { startWorkflowOperation: { workflowHandle: unknown } },
      ) {
        calls++;
        if (Date.now() - started < failForMs) throw failedPrecondition();
        options.startWorkflowOperation.workflowHandle = async () => ({
          result: async () => ({ outcome: 'COMPLETED' }),
        });
        return { outcome: 'CREATED', providerPaymentId: 'pay_1' };
      },
    },
  } as unknown as Client;
  return { client, calls: () => calls };
}

async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let done: { value?: T; error?: unknown } | undefined;
  p.then(
    (value) => (done = { value }),
    (error: unknown) => (done = { error }),
  );
  while (!done) await jest.advanceTimersByTimeAsync(250);
  return done;
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('keeps asking through 30 s of a failing workflow task (the old 8 attempts gave up after ~12 s)', async () => {
  const { client, calls } = flakyClient(30_000);
  const { value, error } = await settle(
    startPayment(client, { paymentKey: 'retry-window-1', request }, { taskQueue: 'q' }),
  );
  expect(error).toBeUndefined();
  expect(value?.created).toMatchObject({ outcome: 'CREATED', providerPaymentId: 'pay_1' });
  expect(calls()).toBeGreaterThan(8);
});

it('past its window (retryForMs) ends with StartPaymentUnconfirmedError: ask again with the same key, never a refusal', async () => {
  expect(START_RETRY_WINDOW_MS).toBe(60_000);
  const { client } = flakyClient(Number.POSITIVE_INFINITY);
  const begun = Date.now();
  const { error } = await settle(
    startPayment(client, { paymentKey: 'retry-window-2', request }, { taskQueue: 'q', retryForMs: 5_000 }),
  );
  expect(error).toBeInstanceOf(StartPaymentUnconfirmedError);
  expect(error).toMatchObject({
    type: 'START_UNCONFIRMED',
    key: 'retry-window-2',
    workflowId: 'payment:retry-window-2',
  });
  expect((error as Error).cause).toMatchObject({ code: 9 });
  expect(Date.now() - begun).toBeLessThanOrEqual(5_000);
});
