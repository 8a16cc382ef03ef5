// The providerPayment entity's memo: what `xborder` and the Temporal UI read to join a PAYIN and its conversion
// (no link field exists in the contract: docs/spec-gaps.md). One definition for the entity, which keeps it, and
// the payment, which starts the entity with it (a memo given at start needs no upsert).
import type { Payment } from '../src/contract';

export type EntityRole = 'PAYIN' | 'ORDERED' | 'CONVERSION' | 'UNKNOWN';

export interface EntityMemo {
  role: EntityRole;
  linkAccountId: string | null;
  type: string | null;
  unknownValues?: string[];
}

export function entityRole(payment: Payment | null, subscriberCount: number): EntityRole {
  if (!payment) return 'UNKNOWN';
  if (payment.type === 'PAYIN') return 'PAYIN';
  if (subscriberCount > 0) return 'ORDERED';
  // spec: Payment rule 2 — the conversion of funds that arrived at a virtual account
  if ((payment.type === 'PAYOUT' || payment.type === 'INTERNAL') && payment.source?.accountId)
    return 'CONVERSION';
  return 'UNKNOWN';
}

/** The virtual account that joins a PAYIN and its conversion. */
export function linkAccountIdOf(payment: Payment | null, role: EntityRole): string | null {
  if (role === 'PAYIN') return payment?.destination?.accountId ?? null;
  if (role === 'CONVERSION') return payment?.source?.accountId ?? null;
  return null;
}

export function entityMemo(
  payment: Payment | null,
  subscriberCount: number,
  unknownValues: string[],
): EntityMemo {
  const role = entityRole(payment, subscriberCount);
  return {
    role,
    linkAccountId: linkAccountIdOf(payment, role),
    type: payment?.type ?? null,
    ...(unknownValues.length > 0 ? { unknownValues } : {}),
  };
}

/** Compares memos whatever the order their keys came in (a memo read back from the start event). */
export function memoFingerprint(memo: Partial<EntityMemo> | undefined): string {
  if (!memo) return '';
  return JSON.stringify({
    role: memo.role,
    linkAccountId: memo.linkAccountId,
    type: memo.type,
    ...(memo.unknownValues && memo.unknownValues.length > 0 ? { unknownValues: memo.unknownValues } : {}),
  });
}
