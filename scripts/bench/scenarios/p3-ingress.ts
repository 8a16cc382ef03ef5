// P3: webhook → signal accepted through the ingress (HTTP, signature, envelope, dedupe, route,
// signalWithStart) against the bare signalWithStart of the same payload, at a steady bounded rate, interleaved
// tick by tick so both see the same machine. The target workflows sit on a task queue no worker polls: only
// the acceptance of the signal is measured, not what a workflow does with it.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import got from 'got';
import { createTemporalRouter, createWebhookHandler, startIngressServer } from '../../../src/ingress';
import { paymentOf } from '../../../src/ingress/routing';
import { signWebhook } from '../../../src/provider/webhook-signature';
import { signalWithStartProviderPayment } from '../../../workflows/provider-payment/api';
import type { BenchContext } from '../context';
import { percentile, sleep } from '../stats';

const TARGETS = 50;

function paymentData(id: string) {
  return {
    id,
    type: 'PAYOUT',
    status: 'AWAITING_FUNDS',
    customerId: 'cus_demo_individual',
    createdAt: new Date().toISOString(),
    source: {
      currencyCode: 'USDC',
      amount: 100,
      rail: 'POLYGON',
      fromAddress: '0x1111111111111111111111111111111111111111',
    },
    destination: { currencyCode: 'BRL', amount: 512.34, rail: 'PIX', accountId: 'acc_demo_brl_bank' },
    quote: { exchangeRate: 5.1234, expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
    reference: 'bench-p3',
    paymentReason: 'PERSONAL_TRANSFERS',
  };
}

export async function runP3(ctx: BenchContext): Promise<void> {
  const { rate, events } = ctx.options;
  const taskQueue = `bench-p3-nopoll-${randomUUID().slice(0, 8)}`;
  const secret = ctx.stack.webhookSecret;
  const client = ctx.stack.client;
  const ingress = await startIngressServer({
    handler: createWebhookHandler({ secrets: [secret], router: createTemporalRouter(client, taskQueue) }),
    port: 0,
    host: '127.0.0.1',
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const run = randomUUID().slice(0, 6);
  const viaIngress: number[] = [];
  const bare: number[] = [];
  const failures: string[] = [];
  /** answered 503 OVERLOADED: more than the ingress's maxInFlight were waiting on Temporal (node-server.ts) */
  let shed = 0;

  const sendIngress = async (i: number) => {
    const eventId = `evt_bench_${run}_i${i}`;
    const raw = JSON.stringify({
      id: eventId,
      type: 'payment.updated',
      createdAt: new Date().toISOString(),
      data: paymentData(`pay_bench_${run}_i${i % TARGETS}`),
    });
    const at = Math.floor(Date.now() / 1000);
    const began = performance.now();
    const response = await got.post(ingress.webhookUrl, {
      body: raw,
      headers: {
        'content-type': 'application/json',
        'webhook-id': eventId,
        'webhook-timestamp': String(at),
        'webhook-signature': signWebhook(secret, eventId, at, raw),
      },
      agent: { http: agent },
      retry: { limit: 0 },
      throwHttpErrors: false,
    });
    if (response.statusCode === 503 && response.body.includes('"OVERLOADED"')) return void shed++; // not a latency: counted below
    if (response.statusCode !== 200)
      throw new Error(`ingress answered ${response.statusCode}: ${response.body}`);
    viaIngress.push(performance.now() - began);
  };
  const sendBare = async (i: number) => {
    const eventId = `evt_bench_${run}_b${i}`;
    const id = `pay_bench_${run}_b${i % TARGETS}`;
    const began = performance.now();
    // the same front door and payload as the ingress's (its own parse, paymentOf), without the HTTP hop and the
    // signature check
    const createdAt = new Date().toISOString();
    const payment = paymentOf({ id: eventId, type: 'payment.updated', createdAt, data: paymentData(id) });
    await signalWithStartProviderPayment(client, {
      taskQueue,
      input: { providerPaymentId: id },
      event: { eventId, type: 'payment.updated', createdAt, payment },
    });
    bare.push(performance.now() - began);
  };

  try {
    const inFlight: Array<Promise<void>> = [];
    const began = performance.now();
    for (let i = 0; i < events; i++) {
      const due = began + (i * 1000) / rate; // open loop: a slow answer does not slow the sender
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const record = (p: Promise<void>) => p.catch((error: unknown) => void failures.push(String(error)));
      // alternate which goes first so neither always gets the head of the tick
      const pair =
        i % 2 === 0 ? [() => sendIngress(i), () => sendBare(i)] : [() => sendBare(i), () => sendIngress(i)];
      inFlight.push(record(pair[0]!()), record(pair[1]!()));
      if (i % 20 === 0) ctx.progress.update(`P3: ${i}/${events} events at ${rate}/s (each way)`);
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
    await ingress.close();
  }
  if (failures.length > 0) ctx.notes.push(`P3: ${failures.length} sends failed, first: ${failures[0]}`);
  ctx.progress.log(
    `P3: ingress p99 ${percentile(viaIngress, 99).toFixed(1)} ms, bare p99 ${percentile(bare, 99).toFixed(1)} ms`,
  );
  ctx.row({
    scenario: 'P3',
    figure: `webhook → signal accepted p50 (${events} at ${rate}/s each way)`,
    value: percentile(viaIngress, 50),
    baseline: percentile(bare, 50),
    ratioLabel: 'ingress / bare signalWithStart',
    unit: 'ms',
  });
  ctx.row({
    scenario: 'P3',
    figure: `webhook → signal accepted p99`,
    value: percentile(viaIngress, 99),
    baseline: percentile(bare, 99),
    ratioLabel: 'ingress / bare signalWithStart',
    unit: 'ms',
  });
  ctx.row({
    scenario: 'P3',
    figure: `webhooks the ingress answered 503 OVERLOADED (more than its limit waiting on Temporal; not in the latencies)`,
    value: shed,
    baseline: events,
    ratioLabel: 'shed / sent',
    unit: '',
  });
}
