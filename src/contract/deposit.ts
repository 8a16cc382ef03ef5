import { z } from 'zod';
import { CurrencyCode, Timestamp } from './primitives';

// spec: Deposit (deprecated) and Events 3 — the deposit record and its `account.deposit` event, replaced by
// PAYIN payments (2025-09-08) and ended 2025-09-30. The record's fields are not shown: ours are
// { id, accountId, customerId, amount, currencyCode, rail, createdAt } (docs/spec-gaps.md, Sandbox); loose so
// that a real record with other fields still parses.
export const LegacyDepositSchema = z.looseObject({
  id: z.string().min(1),
  accountId: z.string().min(1),
  customerId: z.string().nullable().optional(),
  amount: z.number(),
  currencyCode: CurrencyCode,
  rail: z.string().nullable().optional(),
  createdAt: Timestamp,
});
export type LegacyDeposit = z.infer<typeof LegacyDepositSchema>;
