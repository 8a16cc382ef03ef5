// Step 3 of an onboarding: wait for the review outcome (spec: Customer, status). The providerCustomer entity
// forwards customer.updated webhooks; a GET every `reconcileEveryMs` covers a lost webhook when the client has one
// (GET /customers/:id is not in the spec); the wait ends at the deadline.
import { condition } from '@temporalio/workflow';
import { readActivities } from '../../activity-options';
import { applicationFailureOf } from '../../activity-failures';
import type { OnboardProgress } from '../state';

export async function awaitReview(
  progress: OnboardProgress,
  customerId: string,
  reviewTimeoutMs: number,
  reconcileEveryMs: number,
): Promise<void> {
  const deadline = Date.now() + reviewTimeoutMs;
  let getSupported = true;
  while (!progress.reviewFinal() && Date.now() < deadline) {
    const wait = Math.min(deadline, Date.now() + reconcileEveryMs) - Date.now();
    const seen = progress.changes;
    if (await condition(() => progress.changes !== seen, Math.max(1, wait))) continue;
    if (!getSupported) continue;
    try {
      progress.onRead(await readActivities.getCustomer(customerId));
    } catch (err) {
      // without GET /customers/:id, the webhook is the only source
      if (applicationFailureOf(err)?.type === 'NOT_SUPPORTED') getSupported = false;
    }
  }
}
