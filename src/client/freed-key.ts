// A key is bound only once money could move. A payment the service refused before creating anything — refused by
// our own checks in the workflow (rules at its date, fee above maxTotalFee) or by the service's definite answer to
// POST /payments (ACCOUNT_NOT_FOUND …) — saved nothing under its key, as the service saves nothing for a request it
// refused (Stripe's rule too): the same key with a corrected request starts a new run of the closed workflow ID.
// Never freed: a run that may have created a provider payment (CREATE_OUTCOME_UNKNOWN, NEEDS_ATTENTION resolved or
// not, any outcome with a provider payment, an alert) or one that did not end by itself (terminated, failed,
// timed out: it may have stopped mid-create).
import type { Client } from '@temporalio/client';
import { KEY_RUN_MEMO, PAYMENT_FAILURE_TYPES, type PaymentOutcome } from '../../workflows/payment/api';
import { paymentHandle } from './handles';

export { KEY_RUN_MEMO, runScopedIdempotencyKey } from '../../workflows/payment/api';

/**
 * Whether an outcome proves nothing was created at the service: REJECTED, no provider payment, no violation saying
 * the create's outcome was unknown (an operator's "no payment was made" is a judgement, not the service's word),
 * no alert.
 */
export function refusedBeforeCreate(outcome: PaymentOutcome | null | undefined): boolean {
  if (!outcome || outcome.outcome !== 'REJECTED' || outcome.payment !== null) return false;
  if ((outcome.alerts ?? []).length > 0) return false;
  return !outcome.violations.some((v) => v.rule === PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN);
}

/**
 * The run number the next run of `workflowId` gets when its latest run is closed and freed its key; null when the
 * key stays bound (or nothing closed holds it). Reads the describe and the result of the closed run (decoded by the
 * client's data converter; no worker needed).
 */
export async function freedKeyNextRun(client: Client, workflowId: string): Promise<number | null> {
  const handle = paymentHandle(client, workflowId);
  const description = await handle.describe();
  if (description.status.name !== 'COMPLETED') return null;
  const outcome = await handle.result();
  if (!refusedBeforeCreate(outcome)) return null;
  const run = description.memo?.[KEY_RUN_MEMO];
  return (typeof run === 'number' && run >= 2 ? run : 1) + 1;
}
