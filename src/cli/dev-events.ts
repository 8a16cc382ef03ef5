// The local stack's own receiver of outbound events (`xborder dev`): unless XBORDER_EVENTS_URL points the worker at
// the developer's endpoint, payments started with `events: {}` deliver here, and each event is logged on one line,
// so events are on from the first `npm start` and nothing waits silently as EVENT_ENDPOINT_NOT_CONFIGURED. It is the
// receiver xborder/client exports (src/client/event-receiver.ts), with the in-memory store. Its signing secret is
// generated once into <data-dir>/events-secret (0600), never printed: a developer's own receiver reads it there.
import { createServer, type Server } from 'node:http';
import { createEventReceiver, InMemoryEventStore } from '../client/event-receiver';
import { isTransferEvent } from '../contract/outbound-events';
import type { EventDeliveryConfig } from '../../activities/event-delivery-activities';

export const DEFAULT_EVENTS_PORT = 4040;

export interface DevEventReceiver {
  /** where the worker sends events: http://127.0.0.1:<port>/events */
  url: string;
  /** the worker's configuration: this receiver as the default endpoint */
  config: EventDeliveryConfig;
  close(): Promise<void>;
}

export async function startDevEventReceiver(options: {
  port: number;
  secret: string;
  log: (line: string) => void;
}): Promise<DevEventReceiver> {
  const receiver = createEventReceiver({
    secrets: options.secret,
    store: new InMemoryEventStore(),
    // ids, types, sequence numbers and codes only: no amounts or addresses in the log
    onEvent: (event, info) => {
      const key = isTransferEvent(event) ? `transfer ${event.transferKey}` : `payment ${event.paymentKey}`;
      const code = event.data.code ? ` ${event.data.code}` : '';
      options.log(
        `event #${event.sequence} ${event.type}${code} (${key}${info.finality === 'final' ? ', final' : ''})`,
      );
    },
  });
  const server: Server = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/events') {
      res.writeHead(404).end();
      return;
    }
    receiver.nodeListener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://127.0.0.1:${port}/events`;
  return {
    url,
    config: { defaultEndpoint: { url, secrets: [options.secret] }, endpoints: [] },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
