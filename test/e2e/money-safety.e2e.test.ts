// Issue 9 on the real stack (dev server + sandbox + worker + ingress): same key with another request is
// refused (point 4).
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { LocalStack } from '../../src/cli/stack';
import { IdempotencyKeyReusedError, startPayment, startTransfer } from '../../src/client/payments';
import { startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(120_000);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true, quoteValidityMs: 60_000 } });
});
afterAll(async () => {
  await stack?.close();
});

function request(reference: string, amount = 100, extra: Record<string, unknown> = {}) {
  return {
    customerId: 'cus_demo_individual',
    source: {
      currencyCode: 'USDC',
      amount,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    reference,
    paymentReason: 'PERSONAL_TRANSFERS',
    ...extra,
  };
}

async function providerPaymentsWithReference(reference: string): Promise<string[]> {
  const found: string[] = [];
  for await (const p of stack.provider.payments.listAll()) if (p.reference === reference) found.push(p.id);
  return found;
}

async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (error) {
    return error;
  }
  throw new Error('not refused');
}

describe('same key, other request (issue 9, point 4)', () => {
  it('refuses a running payment key with another amount, naming the key; the same request attaches', async () => {
    const key = uniqueKey('e2e-samekey');
    const opts = { taskQueue: stack.taskQueue };
    const first = await startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts);
    if (first.created.outcome !== 'CREATED') throw new Error('not created');

    const error = await refusal(
      startPayment(stack.client, { paymentKey: key, request: request(key, 250) }, opts),
    );
    expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
    expect(error).toMatchObject({ type: 'IDEMPOTENCY_KEY_REUSED', key, workflowId: `payment:${key}` });
    expect(String(error)).toContain(key);

    const again = await startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts);
    expect(again.created).toMatchObject({ providerPaymentId: first.created.providerPaymentId });
    expect(await providerPaymentsWithReference(key)).toEqual([first.created.providerPaymentId]);
  });

  it('refuses another request for the key of a closed payment; the same request stays refused as before', async () => {
    const key = uniqueKey('e2e-samekey-closed');
    const opts = { taskQueue: stack.taskQueue };
    // a contract violation closes the workflow at once (REJECTED)
    const rejected = request(key, 100, { paymentReason: 'OTHER' });
    const first = await startPayment(stack.client, { paymentKey: key, request: rejected }, opts);
    expect(first.created.outcome).toBe('REJECTED');
    await first.result();

    const other = await refusal(
      startPayment(stack.client, { paymentKey: key, request: request(key, 100) }, opts),
    );
    expect(other).toBeInstanceOf(IdempotencyKeyReusedError);
    const same = await refusal(startPayment(stack.client, { paymentKey: key, request: rejected }, opts));
    expect(same).toBeInstanceOf(WorkflowExecutionAlreadyStartedError);
  });

  it('refuses a transfer key with another payment request; the same request attaches', async () => {
    const key = uniqueKey('e2e-samekey-transfer');
    const opts = { taskQueue: stack.taskQueue };
    const input = (amount: number) => ({
      transferKey: key,
      customer: { customerId: 'cus_demo_individual' },
      account: { accountId: 'acc_demo_brl_bank' },
      payment: { request: request(key, amount) },
    });
    const first = await startTransfer(stack.client, input(100), opts);
    const error = await refusal(startTransfer(stack.client, input(101), opts));
    expect(error).toMatchObject({ type: 'IDEMPOTENCY_KEY_REUSED', key, workflowId: `transfer:${key}` });
    const again = await startTransfer(stack.client, input(100), opts);
    expect(again.firstExecutionRunId).toBe(first.firstExecutionRunId);
    await first.terminate('test over').catch(() => undefined);
    await stack.client.workflow
      .getHandle(`payment:${key}`)
      .terminate('test over')
      .catch(() => undefined);
  });
});
