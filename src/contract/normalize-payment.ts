// A payment payload in any shape (current, transitional before 2026-03-30, legacy) → the current Payment, checked
// with the contract's zod schema (spec: Payment). Runs at the edges (the provider client, the webhook parser,
// activities), never in a workflow (docs/performance.md: no zod in the workflow bundle).
import type { Payment } from './payment';
import { PaymentSchema } from './payment';
import { paymentParseError, toCurrentPaymentFields } from './payment-legacy-map';

/** Throws ContractParseError naming each missing or wrong path (with the old name when there is one). */
export function normalizePayment(raw: unknown): Payment {
  const result = PaymentSchema.safeParse(toCurrentPaymentFields(raw));
  if (!result.success) throw paymentParseError(result.error.issues);
  return result.data;
}
