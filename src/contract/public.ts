// `xborder/contract`: the service's contract as a backend team needs it — the payment, customer and account shapes
// with their schemas, the closed lists they use, the validators with the spec's dated rules, the fee math, and the
// outbound events xborder POSTs. A named list, read in one sitting; api/xborder-contract.api.md is its report.
// src/contract/index.ts stays the whole module for this repository's own code (docs/contract-api.md): the
// provider's other wire shapes (legacy fields, corridors, rates, requirements, error bodies, list envelopes) are
// parsed by the provider client and the sandbox, not by backends (CHANGELOG.md, 0.3.0).

// ---- rails, currencies, countries ----
export { RAILS, FIAT_CURRENCIES, STABLECOINS, type Rail, type Stablecoin } from './enums';
export type { CountryCode, CurrencyCode } from './primitives';

// ---- payments ----
export {
  PaymentSchema,
  CreatePaymentRequestSchema,
  type Payment,
  type CreatePaymentRequest,
} from './payment';
export {
  PAYMENT_STATUSES,
  TERMINAL_STATUSES,
  isTerminalStatus,
  FAILURE_CODES,
  PAYMENT_REASONS,
  type PaymentStatus,
  type FailureCode,
  type PaymentReason,
} from './enums';

// ---- customers and accounts ----
export {
  CustomerSchema,
  CreateCustomerRequestSchema,
  type Customer,
  type CreateCustomerRequest,
} from './customer';
export {
  AccountSchema,
  CreateAccountRequestSchema,
  type Account,
  type CreateAccountRequest,
} from './account';

// ---- validation: every violation at once, at a given date (spec: the dated rules) ----
export { validatePaymentRequest } from './validate-payment-request';
export { validateCustomer, type ValidateCustomerOptions } from './validate-customer';
export { validateAccount } from './validate-account';
export type { Violation } from './errors';
export { DATED_RULES, isInForce, type RuleId } from './rules';

// ---- fees (spec: "Rate (quote)") ----
export { destinationFromSource, sourceFromDestination, FeeCalculationError } from './fees';

// ---- outbound events: what xborder POSTs to a backend (docs/outbound-events.md) ----
export {
  XborderEventSchema,
  XborderTransferEventSchema,
  XborderOutboundEventSchema,
  XBORDER_EVENT_TYPES,
  XBORDER_EVENT_VERSION,
  XBORDER_TRANSFER_EVENT_TYPES,
  XBORDER_TRANSFER_EVENT_VERSION,
  type XborderEvent,
  type XborderTransferEvent,
  type XborderOutboundEvent,
  type XborderEventType,
  type XborderTransferEventType,
} from './outbound-events';
