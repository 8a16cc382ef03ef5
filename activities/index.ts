import type { ProviderPort } from './provider-port';
import type { AllActivities } from './types';
import { createPaymentActivities } from './payment-activities';
import { createCustomerActivities } from './customer-activities';
import { createAccountActivities } from './account-activities';
import { createQuoteActivities, type QuoteActivities } from './quote-activities';
import { createWorkflowReadActivities, type WorkflowReadActivities } from './workflow-read-activities';
import { createReconcileActivities, type ReconcileActivities } from './reconcile-activities';
import { createContractActivities, type ContractActivities } from './contract-activities';
import { createLateEventsActivities, type LateEventsActivities } from './late-events-activities';
import { createReportActivities, type ReportActivities, type ReportsConfig } from './report-activities';
import { createNexusOutcomeActivities, type NexusOutcomeActivities } from './nexus-outcome-activities';
import {
  createEventDeliveryActivities,
  createEventHandOverActivities,
  type EventDeliveryActivities,
  type EventDeliveryConfig,
  type EventHandOverActivities,
} from './event-delivery-activities';

export * from './types';
export * from './provider-port';
export { toApplicationFailure, isProviderError } from './errors';
export { createPaymentActivities, createCustomerActivities, createAccountActivities };
export * from './quote-activities';
export * from './workflow-read-activities';
export * from './reconcile-activities';
export * from './contract-activities';
export * from './late-events-activities';
export * from './event-delivery-activities';
export * from './report-activities';
export * from './nexus-outcome-activities';

/** Every activity the workflows call, for one worker. */
export function createActivities(deps: {
  provider: ProviderPort;
  /** outbound events' endpoints (workers/events-config.ts); absent: none, every event waits as undeliverable */
  events?: EventDeliveryConfig;
  /** where the daily reconciliation report is written (XBORDER_REPORTS_DIR); absent: the activity refuses */
  reports?: ReportsConfig | null;
}): AllActivities &
  QuoteActivities &
  WorkflowReadActivities &
  ReconcileActivities &
  EventDeliveryActivities &
  EventHandOverActivities &
  ContractActivities &
  LateEventsActivities &
  ReportActivities &
  NexusOutcomeActivities {
  return {
    ...createNexusOutcomeActivities(),
    ...createLateEventsActivities(),
    ...createReportActivities(deps),
    ...createEventHandOverActivities(),
    ...createEventDeliveryActivities({ config: deps.events ?? { defaultEndpoint: null, endpoints: [] } }),
    ...createWorkflowReadActivities(),
    ...createContractActivities(),
    ...createReconcileActivities(deps),
    ...createPaymentActivities(deps),
    ...createCustomerActivities(deps),
    ...createAccountActivities(deps),
    ...createQuoteActivities(deps),
  };
}
