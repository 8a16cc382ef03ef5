// providerCustomer: the entity workflow of one provider customer, ID `provider-customer:<id>`, fed by the
// ingress (customer.created / customer.updated, signalWithStart: api.ts) and forwarding review outcomes to the
// onboarding workflow that subscribed. AUTO_UPGRADE: its commands change only behind the patches of patches.ts.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { workflowIdMismatch } from '../workflow-id-check';
import {
  customerEventSignal,
  customerSnapshotQuery,
  isReviewFinal,
  providerCustomerWorkflowId,
  subscribeSignal,
  type ProviderCustomerInput,
} from './api';
import { CUSTOMER_PATCHES } from './patches';
import { ProviderCustomerState, type ProviderCustomerSnapshot } from './state';
import { forwardCustomer } from './steps/forward';

const DAY = 24 * 60 * 60 * 1000;

/** The input is typed at the edge (api.ts, signalWithStartProviderCustomer; continue-as-new): not parsed again. */
export async function providerCustomer(
  input: ProviderCustomerInput,
): Promise<Omit<ProviderCustomerSnapshot, 'subscribers'>> {
  // An input copied under another ID never acts (workflow-id-check.ts); patched() only then (no marker otherwise).
  const mismatch = workflowIdMismatch(
    providerCustomerWorkflowId(input.customerId),
    workflowInfo().workflowId,
  );
  if (mismatch && patched(CUSTOMER_PATCHES.refusesAnotherId)) throw mismatch;
  const lingerMs = input.lingerAfterFinalMs ?? DAY;
  const maxReviewIdleMs = input.maxReviewIdleMs ?? 30 * DAY;
  const continueAsNewAfter = input.continueAsNewAfterEvents ?? 2000;
  const state = new ProviderCustomerState(input);
  let bounded = patched(CUSTOMER_PATCHES.entityEnds);
  setHandler(customerEventSignal, (event) => state.onEvent(event));
  setHandler(subscribeSignal, (request) => state.onSubscribe(request));
  setHandler(customerSnapshotQuery, () => state.snapshot());

  const carryOver = async (): Promise<never> => {
    await condition(allHandlersFinished);
    return continueAsNew<typeof providerCustomer>(state.carriedOver());
  };

  let finalSince: number | null = null;
  for (;;) {
    await forwardCustomer(state);
    const now = Date.now();
    bounded ||= patched(CUSTOMER_PATCHES.entityEnds);
    if (isReviewFinal(state.customer)) {
      finalSince ??= now;
      if (now >= finalSince + lingerMs) break;
    } else if (bounded && now >= state.lastChangeAt + maxReviewIdleMs) {
      // Nobody waits: end; a later customer.updated webhook starts a new run (signalWithStart), which
      // loses nothing. Someone waits (onboardCustomer): go on in a fresh run, so it is still told.
      if (state.subscribers.size === 0) break;
      return carryOver();
    }
    if (bounded) {
      const info = workflowInfo();
      if (info.continueAsNewSuggested || info.historyLength >= continueAsNewAfter) return carryOver();
    }
    const { version, wakeups } = state;
    const inReview = bounded ? Math.max(1, state.lastChangeAt + maxReviewIdleMs - now) : lingerMs * 30;
    const timeout = finalSince === null ? inReview : Math.max(1, finalSince + lingerMs - now);
    await condition(
      () => state.version !== version || state.wakeups !== wakeups || state.unforwarded(),
      timeout,
    );
  }
  await condition(allHandlersFinished);
  await forwardCustomer(state);
  return { customerId: state.customerId, customer: state.customer };
}
