// A `__proto__` (or `constructor`/`prototype`) key in a webhook or service body never becomes an object's prototype:
// JSON.parse keeps it as an own key, and the first copy that assigns it (zod's looseObject, cloneJson) would make
// its fields read as the event's or the payment's own. Parsing drops those keys at every depth.
import { randomBytes } from 'node:crypto';
import { WebhookEventSchema } from '../../src/contract';
import { parseJsonText } from '../../src/contract/json';
import { createWebhookHandler, type EventRouter } from '../../src/ingress';
import { parseWebhookEvent } from '../../src/provider';
import { signWebhook } from '../../src/provider/webhook-signature';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

const HOSTILE = `{"type":"payment.updated","createdAt":"2026-11-21T10:00:00Z",
  "__proto__":{"id":"evt_from_prototype","polluted":true},
  "data":{"id":"pay_1","__proto__":{"status":"COMPLETED"},"nested":{"constructor":{"prototype":{"x":1}},"ok":1}}}`;

it('parseJsonText drops prototype keys at every depth, keeping the rest', () => {
  const value = parseJsonText(HOSTILE) as { data: { nested: object } };
  expect(own(value, '__proto__')).toBe(false);
  expect(own(value.data, '__proto__')).toBe(false);
  expect(value.data.nested).toEqual({ ok: 1 });
  // what the envelope schema makes of the text parsed plainly: the prototype is the attacker's
  const plain = WebhookEventSchema.safeParse({ ...(JSON.parse(HOSTILE) as object), id: 'evt_1' });
  expect(plain.success && Object.getPrototypeOf(plain.data) !== Object.prototype).toBe(true);
});

it('the webhook ingress routes an event whose envelope and data carry no prototype key', async () => {
  const routed: Array<{ id: string; data: object }> = [];
  const router: EventRouter = {
    route: (event) => ({
      workflowId: 'provider-payment:pay_1',
      deliver: async () => void routed.push(event),
    }),
  };
  const handler = createWebhookHandler({ secrets: [SECRET], router });
  const at = Math.floor(Date.now() / 1000);
  const answer = await handler(
    {
      'webhook-id': 'msg_header',
      'webhook-timestamp': String(at),
      'webhook-signature': signWebhook(SECRET, 'msg_header', at, HOSTILE),
    },
    HOSTILE,
  );
  expect(answer.status).toBe(200);
  const [event] = routed;
  expect(event!.id).toBe('msg_header'); // not the id the prototype offered
  expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
  expect('polluted' in event!).toBe(false);
  expect(own(event!.data, '__proto__')).toBe(false);
  // the signal carries JSON of the event: no key there for the workflow's copy to turn into a prototype
  expect(JSON.stringify(event)).not.toContain('__proto__');
});

it('parseWebhookEvent reads a body with prototype keys as if they were absent', () => {
  const text = HOSTILE.replace('"type"', '"id":"evt_1","type"').replace('"payment.updated"', '"other.event"');
  const event = parseWebhookEvent(text);
  expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
  expect(own(event.data, '__proto__')).toBe(false);
  expect('status' in event.data).toBe(false);
});
