import type { ProviderPort } from './provider-port';
import type { PaymentActivities } from './types';
import { callProvider } from './errors';

export function createPaymentActivities(deps: {
  provider: Pick<ProviderPort, 'payments' | 'rates'>;
}): PaymentActivities {
  const { provider } = deps;
  return {
    getRate: (query) => callProvider(() => provider.rates.get(query)),
    createPayment: (request, idempotencyKey) =>
      callProvider(() => provider.payments.create(request, { idempotencyKey })),
    getPayment: (id) => callProvider(() => provider.payments.get(id)),
  };
}
