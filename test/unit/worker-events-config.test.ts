// The worker's outbound-event endpoints (workers/events-config.ts) and a payment's own (events.url, checked by the
// client): a bad URL or secret is refused at configuration, naming the variable or field, never the value.
import { randomBytes } from 'node:crypto';
import { checkPaymentInput, PaymentRequestInvalidError } from '../../src/client/payment-request';
import { eventsConfigFromEnv } from '../../workers/events-config';
import { demoPaymentRequest } from '../support/demo-payment-request';

const secret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

describe('outbound events configuration', () => {
  it('reads the default endpoint with two secrets (a rotation) and further endpoints', () => {
    const [a, b, c] = [secret(), secret(), secret()];
    const config = eventsConfigFromEnv({
      XBORDER_EVENTS_URL: 'https://backend.example/events',
      XBORDER_EVENTS_SECRETS: `${a}, ${b}`,
      XBORDER_EVENTS_ENDPOINTS: JSON.stringify([{ url: 'https://other.example/hook', secrets: [c] }]),
    });
    expect(config).toEqual({
      defaultEndpoint: { url: 'https://backend.example/events', secrets: [a, b] },
      endpoints: [{ url: 'https://other.example/hook', secrets: [c] }],
      timeoutMs: 10_000,
    });
  });

  it('is empty when nothing is set (no events sent; payments with `events` wait as undeliverable)', () => {
    expect(eventsConfigFromEnv({})).toEqual({ defaultEndpoint: null, endpoints: [], timeoutMs: 10_000 });
  });

  it.each([
    [
      'not a URL',
      { XBORDER_EVENTS_URL: 'backend/events', XBORDER_EVENTS_SECRETS: secret() },
      /XBORDER_EVENTS_URL: events.url must be an absolute URL/,
    ],
    [
      'another scheme',
      { XBORDER_EVENTS_URL: 'ftp://backend.example/e', XBORDER_EVENTS_SECRETS: secret() },
      /must be http\(s\)/,
    ],
    [
      'credentials in the URL',
      { XBORDER_EVENTS_URL: 'https://u:p@backend.example/e', XBORDER_EVENTS_SECRETS: secret() },
      /must not hold credentials/,
    ],
    [
      'a URL without secret',
      { XBORDER_EVENTS_URL: 'https://backend.example/e' },
      /XBORDER_EVENTS_SECRETS: required/,
    ],
    [
      'a secret not whsec_',
      { XBORDER_EVENTS_URL: 'https://backend.example/e', XBORDER_EVENTS_SECRETS: 'hunter2' },
      /must be whsec_<base64>/,
    ],
    [
      'three secrets',
      {
        XBORDER_EVENTS_URL: 'https://backend.example/e',
        XBORDER_EVENTS_SECRETS: [secret(), secret(), secret()].join(','),
      },
      /at most two secrets/,
    ],
    ['endpoints not JSON', { XBORDER_EVENTS_ENDPOINTS: '[{url:' }, /XBORDER_EVENTS_ENDPOINTS: not JSON/],
    [
      'an endpoint with a bad URL',
      { XBORDER_EVENTS_ENDPOINTS: JSON.stringify([{ url: 'nope', secrets: [secret()] }]) },
      /XBORDER_EVENTS_ENDPOINTS\.0\.url/,
    ],
  ])('refuses %s, clearly', (_what, env, message) => {
    expect(() => eventsConfigFromEnv(env)).toThrow(message);
  });

  it('refuses a placeholder secret like every other secret, naming the variable and never the value', () => {
    const placeholder = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(() =>
      eventsConfigFromEnv({
        XBORDER_EVENTS_URL: 'https://backend.example/e',
        XBORDER_EVENTS_SECRETS: placeholder,
      }),
    ).toThrow(/XBORDER_EVENTS_SECRETS must not be used: it is one byte repeated/);
    try {
      eventsConfigFromEnv({
        XBORDER_EVENTS_URL: 'https://backend.example/e',
        XBORDER_EVENTS_SECRETS: placeholder,
      });
    } catch (err) {
      expect((err as Error).message).not.toContain(placeholder);
    }
  });

  it('a payment whose events.url is not a URL is refused by the client before anything starts', () => {
    const input = { paymentKey: 'order-k1', request: demoPaymentRequest('r1'), events: { url: 'not a url' } };
    let error: unknown;
    try {
      checkPaymentInput(input, new Date('2026-01-05T10:00:00Z'));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PaymentRequestInvalidError);
    expect((error as PaymentRequestInvalidError).violations).toEqual([
      expect.objectContaining({ path: 'events.url', message: expect.stringMatching(/absolute URL/) }),
    ]);
    expect(() =>
      checkPaymentInput(
        { ...input, events: { url: 'https://backend.example/e', extra: 1 } },
        new Date('2026-01-05T10:00:00Z'),
      ),
    ).toThrow(PaymentRequestInvalidError);
    expect(checkPaymentInput({ ...input, events: {} }, new Date('2026-01-05T10:00:00Z')).events).toEqual({});
  });
});
