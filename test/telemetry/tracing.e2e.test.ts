// Traces end to end: one payment's span tree, from the client's startPayment through the workflow and
// its activities to the provider HTTP call, whose `traceparent` a recording proxy in front of the sandbox sees.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import got from 'got';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { createProviderClient } from '../../src/provider';
import { installTracing, type Tracing } from '../../src/telemetry/tracing';
import { startXborderWorker, type RunningWorker } from '../../workers/worker';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { eventually, startTestStack, uniqueKey } from '../e2e/stack-support';
import { DEMO_WALLET, demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(180_000);

interface SeenRequest {
  method: string;
  path: string;
  traceparent: string | undefined;
}

/** Forwards to the sandbox and records each request's traceparent (test-only: the sandbox itself ignores it). */
async function startRecordingProxy(
  target: string,
): Promise<{ url: string; seen: SeenRequest[]; close(): Promise<void> }> {
  const seen: SeenRequest[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const header = req.headers.traceparent;
    seen.push({
      method: req.method ?? '?',
      path: req.url ?? '',
      traceparent: Array.isArray(header) ? header[0] : header,
    });
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
let stack: LocalStack;
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  // before the stack: its client (connectClient) and our worker pick the installed tracing up
  tracing = installTracing({ serviceName: 'xborder-test', spanProcessor: new SimpleSpanProcessor(exporter) });
  stack = await startTestStack({ worker: false, sandbox: { demoData: true } });
  proxy = await startRecordingProxy(stack.sandbox.url);
  const provider = createProviderClient({
    baseUrl: proxy.url,
    apiKey: stack.apiKey,
    asOf: () => stack.sandbox.clock.now(),
  });
  worker = await startXborderWorker({
    temporal: { address: stack.temporal.address, namespace: stack.namespace },
    taskQueue: stack.taskQueue,
    provider,
    dataConverter: stack.dataConverter,
  });
});

afterAll(async () => {
  await worker?.shutdown().catch(() => undefined);
  await stack?.close();
  await proxy?.close();
  await tracing?.shutdown();
});

const byId = (spans: ReadableSpan[]) => new Map(spans.map((s) => [s.spanContext().spanId, s]));

/** The chain of span names from `span` up to its trace's root. */
function ancestry(span: ReadableSpan, index: Map<string, ReadableSpan>): string[] {
  const names: string[] = [];
  for (let s: ReadableSpan | undefined = span; s; s = s.parentSpanId ? index.get(s.parentSpanId) : undefined)
    names.push(s.name);
  return names;
}

it("traces one payment from startPayment to the provider's HTTP call, which carries the traceparent", async () => {
  const key = uniqueKey('trace');
  const fromAddress = DEMO_WALLET;
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key),
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  expect((await started.result()).outcome).toBe('COMPLETED');

  // workflow spans reach the exporter through the worker's sink, when the workflow run has ended
  const spans = await eventually('the payment workflow span', async () => {
    const all = exporter.getFinishedSpans();
    return all.some((s) => s.name === 'RunWorkflow:payment') ? all : null;
  });
  const root = spans.find(
    (s) => s.name === 'startPayment' && s.attributes.temporalWorkflowId === started.workflowId,
  );
  expect(root).toBeDefined();
  const traceId = root!.spanContext().traceId;
  const trace = spans.filter((s) => s.spanContext().traceId === traceId);
  const index = byId(trace);

  // the POST that created the provider payment, as the service received it: its traceparent names the trace and
  // the provider span, whose ancestry is activity ← workflow ← client start ← startPayment
  const received = proxy.seen.find((r) => r.method === 'POST' && r.path.startsWith('/v1/payments'));
  const [version, sentTraceId, parentSpanId, flags] = (received?.traceparent ?? '').split('-');
  expect({ version, sentTraceId, flags }).toEqual({ version: '00', sentTraceId: traceId, flags: '01' });
  const post = index.get(parentSpanId!);
  expect(post?.name).toBe('provider POST');
  expect(String(post!.attributes['url.path'])).toMatch(/\/payments$/);
  expect(ancestry(post!, index)).toEqual([
    'provider POST',
    'RunActivity:createPaymentAndFollow',
    'StartActivity:createPaymentAndFollow',
    'RunWorkflow:payment',
    'UpdateWithStartWorkflow:awaitCreatedForRequest',
    'startPayment',
  ]);

  // every provider call the payment's activities made is in the trace, each sent with its own span's traceparent
  const providerSpans = trace.filter((s) => s.name.startsWith('provider '));
  expect(providerSpans.length).toBeGreaterThanOrEqual(2); // at least the rate and the create
  const sentParents = new Set(proxy.seen.map((r) => r.traceparent?.split('-')[2]));
  for (const span of providerSpans) expect(sentParents).toContain(span.spanContext().spanId);

  // a webhook about the payment is the root of its own trace: webhook → signalWithStart of the entity
  const entityId = providerPaymentWorkflowId(started.created.providerPaymentId);
  const webhook = await eventually('a webhook span routed to the entity', async () =>
    exporter
      .getFinishedSpans()
      .find((s) => s.name === 'webhook' && s.attributes['xborder.webhook.routed_to'] === entityId),
  );
  expect(webhook.attributes).toMatchObject({
    'xborder.webhook.outcome': 'accepted',
    'http.response.status_code': 200,
  });
  expect(webhook.parentSpanId).toBeUndefined();
  const signal = exporter
    .getFinishedSpans()
    .find(
      (s) =>
        s.name === 'SignalWithStartWorkflow:providerPayment' &&
        s.parentSpanId === webhook.spanContext().spanId,
    );
  expect(signal).toBeDefined();

  // no personal data in any span of the run: names, emails, birth dates, account numbers, wallet addresses
  const everything = JSON.stringify(
    exporter
      .getFinishedSpans()
      .map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
  );
  for (const personal of [
    'Jane',
    'Doe',
    'jane.doe@example.com',
    '1990-05-15',
    '123456789',
    'joao@example.com.br',
    fromAddress,
  ])
    expect(everything).not.toContain(personal);
});
