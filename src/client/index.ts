export * from './connection-config';
export * from './connect';
export * from './connect-from-env';
// What a service that reads its own configuration needs to make connectClient's data converter (docs/codec.md).
export { codecConfigFromEnv, dataConverterOf, type CodecConfig } from '../codec/data-converter';
export * from './payments';
export * from './stuck';
export * from './schedules';
export * from './indicative-quote';
// The messages of the workflows (inputs, states, outcomes, query/update definitions, workflow ID helpers):
// backend services type their calls with them. Pure definitions: no worker code is loaded.
export * from '../../workflows/messages';
export * from '../../workflows/payment/api';
export * from '../../workflows/inputs';
// The entities' APIs (IDs, signals, queries, the signalWithStart front doors), moved out of messages.ts.
export * from '../../workflows/provider-payment/api';
export {
  PROVIDER_CUSTOMER_WORKFLOW_TYPE,
  providerCustomerWorkflowId,
  customerEventSignal,
  customerChangedSignal,
  customerSnapshotQuery,
  isReviewFinal,
  signalWithStartProviderCustomer,
  type ProviderCustomerEvent,
  type ParsedProviderCustomerEvent,
} from '../../workflows/provider-customer/api';
// The api.ts of each workflow in its own folder (type name, ID, messages, input/output types).
export * from '../../workflows/transfer/api';
export * from '../../workflows/onboard-customer/api';
export * from '../../workflows/register-account/api';
export * from '../../workflows/reconcile-payments/api';
export * from '../../workflows/refresh-quotes/api';
export * from '../../workflows/rate-board/api';
export * from './reconcile-schedule';
export * from './worker-deployments';
export * from './nexus-caller-codec';
export * from './verify-event';
// the receiving end of outbound events, mounted in a few lines (docs/backend.md, "How a backend learns outcomes")
export * from './event-receiver';
export * from './event-finality';
export {
  describeEventDelivery,
  redeliverAllEvents,
  type EventDeliveryAttempt,
} from './event-delivery-status';
// outbound events: the delivery workflow's ID and messages (redeliver, state), for backends and operators
export * from '../../workflows/payment-events/api';
