// Property-based: whatever a caller hands startPayment, it answers with one typed refusal
// (PaymentRequestInvalidError, {path, rule, message} each) and starts nothing — or, for a valid input, goes on to
// start. Never a raw ZodError, a TypeError or a crash. The client is a fake that records every call to Temporal.
import fc from 'fast-check';
import type { Client } from '@temporalio/client';
import { PaymentRequestInvalidError, startPayment } from '../../../src/client/payments';
import { checkPaymentInput } from '../../../src/client/payment-request';

class Started extends Error {}

function recordingClient() {
  const calls: string[] = [];
  const record = (name: string) => () => {
    calls.push(name);
    throw new Started(name);
  };
  const client = {
    workflow: {
      executeUpdateWithStart: record('executeUpdateWithStart'),
      start: record('start'),
      getHandle: record('getHandle'),
      options: { namespace: 'default' },
    },
    workflowService: new Proxy({}, { get: (_t, name) => record(String(name)) }),
  } as unknown as Client;
  return { client, calls };
}

const validRequest = () => ({
  customerId: 'cus_1',
  source: { currencyCode: 'USDC', amount: 25, rail: 'POLYGON', fromAddress: '0x1111111111111111111111111111111111111111' },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
  reference: 'r',
  paymentReason: 'PERSONAL_TRANSFERS',
});

const fieldValue = fc.oneof(
  fc.anything(),
  fc.constantFrom('USDC', 'USD', 'BRL', 'USDX', 'XYZ', '', 'POLYGON', 'PIX', 'ACH', 'CRYPTO', 'WIRE', 'OTHER'),
  fc.double(),
  fc.constant(undefined),
  fc.func(fc.anything()),
);
const paths = ['paymentKey', 'request', 'request.source', 'request.source.currencyCode', 'request.source.amount',
  'request.source.rail', 'request.destination', 'request.destination.currencyCode', 'request.destination.rail',
  'request.destination.accountId', 'request.paymentReason', 'request.memo', 'limits', 'limits.maxTotalFee',
  'limits.maxRateDrift', 'options', 'options.holidays', 'request.__proto__', 'request.toJSON'];

/** A valid input with a few fields replaced by anything (or the whole input replaced by anything). */
const input = fc.oneof(
  fc.anything(),
  fc
    .record({
      key: fc.oneof(fc.string(), fc.constantFrom('order-1', 'jane@example.com', '+14155550100', '')),
      edits: fc.array(fc.tuple(fc.constantFrom(...paths), fieldValue), { maxLength: 4 }),
    })
    .map(({ key, edits }) => {
      const value: Record<string, unknown> = { paymentKey: key, request: validRequest() };
      for (const [path, v] of edits) {
        const parts = path.split('.');
        let node: Record<string, unknown> = value;
        for (const part of parts.slice(0, -1)) {
          if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
          node = node[part] as Record<string, unknown>;
        }
        Object.defineProperty(node, parts[parts.length - 1]!, { value: v, enumerable: true, configurable: true, writable: true });
      }
      return value;
    }),
);

const RUNS = 3_000;
/** the calls a refusal may make: reading whether the key's payment exists and what it was started with */
const READ_ONLY_CALLS = new Set(['getWorkflowExecutionHistory', 'describeWorkflowExecution']);

test(`${RUNS} random inputs: one typed refusal and nothing started in Temporal, or a valid input that goes on to start`, async () => {
  let refused = 0;
  let started = 0;
  await fc.assert(
    fc.asyncProperty(input, async (raw) => {
      const { client, calls } = recordingClient();
      let valid = true;
      try {
        checkPaymentInput(raw, new Date());
      } catch (error) {
        if (!(error instanceof PaymentRequestInvalidError)) throw error;
        valid = false;
      }
      try {
        await startPayment(client, raw as never, { taskQueue: 'q', retryForMs: 0 });
        throw new Error('the fake client never answers: startPayment cannot succeed');
      } catch (error) {
        if (valid) {
          expect(error).toBeInstanceOf(Started);
          started++;
          return;
        }
        expect(error).toBeInstanceOf(PaymentRequestInvalidError);
        const { violations } = error as PaymentRequestInvalidError;
        expect(violations.length).toBeGreaterThan(0);
        for (const v of violations) expect(v).toEqual({ path: expect.any(String), rule: expect.any(String), message: expect.any(String) });
        // Nothing started: a refusal may only look for a payment the key already started (read-only: a retry across a
        // rule's effective date is answered by that payment, src/client/payments.ts), never start, update or signal.
        expect(calls.filter((c) => !READ_ONLY_CALLS.has(c))).toEqual([]);
        refused++;
      }
    }),
    { numRuns: RUNS },
  );
  // both branches were exercised (counts in the test name's report)
  expect(refused).toBeGreaterThan(RUNS / 10);
  expect(started).toBeGreaterThan(0);
  console.log(`startPayment fuzz: ${RUNS} cases, ${refused} refused before a start, ${started} went on to start`);
});
