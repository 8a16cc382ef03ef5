// Tracing: with the environment's OTLP endpoint, spans leave by OTLP/HTTP (a local server stands in for
// the collector), under the service name, redacted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { trace } from '@opentelemetry/api';
import { installTracingFromEnv } from '../../src/telemetry/tracing';

it('exports spans to OTEL_EXPORTER_OTLP_ENDPOINT when the environment turns tracing on', async () => {
  const received: Array<{ path: string; body: string }> = [];
  const collector = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint; // the exporter reads the standard variables itself
  try {
    expect(installTracingFromEnv('xborder-test', {})).toBeNull(); // off by default
    const tracing = installTracingFromEnv('xborder-test', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(tracing).not.toBeNull();
    trace.getTracer('test').startActiveSpan('provider GET', (span) => {
      span.setAttribute('note', 'for jane.doe@example.com');
      span.end();
    });
    await tracing!.shutdown(); // flushes the batch
  } finally {
    if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  }
  expect(received.map((r) => r.path)).toEqual(['/v1/traces']);
  const body = received[0]!.body;
  expect(body).toContain('provider GET');
  expect(body).toContain('xborder-test');
  expect(body).not.toContain('jane.doe@example.com');
});
