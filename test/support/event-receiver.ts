// A backend's event endpoint for tests: a Node http server on 127.0.0.1 that verifies each delivery with
// verifyXborderEvent and answers as the test scripts it (accept, a status, hang past the sender's timeout).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { freePort } from '../../src/cli/port-check';
import { verifyXborderEvent } from '../../src/client/verify-event';
import type { XborderOutboundEvent } from '../../src/contract';

/** What the receiver does with one delivery: 'ok' (204), a status, or 'hang' (no answer until close). */
export type Answer = 'ok' | number | 'hang';

export interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** the verified event, or the refusal's message */
  event: XborderOutboundEvent | null;
  refused: string | null;
  answered: Answer;
}

export class EventReceiver {
  readonly deliveries: Delivery[] = [];
  /** answers for the next deliveries, in order; then `fallback` */
  readonly script: Answer[] = [];
  fallback: Answer = 'ok';
  private server?: Server;
  private readonly hanging = new Set<() => void>();
  url = '';

  constructor(readonly secrets: readonly string[]) {}

  /** The events answered 2xx, in the order they were accepted. */
  accepted(): XborderOutboundEvent[] {
    return this.deliveries.filter((d) => d.answered === 'ok' && d.event).map((d) => d.event!);
  }

  async start(): Promise<this> {
    const port = await freePort();
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        let event: XborderOutboundEvent | null = null;
        let refused: string | null = null;
        try {
          event = verifyXborderEvent(this.secrets, req.headers, body);
        } catch (err) {
          refused = (err as Error).message;
        }
        const answered: Answer = refused ? 400 : (this.script.shift() ?? this.fallback);
        this.deliveries.push({ headers: req.headers, body, event, refused, answered });
        if (answered === 'hang') {
          this.hanging.add(() => res.destroy());
          return;
        }
        res.writeHead(answered === 'ok' ? 204 : answered).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}/events`;
    return this;
  }

  async stop(): Promise<void> {
    for (const release of this.hanging) release();
    this.hanging.clear();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
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
