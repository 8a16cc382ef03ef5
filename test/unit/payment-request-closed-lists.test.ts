// The public PaymentRequest carries the spec's closed lists as literal unions: a reason or rail the service refuses
// is a compile error (`npx tsc --noEmit` fails on an unused @ts-expect-error), not only a refusal at run time.
import type { PaymentRequest, StartPaymentInput } from '../../src/client/payments';
import type { StartPaymentInput as NexusStartPaymentInput } from '../../src/nexus/service';

const valid: PaymentRequest = {
  source: { currencyCode: 'USDC', amount: 10, rail: 'POLYGON' },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
  paymentReason: 'PURCHASE_OF_GOODS',
};

it('reasons and rails outside the spec lists do not compile; the Nexus input is the same type', () => {
  // @ts-expect-error OTHER is refused since 2026-03-30 (spec: Payment reason values)
  const other: PaymentRequest = { ...valid, paymentReason: 'OTHER' };
  // @ts-expect-error a reason removed on 2026-07-31
  const remittance: PaymentRequest = { ...valid, paymentReason: 'REMITTANCE' };
  // @ts-expect-error WIRE is deprecated: SWIFT (spec: Rail values)
  const wire: PaymentRequest = { ...valid, destination: { ...valid.destination, rail: 'WIRE' } };
  // @ts-expect-error CRYPTO: the blockchain's name instead
  const crypto: PaymentRequest = { ...valid, source: { ...valid.source, rail: 'CRYPTO' } };
  // @ts-expect-error the Nexus operation's input is the typed request, not a loose object
  const loose: NexusStartPaymentInput = { paymentKey: 'k', request: { anything: true } };
  const same: StartPaymentInput = { paymentKey: 'k', request: valid } satisfies NexusStartPaymentInput;
  expect([other, remittance, wire, crypto, loose, same]).toHaveLength(6);
});
