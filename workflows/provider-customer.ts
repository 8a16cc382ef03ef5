// providerCustomer: the entity workflow of one provider customer, ID `provider-customer:<id>`, fed by the
// ingress (customer.created / customer.updated, signalWithStart) and forwarding review outcomes to the
// onboarding workflow that subscribed. The review status only moves PENDING_REVIEW → APPROVED | REJECTED
// (docs/spec-gaps.md, "Customer review status"); a late or duplicate event never moves it back.
import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Customer } from '../src/contract';
import { CustomerShape } from '../src/contract/customer-shape';
import { safeParse } from '../src/contract/plain-schema';
import {
  customerChangedSignal,
  customerEventSignal,
  customerSnapshotQuery,
  subscribeSignal,
} from './messages';
import type { ProviderCustomerInput } from './inputs';
import { parseOrThrow, ProviderCustomerInputShape } from './input-shapes';
import { BoundedIdSet } from './payment-merge';

const DAY = 24 * 60 * 60 * 1000;
const RANK: Record<string, number> = { PENDING_REVIEW: 0, APPROVED: 1, REJECTED: 1 };

export function isReviewFinal(customer: { status?: string } | null): boolean {
  return customer?.status === 'APPROVED' || customer?.status === 'REJECTED';
}

export async function providerCustomer(
  rawInput: ProviderCustomerInput,
): Promise<{ customerId: string; customer: Customer | null }> {
  const input = parseOrThrow(ProviderCustomerInputShape, rawInput);
  const lingerMs = input.lingerAfterFinalMs ?? DAY;
  const seen = new BoundedIdSet(input.seenEventIds ?? []);
  const subscribers = new Set(input.subscribers ?? []);
  const forwarded = new Map<string, number>();
  let customer: Customer | null = parse(input.customer);
  let version = customer ? 1 : 0;
  let wakeups = 0;
  // A review that never ends must not keep the entity open forever (issue 9, point 8). Versioned: runs
  // recorded before this wait 30 × linger per turn; asked again on every turn, so a run started by the old code
  // takes the bounded end once it runs live on the new code (patched() is false only while replaying its past).
  let bounded = patched('customer-entity-ends');
  const maxReviewIdleMs = input.maxReviewIdleMs ?? 30 * DAY;
  const continueAsNewAfter = input.continueAsNewAfterEvents ?? 2000;
  let lastChangeAt = Date.now();

  function parse(raw: unknown): Customer | null {
    if (raw === undefined) return null;
    const r = safeParse(CustomerShape, raw); // CustomerSchema's zod-free twin
    if (!r.success) log.warn('customer payload not understood; dropped', { customerId: input.customerId });
    return r.success ? r.data : null;
  }

  function accept(raw: unknown): void {
    const incoming = parse(raw);
    if (!incoming || incoming.id !== input.customerId) return;
    if (customer && (RANK[incoming.status] ?? 0) < (RANK[customer.status] ?? 0)) return; // never backwards
    if (customer && isReviewFinal(customer) && incoming.status !== customer.status) return; // a decision stands
    customer = incoming;
    version++;
    lastChangeAt = Date.now();
  }

  setHandler(customerEventSignal, (event) => {
    if (seen.add(event.eventId)) accept(event.customer);
  });
  setHandler(subscribeSignal, ({ workflowId }) => {
    subscribers.add(workflowId);
    forwarded.delete(workflowId);
    wakeups++;
  });
  setHandler(customerSnapshotQuery, () => ({
    customerId: input.customerId,
    customer,
    subscribers: [...subscribers],
  }));

  async function forward(): Promise<void> {
    if (!customer) return;
    const sending = customer;
    const sendingVersion = version;
    for (const s of [...subscribers]) {
      if (forwarded.get(s) === sendingVersion) continue;
      try {
        await getExternalWorkflowHandle(s).signal(customerChangedSignal, {
          customerId: input.customerId,
          customer: sending,
        });
        forwarded.set(s, sendingVersion);
      } catch {
        subscribers.delete(s);
        forwarded.delete(s);
      }
    }
  }

  /** The next run takes the customer, the subscribers (told again: harmless) and the seen event ids. */
  async function carryOver(): Promise<never> {
    await condition(allHandlersFinished);
    return continueAsNew<typeof providerCustomer>({
      customerId: input.customerId,
      customer: customer ?? undefined,
      subscribers: [...subscribers],
      seenEventIds: seen.toArray(),
      lingerAfterFinalMs: input.lingerAfterFinalMs,
      maxReviewIdleMs: input.maxReviewIdleMs,
      continueAsNewAfterEvents: input.continueAsNewAfterEvents,
    });
  }

  let finalSince: number | null = null;
  for (;;) {
    await forward();
    const now = Date.now();
    bounded ||= patched('customer-entity-ends');
    if (isReviewFinal(customer)) {
      finalSince ??= now;
      if (now >= finalSince + lingerMs) break;
    } else if (bounded && now >= lastChangeAt + maxReviewIdleMs) {
      // Nobody waits: end; a later customer.updated webhook starts a new run (signalWithStart), which
      // loses nothing. Someone waits (onboardCustomer): go on in a fresh run, so it is still told.
      if (subscribers.size === 0) break;
      return carryOver();
    }
    if (bounded) {
      const info = workflowInfo();
      if (info.continueAsNewSuggested || info.historyLength >= continueAsNewAfter) return carryOver();
    }
    const v = version;
    const w = wakeups;
    const inReview = bounded ? Math.max(1, lastChangeAt + maxReviewIdleMs - now) : lingerMs * 30;
    const timeout = finalSince === null ? inReview : Math.max(1, finalSince + lingerMs - now);
    // a change that landed while a forward was in flight is forwarded on the next turn
    const unforwarded = () => customer !== null && [...subscribers].some((s) => forwarded.get(s) !== version);
    await condition(() => version !== v || wakeups !== w || unforwarded(), timeout);
  }
  await condition(allHandlersFinished);
  await forward();
  return { customerId: input.customerId, customer };
}
