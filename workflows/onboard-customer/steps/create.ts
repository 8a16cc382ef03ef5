// Step 2 of an onboarding: POST /customers with the key `<workflowId>:create` (a retry re-sends the same key, so the
// service answers with the customer it already made; spec: Idempotency).
import type { CreateCustomerRequest, Customer, Violation } from '../../../src/contract';
import { createCallActivities } from '../../activity-options';
import { applicationFailureOf, providerViolations } from '../../activity-failures';

/** The customer, or the service's refusal as violations (a non-retryable failure: nothing was created). */
export async function createCustomer(
  body: Record<string, unknown>,
  workflowId: string,
): Promise<{ customer: Customer } | { violations: Violation[] }> {
  try {
    return {
      customer: await createCallActivities.createCustomer(
        body as CreateCustomerRequest,
        `${workflowId}:create`,
      ),
    };
  } catch (err) {
    const app = applicationFailureOf(err);
    if (app?.nonRetryable) return { violations: providerViolations(app) };
    throw err;
  }
}
