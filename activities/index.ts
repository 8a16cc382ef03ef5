import type { ProviderPort } from './provider-port';
import type { AllActivities } from './types';
import { createPaymentActivities } from './payment-activities';
import { createCustomerActivities } from './customer-activities';
import { createAccountActivities } from './account-activities';

export * from './types';
export * from './provider-port';
export { toApplicationFailure, isProviderError } from './errors';
export { createPaymentActivities, createCustomerActivities, createAccountActivities };

/** Every activity the workflows call, for one worker. */
export function createActivities(deps: { provider: ProviderPort }): AllActivities {
  return {
    ...createPaymentActivities(deps),
    ...createCustomerActivities(deps),
    ...createAccountActivities(deps),
  };
}
