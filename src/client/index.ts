// `xborder/client` (also the package root): what a backend service imports to pay through xborder. A named list,
// read in one sitting; api/xborder-client.api.md is its report (`npm run lint:api` fails when this surface changes
// without it). Workflow-only helpers (signals, queries, the entities' front doors) and the worker's and CLI's
// operations (deployments, delivery status, the rate board) are imported by file inside this repository, never
// from here (CHANGELOG.md, 0.3.0).

// ---- connecting to Temporal (README, "Connecting to Temporal"; docs/codec.md) ----
export { connectClient, type ConnectClientOptions } from './connect';
export { connectClientFromEnv } from './connect-from-env';
export {
  temporalConfigFromEnv,
  TemporalConfigError,
  type TemporalConnectionConfig,
} from './connection-config';
export { codecConfigFromEnv, dataConverterOf, type CodecConfig } from '../codec/data-converter';
export { nexusCallerDataConverter } from './nexus-caller-codec';

// ---- payments (README, "Using xborder from a backend service") ----
export {
  startPayment,
  getPaymentState,
  cancelPayment,
  requotePayment,
  awaitPaymentOutcome,
  PaymentRequestInvalidError,
  IdempotencyKeyReusedError,
  StartPaymentUnconfirmedError,
  PaymentAlreadyFinishedError,
  type StartOptions,
  type StartedPayment,
  type PaymentRequest,
  type StartPaymentInput,
} from './payments';
export {
  paymentWorkflowId,
  PAYMENT_FAILURE_TYPES,
  type PaymentInput,
  type PaymentCreated,
  type PaymentState,
  type PaymentOutcome,
  type PaymentAlert,
} from '../../workflows/payment/api';
export type { PaymentPhase, TimelineEntry } from '../../workflows/types';

// ---- transfers: onboard → register → pay for a first-time sender ----
export { startTransfer, awaitTransferOutcome } from './payments';
export { transferWorkflowId, type TransferInput, type TransferResult } from '../../workflows/transfer/api';

// ---- outbound events: the receiving end (docs/outbound-events.md, "Receiving") ----
export {
  createEventReceiver,
  InMemoryEventStore,
  type EventReceiver,
  type EventReceiverOptions,
  type ProcessedEventStore,
  type EventRecord,
  type StoreDecision,
  type ReceivedEventInfo,
  type ReceiverAnswer,
  type ReceiverOutcome,
} from './event-receiver';
export {
  verifyXborderEvent,
  WebhookVerificationError,
  isTransferEvent,
  type XborderOutboundEvent,
  type XborderEvent,
  type XborderTransferEvent,
} from './verify-event';
export { isFinalEvent, EVENT_FINALITY, type EventFinality } from './event-finality';

// ---- quotes, stuck payments, schedules (README; docs/quote-refresh-and-telemetry.md) ----
export {
  getIndicativeQuote,
  IndicativeQuoteError,
  type IndicativeQuote,
  type IndicativeQuoteOptions,
  type QuoteAmount,
} from './indicative-quote';
export type { RatePair } from '../../workflows/rate-board/api';
export { findStuckPayments, type StuckPayment, type StuckKind, type StuckQueryOptions } from './stuck';
export { ensureSchedules, type EnsuredSchedule, type QuoteRefreshConfigInput } from './schedules';
