export * from './connection-config';
export * from './connect';
export * from './payments';
export * from './stuck';
export * from './schedules';
export * from './indicative-quote';
// The messages of the workflows (inputs, states, outcomes, query/update definitions, workflow ID helpers):
// backend services type their calls with them (issue 11). Pure definitions: no worker code is loaded.
export * from '../../workflows/messages';
export * from '../../workflows/inputs';
export * from './reconcile-schedule';
export * from './worker-deployments';
export * from './verify-event';
// outbound events: the delivery workflow's ID and messages (redeliver, state), for backends and operators
export * from '../../workflows/payment-events/api';
