import { ApplicationFailure } from '@temporalio/common';
import type { ProviderPort } from './provider-port';
import { ACTIVITY_FAILURE_TYPES, type CustomerActivities } from './types';
import { callProvider } from './errors';

export function createCustomerActivities(deps: {
  provider: Pick<ProviderPort, 'customers'>;
}): CustomerActivities {
  const { provider } = deps;
  return {
    createCustomer: (body, idempotencyKey) =>
      callProvider(() => provider.customers.create(body, { idempotencyKey })),
    getCustomer: async (id) => {
      const get = provider.customers.get;
      if (!get) {
        // spec: Endpoints lists no GET /customers/:id; the workflow then relies on customer.updated webhooks.
        throw ApplicationFailure.create({
          type: ACTIVITY_FAILURE_TYPES.NOT_SUPPORTED,
          message: 'the provider client has no GET /customers/:id',
          nonRetryable: true,
        });
      }
      return callProvider(() => get.call(provider.customers, id));
    },
  };
}
