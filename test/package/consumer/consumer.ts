// A backend service as a user of the installed package writes it (test/package/pack-install.test.ts compiles it
// against the package's declarations, then runs it): client entry only, types from the client entry.
import {
  connectClientFromEnv,
  startPayment,
  type PaymentCreated,
  type PaymentRequest,
  type StartPaymentInput,
} from 'xborder/client';
import { validatePaymentRequest } from 'xborder/contract';

async function main(): Promise<void> {
  const request = JSON.parse(process.env.CONSUMER_REQUEST ?? '{}') as PaymentRequest;
  const violations = validatePaymentRequest(request, new Date());
  if (violations.length > 0) throw new Error(`invalid request: ${JSON.stringify(violations)}`);
  const client = await connectClientFromEnv(); // temporal.toml / TEMPORAL_*, XBORDER_CODEC_KEYS(_FILE)
  try {
    const input: StartPaymentInput = { paymentKey: process.env.CONSUMER_PAYMENT_KEY ?? 'consumer', request };
    const started = await startPayment(client, input, {
      taskQueue: process.env.XBORDER_TASK_QUEUE ?? 'xborder',
    });
    const created: PaymentCreated = started.created;
    const workerLoaded = Object.keys(require.cache).some((file) => file.includes('@temporalio/worker'));
    console.log(JSON.stringify({ outcome: created.outcome, workflowId: started.workflowId, workerLoaded }));
  } finally {
    await client.connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
