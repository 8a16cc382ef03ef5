import { BANK_FIELDS, FAILURE_CODES, type FailureCode } from '../../contract';

/**
 * Magic values for scripted scenarios (documented in docs/sandbox.md, "Magic values").
 * Everything else follows the happy path.
 */

export type ReviewScript = 'APPROVE' | 'REJECT' | 'MANUAL';

/** Individuals by lastName, businesses by name: "Review" stays in manual review, "Reject" is rejected. */
export function customerReviewScript(body: Record<string, unknown>): ReviewScript {
  const name = String((body.type === 'BUSINESS' ? body.name : body.lastName) ?? '')
    .trim()
    .toLowerCase();
  if (name === 'review') return 'MANUAL';
  if (name === 'reject') return 'REJECT';
  return 'APPROVE';
}

/** A bank identification value (accountNumber, iban, clabeNumber, …) that scripts the outcome of payouts. */
export const MAGIC_BANK_VALUES: Readonly<Record<string, FailureCode>> = {
  '000000000': 'INVALID_EXTERNAL_ACCOUNT_NUMBER',
  '111111111': 'FUNDS_RETURNED_BY_RECEIVING_BANK',
  '222222222': 'EXTERNAL_ACCOUNT_DEPOSIT_LIMIT_EXCEEDED',
  '333333333': 'RFI_NOT_ANSWERED_IN_TIME',
  '444444444': 'INVALID_EXTERNAL_ACCOUNT_HOLDER_ADDRESS',
};

/** accountHolder name "Invalid Name" → INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME; address line "PO Box …" → PMB_OR_PO_BOX. */
export function accountScriptedFailure(account: Record<string, unknown>): FailureCode | null {
  const bank = (account.bank ?? {}) as Record<string, unknown>;
  for (const field of BANK_FIELDS) {
    const value = bank[field];
    if (typeof value === 'string' && MAGIC_BANK_VALUES[value]) return MAGIC_BANK_VALUES[value];
  }
  const holder = (account.accountHolder ?? {}) as Record<string, unknown>;
  const name = [
    holder.name,
    holder.businessName,
    [holder.firstName, holder.lastName].filter(Boolean).join(' '),
  ].map((n) =>
    String(n ?? '')
      .trim()
      .toLowerCase(),
  );
  if (name.includes('invalid name')) return 'INVALID_EXTERNAL_ACCOUNT_HOLDER_NAME';
  const address = (holder.address ?? {}) as Record<string, unknown>;
  if (/^\s*(p\.?\s*o\.?\s*box|pmb)\b/i.test(String(address.line1 ?? '')))
    return 'EXTERNAL_ACCOUNT_HOLDER_ADDRESS_IS_PMB_OR_PO_BOX';
  return null;
}

/** A payment `reference` of `FAIL:<failure code>` makes that payment fail with the code at PROCESSING → SENT. */
export function paymentScriptedFailure(reference: unknown): FailureCode | null {
  if (typeof reference !== 'string' || !reference.startsWith('FAIL:')) return null;
  const code = reference.slice('FAIL:'.length);
  return (FAILURE_CODES as readonly string[]).includes(code) ? (code as FailureCode) : null;
}
