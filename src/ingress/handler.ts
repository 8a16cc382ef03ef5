// The framework-free webhook handler: (headers, rawBody) → { status, body }.
// Verify the signature, refuse stale/forged/oversized events, drop duplicates, and route each event to
// its entity workflow. 2xx only once Temporal accepted the signal; 5xx otherwise so the sender retries
// (spec: Events 5 says nothing of delivery; our assumptions are in docs/spec-gaps.md, "Ingress", with a table of
// what each answer means). A validly signed body over `maxBodyBytes` is taken, not refused: a sender does not
// retry a 4xx, so a 4xx is only for what is not ours (unsigned, forged) or what a retry cannot fix.
import { createHash } from 'node:crypto';
import { refuseKnownSecret } from '../security/known-secrets';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { type WebhookEvent, WebhookEventSchema } from '../contract';
import { LEGACY_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../contract/events';
import { parseJsonText } from '../contract/json';
import { internalEventIdPrefix } from '../../workflows/internal-event-ids';
import { checkWebhookHeaders, verifyWebhook, type WebhookHeaders } from '../provider/webhook-signature';
import { RecentIds } from './dedupe';
import { TemporalUnavailableError, type EventRouter } from './routing';

export interface WebhookResponse {
  status: number;
  body: { ok: boolean; code: string; message: string; eventId?: string; routedTo?: string };
}

export interface IngressCounters {
  accepted: number;
  duplicate: number;
  rejected: number;
  ignored: number;
  failed: number;
}

export interface WebhookHandlerOptions {
  /** One secret or several during a rotation (`whsec_…`). From the environment, never from code. */
  secrets: readonly string[];
  router: EventRouter;
  toleranceSec?: number;
  /** Bodies over this are refused (413) unless validly signed: a signed one is taken (default 1 MiB). */
  maxBodyBytes?: number;
  /**
   * Bodies over this are never read, signed or not: answered 503 so the sender retries and the `failed` count
   * shows it — never a silent 4xx for an event we could not take (default 16 MiB).
   */
  maxSignedBodyBytes?: number;
  /** Called once per outcome for logs and metrics; never receives the body or secrets. */
  onOutcome?: (
    outcome: keyof IngressCounters,
    detail: { eventId?: string; type?: string; message: string },
  ) => void;
}

export const DEFAULT_MAX_WEBHOOK_BYTES = 1024 * 1024;
export const DEFAULT_MAX_SIGNED_WEBHOOK_BYTES = 16 * 1024 * 1024;

/**
 * What the ingress accepts: the contract's envelope, read leniently because the real envelope is "not shown"
 * (spec: Events 5). A signed event without `id` takes the `webhook-id` header's; `createdAt` may be any timestamp
 * text. Refusing such an event with 4xx would lose it: senders do not retry a 4xx.
 */
const IngressEventSchema = WebhookEventSchema.extend({
  id: z.string().min(1).optional(),
  createdAt: z.string().optional(),
});

/** The secrets must decode now: a typo found at the first webhook would refuse every event, old secret or new. */
function checkSecrets(secrets: readonly string[]): void {
  if (secrets.length === 0) throw new Error('The webhook ingress needs at least one webhook secret.');
  for (const [i, secret] of secrets.entries()) {
    const key = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : '';
    if (!key || Buffer.from(key, 'base64').length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) {
      throw new Error(
        `Webhook secret #${i + 1} is not of the form whsec_<base64> (check XBORDER_WEBHOOK_SECRETS).`,
      );
    }
    // Every entry holds the same line as the environment's (src/security/known-secrets.ts): a published key in any
    // spelling, or a key outside Standard Webhooks' 24–64 bytes, never verifies anything.
    refuseKnownSecret(`Webhook secret #${i + 1}`, secret, 'webhook-secret');
  }
}

export interface WebhookHandler {
  (headers: WebhookHeaders, rawBody: string | Uint8Array): Promise<WebhookResponse>;
  counters: IngressCounters;
  /**
   * The answer for headers that cannot belong to a signed webhook (missing, malformed, outside the timestamp
   * window): 401, counted; null when the body is worth reading. A server calls it before it reads the body.
   */
  checkHeaders(headers: WebhookHeaders): WebhookResponse | null;
  /** The answer for a body the server did not read to its end (too large, over the memory budget, too slow), counted. */
  notRead(status: 408 | 413 | 503, code: string, message: string): WebhookResponse;
}

export function createWebhookHandler(options: WebhookHandlerOptions): WebhookHandler {
  checkSecrets(options.secrets);
  const recent = new RecentIds();
  const counters: IngressCounters = { accepted: 0, duplicate: 0, rejected: 0, ignored: 0, failed: 0 };
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_WEBHOOK_BYTES;
  const maxSignedBytes = Math.max(maxBytes, options.maxSignedBodyBytes ?? DEFAULT_MAX_SIGNED_WEBHOOK_BYTES);
  const answer = answerCounting(counters, options);

  const checkHeaders = (headers: WebhookHeaders): WebhookResponse | null => {
    try {
      checkWebhookHeaders(headers, { toleranceSec: options.toleranceSec });
      return null;
    } catch (error) {
      return answer('rejected', 401, 'INVALID_SIGNATURE', (error as Error).message);
    }
  };

  const handle = async (headers: WebhookHeaders, rawBody: string | Uint8Array): Promise<WebhookResponse> => {
    // Headers first: what cannot be signed is refused before the body is measured, decoded or hashed.
    const refused = checkHeaders(headers);
    if (refused) return refused;
    const read = readEvent(headers, rawBody, { options, maxBytes, maxSignedBytes, answer });
    if ('refused' in read) return read.refused;
    const { event } = read;
    const reserved = refuseReservedId(event, answer);
    if (reserved) return reserved;
    if (recent.has(event.id)) {
      return answer('duplicate', 200, 'DUPLICATE', 'event already accepted', {
        eventId: event.id,
        type: event.type,
      });
    }
    return deliverEvent(event, options.router, recent, answer);
  };
  // One span per webhook received; the signal's client span (and so the entity workflow) is its child.
  // A no-op while tracing is off.
  const handler = (headers: WebhookHeaders, rawBody: string | Uint8Array): Promise<WebhookResponse> =>
    trace.getTracer('xborder-ingress').startActiveSpan('webhook', { kind: SpanKind.SERVER }, async (span) => {
      try {
        return await handle(headers, rawBody);
      } finally {
        span.end();
      }
    });
  const notRead = (status: 408 | 413 | 503, code: string, message: string): WebhookResponse =>
    answer(status === 408 ? 'rejected' : 'failed', status, code, message);
  return Object.assign(handler, { counters, checkHeaders, notRead });
}

/** An answer, counted, reported to onOutcome and set on the webhook's span. */
type Answer = (
  outcome: keyof IngressCounters,
  status: number,
  code: string,
  message: string,
  extra?: { eventId?: string; type?: string; routedTo?: string },
) => WebhookResponse;

function answerCounting(counters: IngressCounters, options: WebhookHandlerOptions): Answer {
  return (outcome, status, code, message, extra = {}) => {
    counters[outcome]++;
    options.onOutcome?.(outcome, { eventId: extra.eventId, type: extra.type, message });
    // the webhook's span (ids and codes only; never the body or the message, which may quote it)
    const span = trace.getActiveSpan();
    if (span) {
      span.setAttributes({
        'http.response.status_code': status,
        'xborder.webhook.outcome': outcome,
        'xborder.webhook.code': code,
        ...(extra.eventId ? { 'xborder.webhook.event_id': extra.eventId } : {}),
        ...(extra.type ? { 'xborder.webhook.event_type': extra.type } : {}),
        ...(extra.routedTo ? { 'xborder.webhook.routed_to': extra.routedTo } : {}),
      });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    }
    const body: WebhookResponse['body'] = { ok: status < 300, code, message };
    if (extra.eventId) body.eventId = extra.eventId;
    if (extra.routedTo) body.routedTo = extra.routedTo;
    return { status, body };
  };
}

/**
 * The event of a body whose headers passed: its size, signature, JSON and envelope checked; or the answer that
 * refuses it.
 */
function readEvent(
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  limits: { options: WebhookHandlerOptions; maxBytes: number; maxSignedBytes: number; answer: Answer },
): { event: WebhookEvent & { id: string; createdAt: string } } | { refused: WebhookResponse } {
  const { options, maxBytes, maxSignedBytes, answer } = limits;
  const size = typeof rawBody === 'string' ? Buffer.byteLength(rawBody) : rawBody.byteLength;
  if (size > maxSignedBytes)
    return {
      refused: answer(
        'failed',
        503,
        'PAYLOAD_TOO_LARGE',
        `body over ${maxSignedBytes} bytes, not read; retry`,
      ),
    };

  let webhookId: string;
  try {
    webhookId = verifyWebhook(headers, rawBody, options.secrets, { toleranceSec: options.toleranceSec }).id;
  } catch (error) {
    // Unsigned and large: refused without more work. Signed and large: taken below (the sender would not
    // retry a 4xx, and the event would be lost).
    if (size > maxBytes)
      return { refused: answer('rejected', 413, 'PAYLOAD_TOO_LARGE', `body over ${maxBytes} bytes`) };
    return { refused: answer('rejected', 401, 'INVALID_SIGNATURE', (error as Error).message) };
  }

  let json: unknown;
  try {
    // prototype keys dropped at every depth (parseJsonText: why)
    json = parseJsonText(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));
  } catch {
    return { refused: answer('rejected', 400, 'MALFORMED_JSON', 'body is not JSON') };
  }
  const parsed = IngressEventSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return {
      refused: answer(
        'rejected',
        400,
        'INVALID_EVENT',
        `event envelope does not match the contract: ${where}`,
      ),
    };
  }
  // The envelope id and the webhook-id are the same event; dedupe on the envelope id, fall back to the header.
  const eventId = parsed.data.id ?? webhookId;
  return {
    event: { ...parsed.data, id: eventId, createdAt: parsed.data.createdAt ?? new Date().toISOString() },
  };
}

/** Routes a new event and signals its workflow: 2xx only once Temporal accepted the signal, else 5xx. */
/**
 * An id xborder's own producers use would make the entity drop their event as a duplicate
 * (workflows/internal-event-ids.ts). Refused before the dedupe and never remembered; a retry cannot fix it, hence a
 * 4xx. The body is not logged, nor the id as sent: whatever follows the prefix is the sender's text (any length,
 * line breaks, data), so the answer, the log and the span carry only the prefix, which is ours, and a hash of the id,
 * which the sender can match against its own (SECURITY.md, "The webhook ingress").
 */
const LISTED_TYPES: ReadonlySet<string> = new Set([...WEBHOOK_EVENT_TYPES, ...LEGACY_WEBHOOK_EVENT_TYPES]);
/** The event type as logged with a refusal: one the spec lists, else a placeholder (the rest is the sender's text). */
function listedTypeOr(type: string): string {
  return LISTED_TYPES.has(type) ? type : '[unlisted type]';
}

function refuseReservedId(event: { id: string; type: string }, answer: Answer): WebhookResponse | null {
  const reserved = internalEventIdPrefix(event.id);
  if (reserved === undefined) return null;
  const hash = createHash('sha256').update(event.id, 'utf8').digest('hex').slice(0, 16);
  return answer(
    'rejected',
    422,
    'RESERVED_EVENT_ID',
    `event id starts with "${reserved}", a prefix xborder uses for its own events: refused so it cannot be taken for one`,
    { eventId: `${reserved}[sha256:${hash}]`, type: listedTypeOr(event.type) },
  );
}

async function deliverEvent(
  event: WebhookEvent,
  router: EventRouter,
  recent: RecentIds,
  answer: Answer,
): Promise<WebhookResponse> {
  const eventId = event.id;
  const route = router.route(event);
  if (!route) {
    recent.add(eventId);
    return answer('ignored', 202, 'IGNORED', `no workflow follows ${event.type} events`, {
      eventId,
      type: event.type,
    });
  }
  try {
    await route.deliver();
  } catch (error) {
    // Signed callers only reach this far; still, a connection failure's text (which may quote configuration) is
    // logged through onOutcome, not answered.
    if (error instanceof TemporalUnavailableError) {
      return answer('failed', 503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not reachable; retry later', {
        eventId,
        type: event.type,
      });
    }
    return answer(
      'failed',
      503,
      'DELIVERY_FAILED',
      `Temporal did not accept the signal: ${(error as Error).message}`,
      {
        eventId,
        type: event.type,
      },
    );
  }
  recent.add(eventId);
  return answer('accepted', 200, 'ACCEPTED', `delivered to ${route.workflowId}`, {
    eventId,
    type: event.type,
    routedTo: route.workflowId,
  });
}
