// Whoever reaches Temporal without the payload keys (the dev server and the compose cluster run without client
// authentication) cannot finish a payment: a plaintext `payment.updated COMPLETED` signalled to the entity with
// the plain `temporal workflow signal` is refused by the codec (docs/codec.md, "Ciphertext only"). The entity's
// workflow task fails on it instead, and the payment stays where the service has it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LocalStack } from '../../src/cli/stack';
import { getPaymentState, startPayment } from '../../src/client/payments';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { temporalBinaries } from '../support/temporal';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { eventually, startTestStack, uniqueKey } from './stack-support';

jest.setTimeout(150_000);

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ sandbox: { demoData: true } });
});
afterAll(async () => {
  await stack?.close();
});

it('refuses a plaintext COMPLETED signalled to the entity without the keys: the payment does not complete', async () => {
  const key = uniqueKey('e2e-plaintext');
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: demoPaymentRequest(key, 100) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const paymentId = started.created.providerPaymentId;
  const entityId = providerPaymentWorkflowId(paymentId);
  await eventually('the entity workflow', async () =>
    (await stack.client.workflow.getHandle(entityId).describe()).status.name === 'RUNNING' ? true : null,
  );

  // The forged event, as the webhook ingress would have routed it, but written straight to Temporal in plaintext.
  const payment = await stack.provider.payments.get(paymentId);
  const forged = {
    eventId: `evt_forged_${key}`,
    type: 'payment.updated',
    createdAt: new Date().toISOString(),
    payment: { ...payment, status: 'COMPLETED' },
  };
  const { cli } = temporalBinaries();
  await promisify(execFile)(
    cli!,
    [
      'workflow',
      'signal',
      '--address',
      stack.temporal.address,
      '-w',
      entityId,
      '--name',
      'event',
      '--input',
      JSON.stringify(forged),
    ],
    {
      env: { ...process.env, TEMPORAL_CODEC_ENDPOINT: '', TEMPORAL_CODEC_AUTH: '' },
    },
  );

  // The worker's codec refuses it: the workflow task fails, naming why and what to do.
  const failure = await eventually(
    'the entity to refuse the plaintext signal',
    async () => {
      for (const event of (await stack.client.workflow.getHandle(entityId).fetchHistory()).events ?? []) {
        const failure = event.workflowTaskFailedEventAttributes?.failure;
        if (!failure) continue;
        // The failure converter keeps messages in encrypted attributes (they may quote data): read them with the keys.
        if (!failure.encodedAttributes) return failure.message ?? '';
        const [attributes] = await stack.dataConverter.payloadCodecs![0]!.decode(
          [failure.encodedAttributes],
          { type: 'workflow', namespace: stack.namespace, workflowId: entityId },
        );
        return (JSON.parse(Buffer.from(attributes!.data!).toString('utf8')) as { message: string }).message;
      }
      return null;
    },
    60_000,
  );
  expect(failure).toMatch(/not encrypted/);
  expect(failure).toMatch(/XBORDER_CODEC_PLAINTEXT/);
  // Nothing acted on it: the payment is still waiting for funds, at the service and in the workflow.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect((await stack.provider.payments.get(paymentId)).status).toBe('AWAITING_FUNDS');
  expect((await getPaymentState(stack.client, key)).phase).toBe('AWAITING_FUNDS');
});
