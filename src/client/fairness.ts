// Fairness between customers: every workflow a customer's request starts carries the customer's
// fairness key, so that on a shared task queue one customer's burst of payouts cannot starve the others. Set once,
// on the workflow start: its workflow tasks carry it, and its activities and child workflows (the providerPayment
// entity, a transfer's onboard/register/pay) inherit it on the server (Priority, @temporalio/common 1.24: "not
// present … means to inherit the value from the calling workflow"). The server only acts on it with fairness on
// (dynamic config matching.enableFairness, or Temporal Cloud): docs/deployment.md, "Fairness".
// A provider customer id is an opaque id, not personal data (docs/codec.md: it is already a search attribute).
import { createHash } from 'node:crypto';
import type { Priority } from '@temporalio/common';

/** The server's limit on a fairness key (Priority.fairnessKey). */
export const MAX_FAIRNESS_KEY_BYTES = 64;

/** The key for an opaque id: itself when it fits, else a hash of it (same id → same key). */
export function fairnessKeyOf(id: string): string {
  if (Buffer.byteLength(id) <= MAX_FAIRNESS_KEY_BYTES) return id;
  return `sha256:${createHash('sha256')
    .update(id)
    .digest('hex')
    .slice(0, MAX_FAIRNESS_KEY_BYTES - 'sha256:'.length)}`;
}

/** The start option `{ priority: { fairnessKey } }`, or nothing when no customer is known. */
export function fairnessPriority(
  customerId: string | null | undefined,
): { priority: Priority } | Record<string, never> {
  return customerId ? { priority: { fairnessKey: fairnessKeyOf(customerId) } } : {};
}

function stringAt(value: unknown, ...path: string[]): string | null {
  let at: unknown = value;
  for (const key of path)
    at = at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'string' && at.length > 0 ? at : null;
}

/**
 * Whose payment this is: the body's `customerId`; without it, the paying account (`source.accountId`, one of the
 * customer's own), which the service itself uses to find the customer (docs/spec-gaps.md, "Customer of a
 * payment"). A payment that names neither gets no key (it shares the default key '').
 */
export function paymentCustomerKey(request: unknown): string | null {
  const customerId = stringAt(request, 'customerId');
  if (customerId) return customerId;
  const sourceAccount = stringAt(request, 'source', 'accountId');
  return sourceAccount ? `account:${sourceAccount}` : null;
}

/** A transfer's customer: the existing provider customer id, else the caller's customer key (never personal data). */
export function transferCustomerKey(customer: { customerId: string } | { customerKey: string }): string {
  return 'customerId' in customer ? customer.customerId : `key:${customer.customerKey}`;
}
