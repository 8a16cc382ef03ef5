// A small HTTP endpoint serving a PrometheusRegistry at GET /metrics (for processes without a Temporal worker
// runtime, e.g. the ingress). 127.0.0.1 unless told otherwise.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROMETHEUS_CONTENT_TYPE, type PrometheusRegistry } from './prometheus-registry';

export interface MetricsServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: {
  registry: PrometheusRegistry;
  host?: string;
  port?: number;
}): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?'))) {
      res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE });
      res.end(options.registry.render());
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found; metrics are at /metrics\n');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/metrics`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** "host:port" → parts (XBORDER_METRICS_ADDRESS, XBORDER_INGRESS_METRICS_ADDRESS). */
export function parseBindAddress(value: string): { host: string; port: number } {
  const m = /^(.+):(\d{1,5})$/.exec(value.trim());
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535)
    throw new Error(`not a bind address: "${value}" (expected host:port, e.g. 127.0.0.1:9464)`);
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}
