// startPayment (the client) against the payment workflow: what it refuses before a start (one typed error, no
// workflow, the key stays free) and a request the workflow receives in another form than the caller's object.
import { WorkflowNotFoundError } from '@temporalio/client';
import {
  IdempotencyKeyReusedError,
  PaymentRequestInvalidError,
  startPayment,
  type PaymentRequest,
} from '../../../src/client/payments';
import { paymentWorkflowId } from '../../../workflows/payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

const request = (overrides: Record<string, unknown> = {}) => paymentRequest(overrides) as PaymentRequest;

async function refusalOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

async function exists(workflowId: string): Promise<boolean> {
  try {
    await bed.env.client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

it('a request with a function- or symbol-valued property starts once, answers CREATED, and a retry attaches', async () => {
  bed.newFake();
  const key = uniqueWorkflowId('fn-prop');
  // what JSON drops: the workflow receives the request without these properties
  const withExtras = {
    ...request(),
    toString: () => 'payment',
    tag: Symbol('local'),
  } as unknown as PaymentRequest;
  const started = await startPayment(
    bed.env.client,
    { paymentKey: key, request: withExtras },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(started.workflowId);
  expect(started.created.outcome).toBe('CREATED');
  const again = await startPayment(
    bed.env.client,
    { paymentKey: key, request: withExtras },
    { taskQueue: bed.taskQueue },
  );
  expect(again.created).toEqual(started.created);
  expect(bed.fake.callsOf('createPayment')).toHaveLength(1);
});

it('a request refused before a start leaves no workflow; the same key with the corrected request starts afresh', async () => {
  bed.newFake();
  const key = uniqueWorkflowId('fix-and-retry');
  const wrong = request({ source: { currencyCode: 'USDX', amount: 1000, rail: 'ACH' } });
  const error = await refusalOf(
    startPayment(bed.env.client, { paymentKey: key, request: wrong }, { taskQueue: bed.taskQueue }),
  );
  expect(error).toBeInstanceOf(PaymentRequestInvalidError);
  expect(error).toMatchObject({
    type: 'PAYMENT_REQUEST_INVALID',
    violations: [expect.objectContaining({ path: 'request.source.currencyCode', rule: 'CURRENCY_UNKNOWN' })],
  });
  expect(await exists(paymentWorkflowId(key))).toBe(false);

  const fixed = await startPayment(
    bed.env.client,
    { paymentKey: key, request: request() },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(fixed.workflowId);
  expect(fixed.created.outcome).toBe('CREATED');
  expect(bed.fake.callsOf('createPayment')).toHaveLength(1);
});

it('once the service was called the key is bound: another request for it is refused', async () => {
  bed.newFake();
  const key = uniqueWorkflowId('bound');
  const first = await startPayment(
    bed.env.client,
    { paymentKey: key, request: request() },
    { taskQueue: bed.taskQueue },
  );
  bed.worker.started.add(first.workflowId);
  const other = request({ reference: 'another' });
  expect(
    await refusalOf(
      startPayment(bed.env.client, { paymentKey: key, request: other }, { taskQueue: bed.taskQueue }),
    ),
  ).toBeInstanceOf(IdempotencyKeyReusedError);
});

it('every refusal before a start is one typed error with {path, rule, message}: missing fields, a key with personal data', async () => {
  const cases: Array<[unknown, string, string]> = [
    [{ request: request() }, 'paymentKey', 'REQUIRED'],
    [{ paymentKey: uniqueWorkflowId('no-request') }, 'request', 'REQUIRED'],
    [{ paymentKey: 'jane.doe@example.com', request: request() }, 'paymentKey', 'PERSONAL_DATA_IN_KEY'],
    [
      {
        paymentKey: uniqueWorkflowId('corridor'),
        request: request({ destination: { currencyCode: 'XYZ', rail: 'SWIFT', accountId: 'a' } }),
      },
      'request.destination.currencyCode',
      'CURRENCY_UNKNOWN',
    ],
    [
      {
        paymentKey: uniqueWorkflowId('pix-usd'),
        request: request({ destination: { currencyCode: 'USD', rail: 'PIX', accountId: 'a' } }),
      },
      'request.destination.rail',
      'RAIL_NOT_FOR_CURRENCY',
    ],
  ];
  for (const [input, path, rule] of cases) {
    const error = await refusalOf(startPayment(bed.env.client, input as never, { taskQueue: bed.taskQueue }));
    expect(error).toBeInstanceOf(PaymentRequestInvalidError);
    const violations = (error as PaymentRequestInvalidError).violations;
    expect(violations).toContainEqual({ path, rule, message: expect.any(String) });
  }
});
