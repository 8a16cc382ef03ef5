// Which values of a payment the contract knows (an unknown one is kept, never refused). Zod-free: the
// workflows use it (docs/performance.md: no zod in the workflow bundle).
import { PAYMENT_STATUSES } from './enums';

/** A status of the spec's list; any other is passed through and treated as in progress. */
export function isKnownPaymentStatus(status: string): boolean {
  return (PAYMENT_STATUSES as readonly string[]).includes(status);
}

/**
 * What of a payment the contract does not know: an unlisted status, a `statusReasons` that is not a list of
 * strings, an `error` without a string `code`. Empty when everything is known.
 */
export function unknownPaymentValues(p: {
  status: string;
  statusReasons: unknown;
  error: unknown;
}): string[] {
  const out: string[] = [];
  if (!isKnownPaymentStatus(p.status)) out.push(`status ${p.status}`);
  const reasons = p.statusReasons;
  if (reasons !== null && !(Array.isArray(reasons) && reasons.every((r) => typeof r === 'string')))
    out.push('statusReasons shape');
  const error = p.error as unknown;
  if (error !== null && typeof (error as { code?: unknown }).code !== 'string') out.push('error shape');
  return out;
}
