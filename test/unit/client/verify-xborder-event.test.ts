// verifyXborderEvent, what a backend runs on each delivery: signature over the exact bytes, rotation (either of
// two secrets), the timestamp window (a replay days later is refused), the schema, id agreement.
import { randomBytes } from 'node:crypto';
import { signedHeaders } from '../../../activities/event-delivery-activities';
import { isTransferEvent, verifyXborderEvent, WebhookVerificationError } from '../../../src/client';
import type { XborderEvent, XborderTransferEvent } from '../../../src/contract';

const secret = (): string => `whsec_${randomBytes(32).toString('base64')}`;
const oldSecret = secret();
const newSecret = secret();
const url = 'https://backend.example/xborder-events';

const event: XborderEvent = {
  id: '0d7c0f3e-8b7f-4a59-9a53-1b1f1f1f1f1f:3',
  type: 'payment.failed',
  version: 1,
  sequence: 3,
  occurredAt: '2026-01-05T10:00:00.000Z',
  paymentKey: 'order-k1',
  data: {
    phase: 'FAILED',
    providerPaymentId: 'pay_1',
    providerStatus: 'FAILED',
    source: { amount: 100, currencyCode: 'USD' },
    destination: { amount: 92, currencyCode: 'EUR' },
    fee: 1,
    quote: null,
    fundingInstructions: null,
    fundingDeadline: null,
    code: 'BENEFICIARY_BANK_REJECTED',
    requotes: 0,
  },
};
const body = JSON.stringify(event);
const now = new Date();

describe('verifyXborderEvent', () => {
  it("accepts a transfer's event on the same endpoint, told apart by isTransferEvent; a transfer event without its key is refused", () => {
    const transferEvent: XborderTransferEvent = {
      id: '7e1c0f3e-8b7f-4a59-9a53-1b1f1f1f1f1f:2',
      type: 'transfer.payment_started',
      version: 1,
      sequence: 2,
      occurredAt: '2026-01-05T10:00:00.000Z',
      transferKey: 'order-t1',
      data: { step: 'PAYING', outcome: null, paymentKey: 'order-t1', code: null, cancelRequested: false },
    };
    const raw = JSON.stringify(transferEvent);
    const verified = verifyXborderEvent(
      newSecret,
      signedHeaders({ url, secrets: [newSecret] }, transferEvent.id, raw, now),
      raw,
    );
    expect(verified).toEqual(transferEvent);
    expect(isTransferEvent(verified)).toBe(true);
    const payment = verifyXborderEvent(
      newSecret,
      signedHeaders({ url, secrets: [newSecret] }, event.id, body, now),
      body,
    );
    expect(isTransferEvent(payment)).toBe(false);
    const { transferKey: _dropped, ...keyless } = transferEvent;
    const bad = JSON.stringify(keyless);
    expect(() =>
      verifyXborderEvent(
        newSecret,
        signedHeaders({ url, secrets: [newSecret] }, transferEvent.id, bad, now),
        bad,
      ),
    ).toThrow(WebhookVerificationError);
  });

  it('accepts a delivery signed during a rotation with either secret alone, and returns the parsed event', () => {
    const headers = signedHeaders({ url, secrets: [oldSecret, newSecret] }, event.id, body, now);
    expect(verifyXborderEvent([oldSecret], headers, body)).toEqual(event);
    expect(verifyXborderEvent(newSecret, headers, Buffer.from(body))).toEqual(event);
  });

  it('refuses a body changed after signing', () => {
    const headers = signedHeaders({ url, secrets: [newSecret] }, event.id, body, now);
    expect(() => verifyXborderEvent(newSecret, headers, body.replace('FAILED', 'COMPLETED'))).toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses a signature by another secret, and never echoes a secret in the message', () => {
    const headers = signedHeaders({ url, secrets: [secret()] }, event.id, body, now);
    let message = '';
    try {
      verifyXborderEvent([oldSecret, newSecret], headers, body);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/no webhook-signature entry matches/);
    expect(message).not.toContain(newSecret.slice(6));
  });

  it('refuses a captured delivery replayed after the 5-minute window', () => {
    const headers = signedHeaders(
      { url, secrets: [newSecret] },
      event.id,
      body,
      new Date(now.getTime() - 10 * 60_000),
    );
    expect(() => verifyXborderEvent(newSecret, headers, body)).toThrow(/too old/);
  });

  it('refuses a webhook-id other than the body id (a signed body moved under another id)', () => {
    const headers = signedHeaders({ url, secrets: [newSecret] }, 'other:1', body, now);
    expect(() => verifyXborderEvent(newSecret, headers, body)).toThrow(/webhook-id and the body id differ/);
  });

  it('refuses a signed body that is not an event of the schema', () => {
    const bad = JSON.stringify({ ...event, version: 2 });
    const headers = signedHeaders({ url, secrets: [newSecret] }, event.id, bad, now);
    expect(() => verifyXborderEvent(newSecret, headers, bad)).toThrow(/does not match the event schema/);
  });
});
