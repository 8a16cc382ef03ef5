// Webhooks may never arrive (ARCHITECTURE: "a webhook is a hint as much as a fact"): with every delivery
// dropped, the payment still reaches its outcome through the timer-driven GET reconciliation.
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { freePort } from '../support/ports';
import { startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(120_000);

let stack: LocalStack;
beforeAll(async () => {
  // Nothing listens on this port: every webhook delivery fails (connection refused).
  const blackHole = `http://127.0.0.1:${await freePort()}/webhooks`;
  stack = await startTestStack({ sandboxWebhookUrls: [blackHole], sandbox: { demoData: true } });
});
afterAll(async () => {
  await stack?.close();
});

it('completes a payment whose webhooks are all dropped, by reconciling with GET', async () => {
  const key = uniqueKey('e2e-dropped');
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: {
        customerId: 'cus_demo_individual',
        source: { currencyCode: 'USDC', amount: 42, rail: 'POLYGON', fromAddress: '0x1111111111111111111111111111111111111111' },
        destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_demo_brl_bank' },
        reference: key,
        paymentReason: 'PERSONAL_TRANSFERS',
      },
      options: { reconcileEveryMs: 1_000 },
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, { json: {} });
  const result = await started.result();
  expect(result.outcome).toBe('COMPLETED');
  expect(stack.webhooks.counters.accepted).toBe(0); // nothing reached the ingress
  const deliveries = await got(`${stack.sandbox.url}/sandbox/webhooks`).json<unknown>();
  expect(JSON.stringify(deliveries)).toMatch(/ECONNREFUSED|failed|error/i);
});
