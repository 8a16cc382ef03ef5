import type { ProviderPort } from './provider-port';
import type { AllActivities } from './types';
import { createPaymentActivities } from './payment-activities';
import { createCustomerActivities } from './customer-activities';
import { createAccountActivities } from './account-activities';
import { createQuoteActivities, type QuoteActivities } from './quote-activities';
import { createWorkflowReadActivities, type WorkflowReadActivities } from './workflow-read-activities';
import { createReconcileActivities, type ReconcileActivities } from './reconcile-activities';
import { createContractActivities, type ContractActivities } from './contract-activities';

export * from './types';
export * from './provider-port';
export { toApplicationFailure, isProviderError } from './errors';
export { createPaymentActivities, createCustomerActivities, createAccountActivities };
export * from './quote-activities';
export * from './workflow-read-activities';
export * from './reconcile-activities';
export * from './contract-activities';

/** Every activity the workflows call, for one worker. */
export function createActivities(deps: {
  provider: ProviderPort;
}): AllActivities & QuoteActivities & WorkflowReadActivities & ReconcileActivities & ContractActivities {
  return {
    ...createWorkflowReadActivities(),
    ...createContractActivities(),
    ...createReconcileActivities(deps),
    ...createPaymentActivities(deps),
    ...createCustomerActivities(deps),
    ...createAccountActivities(deps),
    ...createQuoteActivities(deps),
  };
}
