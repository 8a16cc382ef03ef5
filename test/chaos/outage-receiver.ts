// The backend's event endpoint in the "receiver outage" chaos scenario: a Node http server on 127.0.0.1 that
// verifies each delivery (verifyXborderEvent, a secret made for the run) and records it, and that can be taken
// down: answering 503 (a deploy, an overloaded backend) or gone (connection refused), then back on the same port.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { freePort } from '../../src/cli/port-check';
import { verifyXborderEvent } from '../../src/client/verify-event';
import type { XborderOutboundEvent } from '../../src/contract';

export type ReceiverMode = 'up' | '503' | 'gone';

export class OutageReceiver {
  /** events answered 2xx, in the order they were accepted (a redelivery of one already accepted included) */
  readonly accepted: XborderOutboundEvent[] = [];
  /** deliveries answered 503 or refused by verification */
  refusedDeliveries = 0;
  unverified = 0;
  /** every request that reached it */
  attempts = 0;
  mode: ReceiverMode = 'up';
  /** made for the run, never written down: no secret of the repository ever runs */
  readonly secret = `whsec_${randomBytes(32).toString('base64')}`;
  private server?: Server;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/events`;
  }

  /** What the worker needs to call it (docs/outbound-events.md, "Turning it on"). */
  workerEnv(): Record<string, string> {
    return { XBORDER_EVENTS_URL: this.url, XBORDER_EVENTS_SECRETS: this.secret };
  }

  async start(): Promise<this> {
    this.port = await freePort();
    await this.listen();
    return this;
  }

  /** 503 or gone until `up()`. */
  async down(mode: Exclude<ReceiverMode, 'up'>): Promise<void> {
    this.mode = mode;
    if (mode === 'gone') await this.close();
  }

  async up(): Promise<void> {
    if (this.mode === 'gone') await this.listen();
    this.mode = 'up';
  }

  async stop(): Promise<void> {
    await this.close();
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      this.attempts++;
      void readBody(req).then((body) => {
        if (this.mode !== 'up') {
          this.refusedDeliveries++;
          res.writeHead(503).end();
          return;
        }
        try {
          this.accepted.push(verifyXborderEvent(this.secret, req.headers, body));
          res.writeHead(204).end();
        } catch {
          this.unverified++;
          res.writeHead(400).end();
        }
      });
    });
    return new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
