import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Search attributes of ARCHITECTURE.md ("Search attributes"): what operators filter on in the Temporal UI.
// No personal data here: Temporal stores them unencrypted.
export const PaymentPhaseKey = defineSearchAttributeKey('PaymentPhase', SearchAttributeType.KEYWORD);
export const PaymentStatusKey = defineSearchAttributeKey('PaymentStatus', SearchAttributeType.KEYWORD);
export const ProviderPaymentIdKey = defineSearchAttributeKey(
  'ProviderPaymentId',
  SearchAttributeType.KEYWORD,
);
export const CustomerIdKey = defineSearchAttributeKey('CustomerId', SearchAttributeType.KEYWORD);
export const QuoteExpiresAtKey = defineSearchAttributeKey('QuoteExpiresAt', SearchAttributeType.DATETIME);
export const FundingDeadlineKey = defineSearchAttributeKey('FundingDeadline', SearchAttributeType.DATETIME);

/**
 * The phase startPayment gives a payment at start: validation runs within the first workflow task,
 * so the first phase anyone can see is QUOTING; a payment run under `payment-lean-history` does not upsert it
 * again. An older worker upserts VALIDATING and QUOTING over it, as before.
 */
export const PAYMENT_PHASE_AT_START = 'QUOTING';

/**
 * Statuses after which a payment workflow decides its outcome (spec: States and transitions; CANCELLED is not in the
 * contract's list, held for a future status of that name). The providerPayment entity always indexes them as
 * PaymentStatus (under entity-fewer-actions they are the only known statuses it upserts), so a running entity whose
 * PaymentStatus is none of them has not taken one: the reconcile activity looks for those
 * (activities/reconcile-activities.ts). The entity holds a pushed one until a GET confirms it (push-confirmation.ts).
 */
export const FINAL_PAYMENT_STATUSES: readonly string[] = [
  'COMPLETED',
  'FAILED',
  'REFUNDED',
  'EXPIRED',
  'CANCELLED',
];

export const ALL_SEARCH_ATTRIBUTE_KEYS = [
  PaymentPhaseKey,
  PaymentStatusKey,
  ProviderPaymentIdKey,
  CustomerIdKey,
  QuoteExpiresAtKey,
  FundingDeadlineKey,
] as const;

/** `--search-attribute Name=Type` arguments for `temporal server start-dev`. */
export function searchAttributeCliArgs(): string[] {
  const cliType: Record<string, string> = { KEYWORD: 'Keyword', DATETIME: 'Datetime' };
  return ALL_SEARCH_ATTRIBUTE_KEYS.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${cliType[key.type]}`,
  ]);
}

/**
 * The `PaymentPhase` search attribute of an entity holding a mismatch. Entities otherwise leave PaymentPhase
 * unset; `xborder stuck` lists them as WEBHOOK_NOT_CONFIRMED (src/client/stuck.ts). Reusing a registered
 * attribute means no deployment has to register a new one before this code runs (docs/spec-gaps.md).
 */
export const PUSH_MISMATCH_PHASE = 'WEBHOOK_NOT_CONFIRMED';
