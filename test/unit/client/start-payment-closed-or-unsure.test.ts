// startPayment when Temporal's answer leaves the start open (INTERNAL, UNKNOWN), when reading a closed payment's
// history fails for a moment, and when the key's payment has already ended: never a raw error, never a refusal of a
// start that may have happened, never funding instructions for a payment that has ended.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { defaultFailureConverter, defaultPayloadConverter } from '@temporalio/common';
import { startPayment, StartPaymentUnconfirmedError } from '../../../src/client/payments';
import { checkPaymentInput } from '../../../src/client/payment-request';

const request = {
  customerId: 'cus_demo_individual',
  source: {
    currencyCode: 'USDC',
    amount: 100,
    rail: 'POLYGON',
    fromAddress: '0x1111111111111111111111111111111111111111',
  },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
  reference: 'closed-or-unsure',
  paymentReason: 'PERSONAL_TRANSFERS',
} as const;
const input = { paymentKey: 'order-1', request };

const grpcError = (code: number, message: string) =>
  Object.assign(new Error(message), { code, details: message, metadata: {} });

const FUNDING = { rail: 'POLYGON', amount: 100, toAddress: '0xabc', fromAddress: null, currencyCode: 'USDC' };
const CREATED = {
  outcome: 'CREATED',
  providerPaymentId: 'pay_1',
  quote: { exchangeRate: 5, expiresAt: '2026-01-01T00:00:00Z' },
  fundingInstructions: FUNDING,
  fee: 1,
  fundingDeadline: null,
  pulledFromAccount: false,
};

/** A client whose key belongs to a closed payment (started with `input`) that ended with `outcome`. */
function closedPaymentClient(outcome: string, historyFailures: Error[] = []) {
  const stored = checkPaymentInput(input, new Date());
  let historyReads = 0;
  const client = {
    workflowService: {
      async getWorkflowExecutionHistory() {
        historyReads++;
        const failure = historyFailures.shift();
        if (failure) throw failure;
        return {
          history: {
            events: [
              {
                workflowExecutionStartedEventAttributes: {
                  input: { payloads: [defaultPayloadConverter.toPayload(stored)] },
                },
              },
            ],
          },
        };
      },
    },
    workflow: {
      options: {
        namespace: 'default',
        loadedDataConverter: {
          payloadConverter: defaultPayloadConverter,
          failureConverter: defaultFailureConverter,
          payloadCodecs: [],
        },
      },
      async executeUpdateWithStart() {
        throw new WorkflowExecutionAlreadyStartedError('already started', 'payment:order-1', 'payment');
      },
      getHandle: () => ({
        query: async () => CREATED,
        result: async () => ({ outcome, payment: null }),
      }),
    },
  } as unknown as Client;
  return { client, historyReads: () => historyReads };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

async function settle<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let done: { value?: T; error?: unknown } | undefined;
  p.then(
    (value) => (done = { value }),
    (error: unknown) => (done = { error }),
  );
  while (!done) await jest.advanceTimersByTimeAsync(250);
  return done;
}

it.each([
  [13, 'INTERNAL'],
  [2, 'UNKNOWN'],
])(
  'gRPC %s (%s) after a possible start is StartPaymentUnconfirmedError, never the raw error',
  async (code, name) => {
    const client = {
      workflow: {
        options: { namespace: 'default' },
        async executeUpdateWithStart() {
          throw grpcError(code, `${name}: the server failed mid-way`);
        },
      },
    } as unknown as Client;
    const { error } = await settle(startPayment(client, input, { taskQueue: 'q' }));
    expect(error).toBeInstanceOf(StartPaymentUnconfirmedError);
    expect(error).toMatchObject({ type: 'START_UNCONFIRMED', key: 'order-1', workflowId: 'payment:order-1' });
  },
);

it("a transient error reading a closed payment's history is asked again, not thrown", async () => {
  const { client, historyReads } = closedPaymentClient('COMPLETED', [
    grpcError(14, 'UNAVAILABLE: connection reset'),
  ]);
  const { value, error } = await settle(startPayment(client, input, { taskQueue: 'q' }));
  expect(error).toBeUndefined();
  expect(value?.created.outcome).toBe('CREATED');
  expect(historyReads()).toBe(2);
});

it.each(['CANCELLED', 'EXPIRED', 'COMPLETED'])(
  'the same start of a payment that ended %s answers without funding instructions, saying how it ended',
  async (outcome) => {
    const { client } = closedPaymentClient(outcome);
    const { value } = await settle(startPayment(client, input, { taskQueue: 'q' }));
    expect(value?.created).toMatchObject({
      outcome: 'CREATED',
      providerPaymentId: 'pay_1',
      fundingInstructions: null,
      endedWith: outcome,
    });
  },
);
