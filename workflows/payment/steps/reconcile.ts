// A GET of one of the payment's provider payments, folded in like a notice (spec: Events 5 — delivery is
// "not shown": the payment reads by itself when it heard nothing for a while).
import { readActivities } from '../../activity-options';
import { tellEntity } from '../../provider-payment/tell-entity';
import type { PaymentWorkflowState } from '../state';

export async function reconcile(state: PaymentWorkflowState, id: string, why: string): Promise<void> {
  try {
    const read = await readActivities.getPayment(id);
    const before = state.tracked.get(id);
    state.absorb(read, `reconcile: ${why}`);
    state.note('reconciled', `${id} (${why})`);
    // news the entity may have missed (its webhook dropped): it must not show an older state for an hour
    if (state.tracked.get(id) !== before) {
      const failed = await tellEntity(read, state.workflowId);
      if (failed) state.note('entity-not-told', `${id}: ${failed}`);
    }
  } catch (err) {
    state.note('reconcile-failed', `${id} (${why}): ${String(err)}`);
  } finally {
    state.readDone();
  }
}
