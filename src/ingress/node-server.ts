// Node HTTP adapter of the webhook handler: POST <path> with the raw body; GET /health.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_SIGNED_WEBHOOK_BYTES, DEFAULT_MAX_WEBHOOK_BYTES, type WebhookHandler } from './handler';

export interface IngressServerOptions {
  handler: WebhookHandler;
  host?: string;
  port?: number;
  path?: string;
  maxBodyBytes?: number;
  /** read at most this much of a body (the handler takes a signed body up to it): see WebhookHandlerOptions */
  maxSignedBodyBytes?: number;
}

export interface IngressServer {
  url: string;
  webhookUrl: string;
  close(): Promise<void>;
}

export async function startIngressServer(options: IngressServerOptions): Promise<IngressServer> {
  const path = options.path ?? '/webhooks';
  // The handler decides on bodies up to the signed limit (signed → taken, unsigned over maxBodyBytes → 413).
  const maxBytes = Math.max(
    options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES,
    options.maxSignedBodyBytes ?? DEFAULT_MAX_SIGNED_WEBHOOK_BYTES,
  );
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/health') return send(200, { ok: true, counters: options.handler.counters });
    if (req.url?.split('?')[0] !== path) return send(404, { ok: false, code: 'NOT_FOUND', message: `POST webhooks to ${path}` });
    if (req.method !== 'POST') return send(405, { ok: false, code: 'METHOD_NOT_ALLOWED', message: 'POST only' });

    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      // Not read, so not verified: 503 (the sender retries; the answer is logged), never a silent 4xx.
      if (tooLarge) return send(503, { ok: false, code: 'PAYLOAD_TOO_LARGE', message: `body over ${maxBytes} bytes, not read; retry` });
      options.handler(req.headers, Buffer.concat(chunks)).then(
        (result) => send(result.status, result.body),
        (error: Error) => send(500, { ok: false, code: 'INTERNAL_ERROR', message: error.message }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    webhookUrl: `${url}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
