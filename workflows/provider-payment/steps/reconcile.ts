// The entity's reads of the payment (GET /payments/:id): the timer's reconcile and the read that confirms held
// pushes (push-confirmation.ts). The GET's answer is the truth the entity keeps (ARCHITECTURE: "an outcome is
// never decided on a pushed event alone").
import { log } from '@temporalio/workflow';
import { localReadActivities, readActivities } from '../../activity-options';
import { applicationFailureOf } from '../../activity-failures';
import { CONFIRM_RETRY_MS } from '../push-confirmation';
import type { ProviderPaymentState } from '../state';

/** The service answered that it has no such payment (404): an answer, not a fault to retry. */
function saysNoSuchPayment(err: unknown): boolean {
  const type = applicationFailureOf(err)?.type;
  return type === 'NotFoundError' || type === 'NOT_FOUND';
}

/** A GET on the timer (or the fresh run's first read); it judges every push held before it started. */
export async function reconcile(state: ProviderPaymentState): Promise<void> {
  const judging = state.takeHeld();
  try {
    const read = await readActivities.getPayment(state.id);
    state.judge(read, judging);
  } catch (err) {
    if (saysNoSuchPayment(err)) state.notFound(judging);
    else state.holdAgain(judging);
    log.warn('reconciliation read failed; will try again', {
      providerPaymentId: state.id,
      error: String(err),
    });
  } finally {
    state.heard();
  }
}

/**
 * The read that confirms held pushes: a local activity (a marker in the task that asks, no activity task and
 * no extra workflow task), retried by Temporal for 10 minutes. If the service cannot be reached the pushes
 * stay held, never trusted, and the read is tried again CONFIRM_RETRY_MS later.
 */
export async function confirmHeldPushes(state: ProviderPaymentState): Promise<void> {
  const judging = state.takeHeld();
  try {
    const read = await localReadActivities.getPayment(state.id);
    if (state.judge(read, judging)) state.confirmed();
    else state.confirmAgainAfter(CONFIRM_RETRY_MS);
  } catch (err) {
    if (saysNoSuchPayment(err)) return state.notFound(judging);
    state.holdAgain(judging);
    state.confirmAgainAfter(CONFIRM_RETRY_MS);
    log.warn('confirming read failed; pushed final status stays held', {
      providerPaymentId: state.id,
      error: String(err),
    });
  }
}
