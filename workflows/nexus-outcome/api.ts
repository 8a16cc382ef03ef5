// The nexusOutcome relay's API: its type name and ID. The relay awaits one payment's outcome and returns it,
// encrypted with the key set of the Nexus caller its ID names, so that caller reads it without xborder's keys
// (src/codec/nexus-outcome-binding.ts; docs/codec.md, "Nexus callers"). Started by the Nexus `paymentOutcome`
// operation (src/nexus/handlers.ts), which attaches the caller's callback to it. No input, no messages.
import type { PaymentOutcome } from '../payment/api';

export { nexusOutcomeWorkflowId, nexusOutcomeOf } from '../../src/codec/nexus-outcome-binding';

/** The workflow type (the function's name in workflows/index.ts). */
export const NEXUS_OUTCOME_WORKFLOW_TYPE = 'nexusOutcome';

/** What one wait of the relay's activity found: the outcome, or nothing yet (the relay waits again). */
export type AwaitedPaymentOutcome = { ended: true; outcome: PaymentOutcome } | { ended: false };

/** The relay's failure when the payment closed without an outcome (terminated, or failed): nothing to relay. */
export const NEXUS_OUTCOME_FAILURE_TYPE = 'PAYMENT_ALREADY_FINISHED';
