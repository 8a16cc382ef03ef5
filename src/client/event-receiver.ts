// The receiving end of outbound events (docs/outbound-events.md, "Receiving"), so a backend mounts it instead of
// writing it: the signature over the raw bytes (verify-event.ts), dedupe and per-payment order through a store the
// team provides, and the typed event handed to the team's code only once the store accepted it. Framework-neutral:
// `handle(headers, rawBody)` answers a status; `nodeListener` is the same for Node's http (and anything that passes
// (req, res) through untouched).
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  verifyXborderEvent,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
} from './verify-event';
import { isTransferEvent, type XborderOutboundEvent } from '../contract/outbound-events';
import { eventFinality, type EventFinality } from './event-finality';

/** What a store needs of an event to dedupe and order it. */
export interface EventRecord {
  /** the event id (also the `webhook-id` header): the same on every delivery of one change */
  id: string;
  /**
   * The ordered stream the event belongs to: one payment run (`payment:<key>#<first run id>`) or one transfer run;
   * a freed key's later run (docs/backend.md, "Keys") is a new stream whose sequence starts at 1 again. Late events
   * (`payment.moved_after_outcome`) are `payment:<key>#late`, numbered after every earlier event of the key.
   */
  stream: string;
  sequence: number;
}

/** `accepted`: record it, it is new; `duplicate`: its id is recorded; `stale`: its stream holds a later sequence. */
export type StoreDecision = 'accepted' | 'duplicate' | 'stale';

/**
 * The team's durable record of processed events (a table with a unique key on `id`, and the last sequence per
 * stream). `accept` must be atomic: two deliveries of one id at once get one `accepted`.
 */
export interface ProcessedEventStore {
  accept(record: EventRecord): Promise<StoreDecision> | StoreDecision;
  /** Undoes `accept` when the handler failed: the event is answered 500 and accepted when it comes again. */
  release(record: EventRecord): Promise<void> | void;
}

/**
 * An in-memory store: for tests and for the local stack's own receiver. Loses everything on restart (a redelivery
 * is then handed over again): a service uses its database.
 */
export class InMemoryEventStore implements ProcessedEventStore {
  private readonly ids = new Set<string>();
  private readonly last = new Map<string, number>();
  private readonly previous = new Map<string, number | undefined>();

  accept(record: EventRecord): StoreDecision {
    if (this.ids.has(record.id)) return 'duplicate';
    const last = this.last.get(record.stream);
    if (last !== undefined && record.sequence <= last) return 'stale';
    this.ids.add(record.id);
    this.previous.set(record.id, last);
    this.last.set(record.stream, record.sequence);
    return 'accepted';
  }

  release(record: EventRecord): void {
    if (!this.ids.delete(record.id)) return;
    const before = this.previous.get(record.id);
    this.previous.delete(record.id);
    if (before === undefined) this.last.delete(record.stream);
    else this.last.set(record.stream, before);
  }
}

/** What the handler gets besides the event. */
export interface ReceivedEventInfo {
  /** EVENT_FINALITY of its type: `final` is the outcome (src/client/event-finality.ts) */
  finality: EventFinality;
  /** the payment's key, or the transfer's */
  key: string;
  kind: 'payment' | 'transfer';
}

/** createEventReceiver's options: the signing secrets, your store of processed events and your handler. */
export interface EventReceiverOptions {
  /** the endpoint's signing secret, or both during a rotation */
  secrets: string | readonly string[];
  store: ProcessedEventStore;
  /**
   * Your code, called once per change after the store accepted it. Throwing undoes the store's record and
   * answers 500: the event is redelivered, in order (nothing later for this payment is delivered meanwhile).
   */
  onEvent(event: XborderOutboundEvent, info: ReceivedEventInfo): Promise<void> | void;
  verify?: VerifyWebhookOptions;
  /** the largest body read by nodeListener (default 1 MB; an event is about 1 kB) */
  maxBodyBytes?: number;
}

/** What the receiver did with one delivery (ReceiverAnswer.outcome). */
export type ReceiverOutcome = 'processed' | 'duplicate' | 'stale' | 'refused' | 'failed';

/** The receiver's answer to one delivery: the HTTP status to reply with, and why. */
export interface ReceiverAnswer {
  /** 204 processed, duplicate or stale (acknowledged: never sent again); 400 refused; 500 failed (retried) */
  status: 204 | 400 | 413 | 500;
  outcome: ReceiverOutcome;
  /** a short reason for 400/500 (never the body, never a secret) */
  message?: string;
  event?: XborderOutboundEvent;
}

/** A mounted receiver: `handle` for any framework (headers and the raw body), `nodeListener` for Node's http. */
export interface EventReceiver {
  handle(headers: WebhookHeaders, rawBody: string | Uint8Array): Promise<ReceiverAnswer>;
  nodeListener(req: IncomingMessage, res: ServerResponse): void;
}

/** The ordered stream of an event (EventRecord.stream): its id is `<first run id>:<sequence>` but for late ones. */
export function eventStream(event: XborderOutboundEvent): string {
  const key = isTransferEvent(event) ? `transfer:${event.transferKey}` : `payment:${event.paymentKey}`;
  const suffix = `:${event.sequence}`;
  return event.id.endsWith(suffix) ? `${key}#${event.id.slice(0, -suffix.length)}` : `${key}#late`;
}

/**
 * The receiving end of outbound events (docs/outbound-events.md, "Receiving"): verifies each delivery
 * (verifyXborderEvent), dedupes and orders it through the store, then hands it to `onEvent` once.
 */
export function createEventReceiver(options: EventReceiverOptions): EventReceiver {
  const handle = async (headers: WebhookHeaders, rawBody: string | Uint8Array): Promise<ReceiverAnswer> => {
    let event: XborderOutboundEvent;
    try {
      event = verifyXborderEvent(options.secrets, headers, rawBody, options.verify);
    } catch (error) {
      if (error instanceof WebhookVerificationError)
        return { status: 400, outcome: 'refused', message: error.message };
      throw error;
    }
    const record: EventRecord = { id: event.id, stream: eventStream(event), sequence: event.sequence };
    let decision: StoreDecision;
    try {
      decision = await options.store.accept(record);
    } catch (error) {
      return {
        status: 500,
        outcome: 'failed',
        message: `the store failed: ${(error as Error).message}`,
        event,
      };
    }
    if (decision !== 'accepted') return { status: 204, outcome: decision, event };
    const info: ReceivedEventInfo = isTransferEvent(event)
      ? { finality: eventFinality(event.type), key: event.transferKey, kind: 'transfer' }
      : { finality: eventFinality(event.type), key: event.paymentKey, kind: 'payment' };
    try {
      await options.onEvent(event, info);
    } catch (error) {
      await Promise.resolve(options.store.release(record)).catch(() => undefined);
      return {
        status: 500,
        outcome: 'failed',
        message: `the handler failed: ${(error as Error).message}`,
        event,
      };
    }
    return { status: 204, outcome: 'processed', event };
  };

  const maxBodyBytes = options.maxBodyBytes ?? 1_000_000;
  const nodeListener = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const answer = (a: Pick<ReceiverAnswer, 'status' | 'message'>) => {
      if (res.headersSent) return;
      res.writeHead(a.status, a.message ? { 'content-type': 'text/plain; charset=utf-8' } : {});
      res.end(a.message ?? undefined);
    };
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        tooLarge = true;
        answer({ status: 413, message: 'body too large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return;
      handle(req.headers as WebhookHeaders, Buffer.concat(chunks)).then(answer, (error: unknown) =>
        answer({ status: 500, message: `receiver error: ${(error as Error).message}` }),
      );
    });
    req.on('error', () => answer({ status: 400, message: 'the request broke off' }));
  };
  return { handle, nodeListener };
}
