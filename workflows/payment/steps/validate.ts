// Step 1: the contract's rules for the request (ARCHITECTURE: Workflows). The rules run in a local activity
// (activities/payment-activities.ts): the dated rules of the spec apply by the workflow's date, and the request
// shapes stay out of the workflow bundle. The caller's limits are checked here.
import type { Violation } from '../../../src/contract';
import { localValidateActivities } from '../../activity-options';
import { failureViolation } from '../../activity-failures';
import type { PaymentWorkflowState } from '../state';

/** Every violation of the request and its limits; empty when the payment may go on. */
export async function validateRequest(state: PaymentWorkflowState): Promise<Violation[]> {
  let violations: Violation[];
  try {
    violations = await localValidateActivities.validatePaymentRequest(
      state.request,
      new Date().toISOString(),
    );
  } catch (err) {
    // nothing is created yet: refusing is safe, and the caller may start again
    return [failureViolation('request', err, 'VALIDATION_UNAVAILABLE')];
  }
  return [...violations, ...pullLimitViolations(state)];
}

/**
 * A payment pulled from an account moves the funds at creation (spec: States and transitions, rule 1), so a
 * drift limit, which can only be judged on the created payment's quote, could not stop anything: refuse it up front.
 */
function pullLimitViolations(state: PaymentWorkflowState): Violation[] {
  if (state.limits?.maxRateDrift === undefined || !state.pulls()) return [];
  return [
    {
      path: 'limits.maxRateDrift',
      rule: 'DRIFT_LIMIT_ON_PULL_PAYMENT',
      message:
        'maxRateDrift cannot be enforced for a payment with source.accountId: the funds are pulled when it is created. Omit maxRateDrift, or use maxTotalFee (checked before creation).',
    },
  ];
}
