// A key is bound only once money could move (docs/backend.md, "Keys"): a payment the service refused before creating
// anything frees its key, so the corrected request under the same key starts a new run of the same workflow ID;
// a key whose payment exists stays bound, and the refusal names the fields that differ.
import type { LocalStack } from '../../src/cli/stack';
import { IdempotencyKeyReusedError, startPayment } from '../../src/client/payments';
import { KEY_RUN_MEMO } from '../../src/client/freed-key';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(180_000);

let stack: LocalStack | undefined;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true } });
});
afterAll(async () => {
  await stack?.close();
});

const start = (input: Parameters<typeof startPayment>[1]) =>
  startPayment(stack!.client, input, { taskQueue: stack!.taskQueue });

it('an unknown account (ACCOUNT_NOT_FOUND from the service) frees the key: the corrected request starts run 2 and is CREATED', async () => {
  const key = uniqueKey('order-4000000123');
  const wrong = demoPaymentRequest(key, 100, {
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_does_not_exist' },
  });
  const first = await start({ paymentKey: key, request: wrong });
  expect(first.created).toMatchObject({
    outcome: 'REJECTED',
    violations: [expect.objectContaining({ rule: 'ACCOUNT_NOT_FOUND' })],
  });
  await first.result();

  const fixed = await start({ paymentKey: key, request: demoPaymentRequest(key) });
  expect(fixed.workflowId).toBe(`payment:${key}`);
  expect(fixed.created.outcome).toBe('CREATED');
  const description = await stack!.client.workflow.getHandle(fixed.workflowId).describe();
  expect(description.memo?.[KEY_RUN_MEMO]).toBe(2);

  // now a provider payment exists: the key is bound, and another request is told which fields differ
  const other = await start({ paymentKey: key, request: demoPaymentRequest(key, 120) }).catch(
    (e: unknown) => e,
  );
  expect(other).toBeInstanceOf(IdempotencyKeyReusedError);
  expect((other as IdempotencyKeyReusedError).fields).toEqual(['request.source.amount']);
  expect((other as Error).message).toMatch(/different: request\.source\.amount/);
  // the same request still attaches to it
  const again = await start({ paymentKey: key, request: demoPaymentRequest(key) });
  expect(again.created).toEqual(fixed.created);
});

it('a fee above maxTotalFee (refused in the workflow, nothing sent) frees the key for the same key with a corrected limit', async () => {
  const key = uniqueKey('order-5432109876543');
  const first = await start({
    paymentKey: key,
    request: demoPaymentRequest(key),
    limits: { maxTotalFee: 0.0001 },
  });
  expect(first.created).toMatchObject({ outcome: 'REJECTED' });
  await first.result();
  const fixed = await start({
    paymentKey: key,
    request: demoPaymentRequest(key),
    limits: { maxTotalFee: 50 },
  });
  expect(fixed.created.outcome).toBe('CREATED');
});
