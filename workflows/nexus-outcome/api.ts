// The nexusOutcome relay's API: its type name and ID. The relay awaits one payment's outcome and returns it,
// encrypted with the key set of the Nexus caller its ID names, so that caller reads it without xborder's keys
// (src/codec/nexus-outcome-binding.ts; docs/codec.md, "Nexus callers"). Started by the Nexus `paymentOutcome`
// operation (src/nexus/handlers.ts), which attaches the caller's callback to it. No input; one message, the
// payment's `paymentClosed` signal, which carries nothing (the relay reads the outcome itself).
import { defineSignal } from '@temporalio/workflow';
import type { PaymentOutcome } from '../payment/api';

export { nexusOutcomeWorkflowId, nexusOutcomeOf } from '../../src/codec/nexus-outcome-binding';

/** The workflow type (the function's name in workflows/index.ts). */
export const NEXUS_OUTCOME_WORKFLOW_TYPE = 'nexusOutcome';

/**
 * The memo field holding the owner of a payment started through Nexus (the endpoint's name; no personal data): the
 * same name as src/nexus/caller.ts NEXUS_OWNER_MEMO, which writes it (test/unit/nexus-outcome-owner.test.ts checks
 * they agree); here so that the payment workflow, which cannot import the Nexus handler's code, reads it too.
 */
export const NEXUS_OWNER_MEMO = 'xborderNexusOwner';

/**
 * Sent by a payment owned by a Nexus endpoint to its relay `nexus-outcome:<owner>:<key>` just before its run
 * completes (workflows/payment/steps/tell-relay.ts). No payload: the payment's codec context is not the relay's,
 * so the relay re-reads the outcome with its activity.
 */
export const paymentClosedSignal = defineSignal('paymentClosed');

/** The relay's read: `closing` once the payment has told the relay it has ended (a short wait for its close). */
export interface ReadPaymentOutcomeInput {
  closing?: boolean;
}

/** What one read of the relay's activity found: the outcome, or nothing yet (the relay waits again). */
export type AwaitedPaymentOutcome = { ended: true; outcome: PaymentOutcome } | { ended: false };

/** The relay's failure when the payment closed without an outcome (terminated, or failed): nothing to relay. */
export const NEXUS_OUTCOME_FAILURE_TYPE = 'PAYMENT_ALREADY_FINISHED';

/**
 * The relay's failure when the payment its ID names is not owned by the endpoint its ID names (another caller's, a
 * client's, or none): nothing is read (SECURITY.md, "Nexus").
 */
export const NEXUS_OUTCOME_NOT_OWNER_TYPE = 'NEXUS_OUTCOME_NOT_OWNER';
