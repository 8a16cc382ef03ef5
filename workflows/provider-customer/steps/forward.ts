// The entity tells its subscribers (onboardCustomer) every accepted change: `customerChanged`.
import { getExternalWorkflowHandle } from '@temporalio/workflow';
import { customerChangedSignal } from '../api';
import type { ProviderCustomerState } from '../state';

/** Sends the current version to every subscriber that has not had it; a subscriber that is gone is dropped. */
export async function forwardCustomer(state: ProviderCustomerState): Promise<void> {
  if (!state.customer) return;
  const sending = state.customer;
  const sendingVersion = state.version;
  for (const s of [...state.subscribers]) {
    if (state.forwarded.get(s) === sendingVersion) continue;
    try {
      await getExternalWorkflowHandle(s).signal(customerChangedSignal, {
        customerId: state.customerId,
        customer: sending,
      });
      state.forwarded.set(s, sendingVersion);
    } catch {
      state.subscribers.delete(s);
      state.forwarded.delete(s);
    }
  }
}
