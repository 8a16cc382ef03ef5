// Unit: refusedByOldContract (workflows/provider-payment/legacy-payloads.ts) answers what the first contract (before unknown values were passed through) answered, so a history
// recorded then replays the same drop.
import type { Payment } from '../../src/contract';
import { refusedByOldContract } from '../../workflows/provider-payment/legacy-payloads';
import { FakeProvider } from './support/fake-provider';
import { paymentRequest } from './support/test-bed';

async function payment(): Promise<Payment> {
  const fake = new FakeProvider({ now: async () => Date.parse('2026-11-23T10:00:00.000Z') });
  return fake.activities().createPayment(paymentRequest() as never, 'k');
}

describe('refusedByOldContract', () => {
  it('accepts a payment the old contract accepted', async () => {
    expect(refusedByOldContract(await payment())).toBe(false);
  });

  it('refuses a timestamp with an offset', async () => {
    const p = await payment();
    expect(refusedByOldContract({ ...p, lifecycle: { ...p.lifecycle, sentAt: '2026-11-23T10:00:00+00:00' } })).toBe(true);
  });

  it('refuses a string ending in Z that is no ISO 8601 timestamp', async () => {
    const p = await payment();
    expect(refusedByOldContract({ ...p, lifecycle: { ...p.lifecycle, completedAt: 'soonZ' } })).toBe(true);
    expect(refusedByOldContract({ ...p, quote: { ...p.quote, expiresAt: '2026-11-23Z' } })).toBe(true);
  });

  it('refuses a missing lifecycle key or quote.expiresAt (the old schema required them)', async () => {
    const p = await payment();
    const { refundedAt: _dropped, ...lifecycle } = p.lifecycle;
    expect(refusedByOldContract({ ...p, lifecycle } as unknown as Payment)).toBe(true);
    expect(refusedByOldContract({ ...p, quote: { exchangeRate: 5 } } as unknown as Payment)).toBe(true);
  });
});
