// Step 3 of a registration: POST /accounts with the key `<workflowId>:create` (a retry re-sends the same key, so
// the service answers with the account it already made; spec: Idempotency).
import type { CreateAccountRequest } from '../../../src/contract';
import { createCallActivities } from '../../activity-options';
import { applicationFailureOf, providerViolations } from '../../activity-failures';
import type { RegisterAccountResult } from '../api';

export async function createAccount(
  body: Record<string, unknown>,
  workflowId: string,
): Promise<RegisterAccountResult> {
  try {
    const account = await createCallActivities.createAccount(
      body as CreateAccountRequest,
      `${workflowId}:create`,
    );
    return { outcome: 'REGISTERED', account };
  } catch (err) {
    const app = applicationFailureOf(err);
    if (app?.nonRetryable) return { outcome: 'REJECTED', violations: providerViolations(app) };
    throw err;
  }
}
