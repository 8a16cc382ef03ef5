// How the entity reads a customer payload it was sent. The ingress parses it with the contract's CustomerSchema
// before it reaches the entity, so for new runs this accepts every payload. It stays in the workflow for
// determinism: histories recorded before the ingress parsed carry the webhook's body as it came, and whether that
// body was kept or dropped decided the entity's commands (signals to subscribers). Replaying them needs the same
// answer: CustomerSchema's zod-free twin (docs/performance.md). It can go once no history with raw payloads is
// kept in test/replay/histories (docs/deployment.md, "Replay histories per build").
import { log } from '@temporalio/workflow';
import type { Customer } from '../../src/contract';
import { CustomerShape } from '../../src/contract/customer-shape';
import { safeParse } from '../../src/contract/plain-schema';

export function readCustomerPayload(raw: unknown, customerId: string): Customer | null {
  if (raw === undefined) return null;
  const r = safeParse(CustomerShape, raw);
  if (!r.success) log.warn('customer payload not understood; dropped', { customerId });
  return r.success ? (r.data as Customer) : null;
}
