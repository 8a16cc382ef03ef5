// What callers and workflows share beyond each workflow's own api.ts (workflows/<name>/api.ts: type name, ID,
// messages, input/output types): the search-attribute keys and the shared types. Pure: importable from workflow
// code and from clients alike.

export * from './types';
// Types only: the zod schemas of inputs.ts are for clients (src/client re-exports them); no zod in workflow code.
// The inputs of transfer, onboardCustomer, registerAccount, reconcilePayments are in their own api.ts.
export type { PaymentInput, ProviderCustomerInput, ProviderPaymentInput } from './inputs';

// ---- search attributes (registered by the dev stack and temporal-docker): see search-attributes.ts ----

export * from './search-attributes';
