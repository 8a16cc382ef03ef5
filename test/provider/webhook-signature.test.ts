import { inspect } from 'node:util';
import { signWebhook, verifyWebhook } from '../../src/provider/webhook-signature';
import { WebhookVerificationError } from '../../src/provider/errors';

// The published Standard Webhooks test vector (reference libraries' test suites).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const atVector = new Date(VECTOR.timestamp * 1000);
const vectorHeaders = (signature = VECTOR.signature, timestamp = String(VECTOR.timestamp)) => ({
  'webhook-id': VECTOR.id,
  'webhook-timestamp': timestamp,
  'webhook-signature': signature,
});
const OTHER_SECRET = 'whsec_' + Buffer.from('another secret of 32 bytes long!').toString('base64');

function refusal(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookVerificationError);
    return e as WebhookVerificationError;
  }
  throw new Error('expected a refusal');
}

describe('verifyWebhook (Standard Webhooks)', () => {
  it('signs the published test vector exactly', () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('accepts the published test vector, as string and as bytes, with or without the whsec_ prefix', () => {
    expect(verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret, { now: atVector })).toEqual({
      id: VECTOR.id,
      timestamp: atVector,
    });
    expect(
      verifyWebhook(vectorHeaders(), Buffer.from(VECTOR.body), VECTOR.secret, { now: atVector }).id,
    ).toBe(VECTOR.id);
    expect(verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret.slice(6), { now: atVector }).id).toBe(
      VECTOR.id,
    );
  });

  it('reads headers case-insensitively and from a Headers-like object', () => {
    const upper = {
      'Webhook-Id': VECTOR.id,
      'WEBHOOK-TIMESTAMP': String(VECTOR.timestamp),
      'Webhook-Signature': VECTOR.signature,
    };
    expect(verifyWebhook(upper, VECTOR.body, VECTOR.secret, { now: atVector }).id).toBe(VECTOR.id);
    const map = new Map(Object.entries(vectorHeaders()));
    expect(
      verifyWebhook({ get: (n: string) => map.get(n) }, VECTOR.body, VECTOR.secret, { now: atVector }).id,
    ).toBe(VECTOR.id);
  });

  it('refuses a changed body, id or timestamp', () => {
    expect(
      refusal(() => verifyWebhook(vectorHeaders(), '{"test": 2432232315}', VECTOR.secret, { now: atVector }))
        .message,
    ).toMatch(/no webhook-signature entry matches/);
    const changedId = { ...vectorHeaders(), 'webhook-id': 'msg_other' };
    refusal(() => verifyWebhook(changedId, VECTOR.body, VECTOR.secret, { now: atVector }));
    refusal(() =>
      verifyWebhook(
        vectorHeaders(VECTOR.signature, String(VECTOR.timestamp + 1)),
        VECTOR.body,
        VECTOR.secret,
        { now: atVector },
      ),
    );
  });

  it('refuses the wrong secret, and accepts during rotation when any configured secret matches', () => {
    refusal(() => verifyWebhook(vectorHeaders(), VECTOR.body, OTHER_SECRET, { now: atVector }));
    expect(
      verifyWebhook(vectorHeaders(), VECTOR.body, [OTHER_SECRET, VECTOR.secret], { now: atVector }).id,
    ).toBe(VECTOR.id);
    expect(
      verifyWebhook(vectorHeaders(), VECTOR.body, [VECTOR.secret, OTHER_SECRET], { now: atVector }).id,
    ).toBe(VECTOR.id);
  });

  it('accepts a header listing several signatures when one matches (sender rotating), ignoring other versions', () => {
    const other = signWebhook(OTHER_SECRET, VECTOR.id, VECTOR.timestamp, VECTOR.body);
    const header = `v1a,AAAA ${other} ${VECTOR.signature}`;
    expect(verifyWebhook(vectorHeaders(header), VECTOR.body, VECTOR.secret, { now: atVector }).id).toBe(
      VECTOR.id,
    );
    // the right MAC under another version label does not count
    refusal(() =>
      verifyWebhook(vectorHeaders(VECTOR.signature.replace('v1,', 'v2,')), VECTOR.body, VECTOR.secret, {
        now: atVector,
      }),
    );
  });

  it('refuses a truncated or garbage signature without throwing anything but a refusal', () => {
    refusal(() =>
      verifyWebhook(vectorHeaders(VECTOR.signature.slice(0, 20)), VECTOR.body, VECTOR.secret, {
        now: atVector,
      }),
    );
    refusal(() => verifyWebhook(vectorHeaders('v1,'), VECTOR.body, VECTOR.secret, { now: atVector }));
    refusal(() => verifyWebhook(vectorHeaders('garbage'), VECTOR.body, VECTOR.secret, { now: atVector }));
  });

  it('applies the tolerance both ways: too old and too new are refused, the edges are accepted', () => {
    const tolerance = 300;
    const at = (offsetSec: number) => new Date((VECTOR.timestamp + offsetSec) * 1000);
    expect(
      verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret, {
        now: at(tolerance),
        toleranceSec: tolerance,
      }).id,
    ).toBe(VECTOR.id);
    expect(
      verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret, {
        now: at(-tolerance),
        toleranceSec: tolerance,
      }).id,
    ).toBe(VECTOR.id);
    expect(
      refusal(() =>
        verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret, {
          now: at(tolerance + 1),
          toleranceSec: tolerance,
        }),
      ).message,
    ).toMatch(/too old/);
    expect(
      refusal(() =>
        verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret, {
          now: at(-tolerance - 1),
          toleranceSec: tolerance,
        }),
      ).message,
    ).toMatch(/too new/);
    // the default tolerance is 5 minutes; the real clock is years past the vector
    expect(refusal(() => verifyWebhook(vectorHeaders(), VECTOR.body, VECTOR.secret)).message).toMatch(
      /too old/,
    );
  });

  it('refuses missing headers, a non-numeric timestamp, a malformed secret and an empty secret list', () => {
    expect(refusal(() => verifyWebhook({}, VECTOR.body, VECTOR.secret, { now: atVector })).message).toMatch(
      /webhook-id, webhook-timestamp, webhook-signature/,
    );
    refusal(() =>
      verifyWebhook(vectorHeaders(VECTOR.signature, '1614265330.5'), VECTOR.body, VECTOR.secret, {
        now: atVector,
      }),
    );
    refusal(() => verifyWebhook(vectorHeaders(), VECTOR.body, 'whsec_not base64!', { now: atVector }));
    refusal(() => verifyWebhook(vectorHeaders(), VECTOR.body, [], { now: atVector }));
  });

  it('never puts the secret in the refusal', () => {
    const error = refusal(() => verifyWebhook(vectorHeaders(), 'tampered', VECTOR.secret, { now: atVector }));
    const text = JSON.stringify(error) + inspect(error) + error.stack;
    expect(text).not.toContain('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(error.retryable).toBe(false);
    expect(error.type).toBe('WebhookVerificationError');
  });
});
