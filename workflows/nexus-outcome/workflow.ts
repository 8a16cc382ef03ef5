// nexusOutcome (`nexus-outcome:<endpoint>:<paymentKey>`): relays one payment's outcome to the Nexus caller of
// `endpoint` under that caller's own key set (docs/codec.md, "Nexus callers"). The payment is named by the relay's
// own ID, never by anything a caller wrote. Its one activity waits for the payment's result, a few hours per attempt
// (activities/nexus-outcome-activities.ts); the relay asks again until the payment has ended. Cost per Nexus
// payment: the relay's start, one activity per wait of up to 4 hours, no timer (docs/backend.md, "Nexus").
// AUTO_UPGRADE (workflows/versioning.ts): it moves no money and must not keep a drained build alive for the days a
// payment can take, so its commands change only behind patched().
import { ApplicationFailure } from '@temporalio/workflow';
import { nexusOutcomeActivities } from '../activity-options';
import type { PaymentOutcome } from '../payment/api';
import { NEXUS_OUTCOME_FAILURE_TYPE } from './api';

export async function nexusOutcome(): Promise<PaymentOutcome> {
  for (;;) {
    const awaited = await nexusOutcomeActivities.awaitPaymentOutcome().catch((error: unknown) => {
      const cause = (error as { cause?: { type?: unknown; message?: unknown } }).cause;
      if (cause?.type === NEXUS_OUTCOME_FAILURE_TYPE)
        throw ApplicationFailure.create({
          type: NEXUS_OUTCOME_FAILURE_TYPE,
          message: String(cause.message),
          nonRetryable: true,
        });
      throw error;
    });
    if (awaited.ended) return awaited.outcome;
  }
}
