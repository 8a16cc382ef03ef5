// A backend's receiver of outbound events as docs/backend.md writes it, against the installed package
// (test/package/pack-install.test.ts compiles it against the declarations, then runs it): mounted on Node's http in
// a few lines, it is sent one signed event twice and a tampered one, and prints what it handed over.
import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createEventReceiver,
  InMemoryEventStore,
  isFinalEvent,
  type XborderOutboundEvent,
} from 'xborder/client';

const secret = `whsec_${Buffer.from(createHash('sha256').update('consumer').digest()).toString('base64')}`;
const handled: Array<{ type: string; sequence: number; final: boolean }> = [];

// the mount: a store (your database in production) and your code, called once per change
const receiver = createEventReceiver({
  secrets: secret,
  store: new InMemoryEventStore(),
  onEvent: (event: XborderOutboundEvent) =>
    void handled.push({ type: event.type, sequence: event.sequence, final: isFinalEvent(event) }),
});
const server = createServer(receiver.nodeListener);

/** Standard Webhooks signing, as the worker does it (so this consumer needs nothing but the package). */
function sign(id: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

async function main(): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/xborder-events`;
  const event = {
    id: 'run-1:3',
    type: 'payment.completed',
    version: 1,
    sequence: 3,
    occurredAt: new Date().toISOString(),
    paymentKey: 'order-4000000123-attempt-1',
    data: {
      phase: 'COMPLETED',
      providerPaymentId: 'pay_1',
      providerStatus: 'COMPLETED',
      source: null,
      destination: null,
      fee: null,
      quote: null,
      fundingInstructions: null,
      fundingDeadline: null,
      code: null,
      requotes: 0,
    },
  };
  const body = JSON.stringify(event);
  const statuses: number[] = [];
  for (const b of [body, body, body.replace('COMPLETED', 'FAILED')]) {
    const response = await fetch(url, { method: 'POST', headers: sign(event.id, body), body: b });
    statuses.push(response.status);
  }
  server.close();
  console.log(JSON.stringify({ statuses, handled }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
