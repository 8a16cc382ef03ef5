// Search attributes of the payment and entity workflows (ARCHITECTURE: "A stuck payment is one query away").
// Only ids, phases and dates: no personal data (ARCHITECTURE: Rules of the house).
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import {
  CustomerIdKey,
  FundingDeadlineKey,
  PaymentPhaseKey,
  PaymentStatusKey,
  ProviderPaymentIdKey,
  QuoteExpiresAtKey,
} from './search-attributes';

export interface PaymentIndex {
  phase?: string;
  status?: string | null;
  providerPaymentId?: string | null;
  customerId?: string | null;
  quoteExpiresAt?: Date | null;
  fundingDeadline?: Date | null;
}

/**
 * One indexer per workflow run (no module state: workflow modules may be shared between runs).
 * Upserts only when something changed, so repeated calls add no commands.
 */
export function createIndexer(): (index: PaymentIndex) => void {
  let lastUpserted = '';
  return (index) => {
    const pairs: SearchAttributeUpdatePair[] = [];
    if (index.phase !== undefined) pairs.push({ key: PaymentPhaseKey, value: index.phase });
    if (index.status) pairs.push({ key: PaymentStatusKey, value: index.status });
    if (index.providerPaymentId) pairs.push({ key: ProviderPaymentIdKey, value: index.providerPaymentId });
    if (index.customerId) pairs.push({ key: CustomerIdKey, value: index.customerId });
    if (index.quoteExpiresAt) pairs.push({ key: QuoteExpiresAtKey, value: index.quoteExpiresAt });
    if (index.fundingDeadline) pairs.push({ key: FundingDeadlineKey, value: index.fundingDeadline });
    if (pairs.length === 0) return;
    const fingerprint = JSON.stringify(pairs.map((p) => [p.key.name, p.value]));
    if (fingerprint === lastUpserted) return;
    lastUpserted = fingerprint;
    upsertSearchAttributes(pairs);
  };
}
