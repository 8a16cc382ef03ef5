// Public API of src/contract (docs/contract-api.md). Pure: zod and own files only.
export * from './enums';
export * from './countries';
export * from './primitives';
export * from './errors';
export * from './payment';
export {
  PAYMENT_FIELD_MAP,
  chainOfRail,
  paymentParseError,
  toCurrentPaymentFields,
  toTransitionalPayment,
  type PaymentFieldMove,
} from './payment-legacy-map';
export * from './normalize-payment';
export * from './customer';
export * from './account';
export * from './corridor';
export * from './rate';
export * from './requirements';
export * from './lists';
export * from './events';
export * from './rules';
export * from './money';
export * from './fees';
export * from './business-days';
export { UNDATED_RULES } from './validation';
export * from './team-email';
export * from './capabilities';
export * from './legacy-rails';
export * from './account-rails';
export * from './requirement-check';
export * from './deposit';
export * from './validate-customer';
export * from './validate-account';
export { paymentRequestViolations, type SchemaCheck } from './validate-payment';
export * from './validate-payment-request';
export * from './outbound-events';
