// A signed webhook may not take an event id xborder's own producers use (docs/spec-gaps.md, "Ingress"): the entity
// dedupes events by id, so a push whose id is `reconcile:<payment>:<status>` or `observed:<payment>:<status>:<stamps>`
// would make it drop the reconcile sweep's or the payment's own read of that state as a duplicate. The ingress refuses it.
import { createHash, randomBytes } from 'node:crypto';
import type { Payment } from '../../src/contract';
import { createWebhookHandler, type EventRouter } from '../../src/ingress';
import { signWebhook } from '../../src/provider/webhook-signature';
import {
  INTERNAL_EVENT_ID_PREFIXES,
  internalEventIdPrefix,
  reconcileEventId,
} from '../../workflows/internal-event-ids';
import { observedEvent } from '../../workflows/provider-payment/tell-entity';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const AT = () => Math.floor(Date.now() / 1000);

function signed(body: unknown, webhookId = `msg_${randomBytes(6).toString('hex')}`) {
  const raw = JSON.stringify(body);
  const at = AT();
  return {
    headers: {
      'webhook-id': webhookId,
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(SECRET, webhookId, at, raw),
    },
    raw,
  };
}

const PAYMENT = { id: 'pay_squat', status: 'COMPLETED', customerName: 'Ana Silva' };
const event = (id: string | undefined) => ({
  ...(id === undefined ? {} : { id }),
  type: 'payment.updated',
  createdAt: new Date().toISOString(),
  data: PAYMENT,
});

function setup() {
  const delivered: string[] = [];
  const logged: string[] = [];
  const router: EventRouter = {
    route: (e) => ({
      workflowId: `provider-payment:${String(e.data.id)}`,
      deliver: async () => void delivered.push(e.id),
    }),
  };
  const handler = createWebhookHandler({
    secrets: [SECRET],
    router,
    onOutcome: (outcome, detail) => logged.push(JSON.stringify({ outcome, ...detail })),
  });
  return { handler, delivered, logged };
}

// the ids the producers write: the reconcile sweep's (activities/reconcile-activities.ts) and the payment's own read
const squatted = [
  `reconcile:${PAYMENT.id}:COMPLETED`,
  observedEvent({ id: PAYMENT.id, status: 'COMPLETED', lifecycle: {} } as Payment).eventId,
];

it.each(squatted)(
  'refuses a signed webhook whose event id is an internal one (%s): 4xx, counted, never delivered',
  async (id) => {
    const { handler, delivered, logged } = setup();
    const { headers, raw } = signed(event(id));
    const answer = await handler(headers, raw);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.code).toBe('RESERVED_EVENT_ID');
    expect(delivered).toEqual([]);
    expect(handler.counters).toMatchObject({ rejected: 1, accepted: 0 });
    // logged without the body
    expect(logged.join('\n')).not.toContain('Ana Silva');
    expect(logged.join('\n')).toContain('rejected');
  },
);

it('refuses it when the id comes from the webhook-id header (an envelope without id)', async () => {
  const { handler, delivered } = setup();
  const { headers, raw } = signed(event(undefined), squatted[0]);
  expect((await handler(headers, raw)).body.code).toBe('RESERVED_EVENT_ID');
  expect(delivered).toEqual([]);
});

it("still takes the service's own ids, and ids that merely contain an internal prefix further in", async () => {
  const { handler, delivered } = setup();
  for (const id of ['evt_01JABC', 'evt_reconcile:x', 'Reconcile-like', 'msg_observed:pay_1']) {
    const { headers, raw } = signed(event(id));
    expect((await handler(headers, raw)).status).toBe(200);
  }
  expect(delivered).toHaveLength(4);
});

it('refuses every listed prefix, and every id the producers write starts with one', async () => {
  const { handler, delivered } = setup();
  for (const prefix of Object.values(INTERNAL_EVENT_ID_PREFIXES)) {
    const { headers, raw } = signed(event(`${prefix}anything`));
    expect((await handler(headers, raw)).body.code).toBe('RESERVED_EVENT_ID');
  }
  expect(delivered).toEqual([]);
  expect(internalEventIdPrefix(reconcileEventId('pay_1', 'FAILED'))).toBe(
    INTERNAL_EVENT_ID_PREFIXES.reconcile,
  );
  const observed = observedEvent({ id: 'pay_1', status: 'FAILED', lifecycle: {} } as Payment).eventId;
  expect(internalEventIdPrefix(observed)).toBe(INTERNAL_EVENT_ID_PREFIXES.observed);
  // the producers' ids are what they were (histories and the entities' seen sets hold them)
  expect(reconcileEventId('pay_1', 'FAILED')).toBe('reconcile:pay_1:FAILED');
  expect(observed).toBe('observed:pay_1:FAILED:');
});

// Found in the attacker's review: the 422 echoed the sender's id as sent (any length, newlines, quotes, personal data)
// into the answer and the logs. Only a safe form goes out: the reserved prefix (one of ours) and a hash of the id.
it('answers and logs a reserved id only as its prefix and a hash: never the id as sent', async () => {
  const { handler, logged } = setup();
  const tail = `x\n{"level":"INFO","message":"webhook accepted"}\r"'<script>${'Ana Silva '.repeat(400)}`;
  const id = `reconcile:${tail}`;
  const { headers, raw } = signed(event(id));
  const answer = await handler(headers, raw);
  expect(answer.body.code).toBe('RESERVED_EVENT_ID');
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 16);
  const safe = `reconcile:[sha256:${hash}]`;
  expect(answer.body.eventId).toBe(safe);
  expect(JSON.stringify(answer.body)).not.toContain('Ana Silva');
  expect(JSON.stringify(answer.body)).not.toContain('webhook accepted');
  const line = logged.join('\n');
  expect(line).toContain(safe);
  expect(line).not.toContain('Ana Silva');
  expect(line).not.toContain('script');
});

it('answers and logs the refused event type only when it is one the spec lists (another is the sender’s text)', async () => {
  const { handler, logged } = setup();
  const type = `payment.updated\n{"level":"INFO"}<script>${'Ana Silva '.repeat(50)}`;
  const { headers, raw } = signed({ ...event('reconcile:pay_1:COMPLETED'), type });
  const answer = await handler(headers, raw);
  expect(answer.body.code).toBe('RESERVED_EVENT_ID');
  expect(JSON.stringify(answer.body)).not.toContain('Ana Silva');
  expect(logged.join('\n')).not.toContain('Ana Silva');
  expect(logged.join('\n')).toContain('[unlisted type]');
  const listed = setup();
  const again = signed(event('reconcile:pay_2:COMPLETED'));
  await listed.handler(again.headers, again.raw);
  expect(listed.logged.join('\n')).toContain('payment.updated');
});
