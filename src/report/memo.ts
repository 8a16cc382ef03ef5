// The amounts a payment was asked for, kept in its workflow's memo by startPayment (given with the start: no
// workflow command, so the PINNED payment workflow is unchanged). Visibility returns memos with every listed
// workflow, so the report reads the workflow's amounts page by page, with no query per payment. Amounts and
// currencies only: no personal data (the memo is encrypted like every payload, docs/codec.md).
import type { Money, RequestedAmounts } from './types';

export const AMOUNTS_MEMO_KEY = 'amounts';

const moneyOf = (side: unknown): Money | null => {
  if (!side || typeof side !== 'object') return null;
  const { amount, currencyCode } = side as { amount?: unknown; currencyCode?: unknown };
  if (typeof currencyCode !== 'string') return null;
  if (typeof amount === 'number' && Number.isFinite(amount)) return { amount: String(amount), currencyCode };
  if (typeof amount === 'string' && /^-?\d+(\.\d+)?$/.test(amount)) return { amount, currencyCode };
  return null;
};

/** The memo startPayment gives: the side(s) of the request that carry an amount (spec: POST /payments, one of the two). */
export function amountsMemo(request: {
  source?: unknown;
  destination?: unknown;
}): Record<string, RequestedAmounts> {
  return {
    [AMOUNTS_MEMO_KEY]: { source: moneyOf(request.source), destination: moneyOf(request.destination) },
  };
}

/** The amounts read back from a listed workflow's memo; null when it has none (a transfer's payment, an older one). */
export function amountsFromMemo(memo: Record<string, unknown> | undefined): RequestedAmounts | null {
  const value = memo?.[AMOUNTS_MEMO_KEY];
  if (!value || typeof value !== 'object') return null;
  const { source, destination } = value as { source?: unknown; destination?: unknown };
  const amounts = { source: moneyOf(source), destination: moneyOf(destination) };
  return amounts.source || amounts.destination ? amounts : null;
}
