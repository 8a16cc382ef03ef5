// Search attributes of the payment and entity workflows (ARCHITECTURE: "A stuck payment is one query away").
// Only ids, phases and dates: no personal data (ARCHITECTURE: Rules of the house).
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
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

/** The search attributes an index sets (absent values are left as they are). */
export function indexPairs(index: PaymentIndex): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [];
  if (index.phase !== undefined) pairs.push({ key: PaymentPhaseKey, value: index.phase });
  if (index.status) pairs.push({ key: PaymentStatusKey, value: index.status });
  if (index.providerPaymentId) pairs.push({ key: ProviderPaymentIdKey, value: index.providerPaymentId });
  if (index.customerId) pairs.push({ key: CustomerIdKey, value: index.customerId });
  if (index.quoteExpiresAt) pairs.push({ key: QuoteExpiresAtKey, value: index.quoteExpiresAt });
  if (index.fundingDeadline) pairs.push({ key: FundingDeadlineKey, value: index.fundingDeadline });
  return pairs;
}

/**
 * What this run was started with (the start event's search attributes: the same on every replay). A
 * workflow whose starter already set them (startPayment sets the payment's first phase; a payment sets its
 * entity's ids) upserts nothing until something differs.
 */
export function indexAtStart(): PaymentIndex {
  const started = workflowInfo().typedSearchAttributes;
  return {
    phase: started.get(PaymentPhaseKey),
    status: started.get(PaymentStatusKey) ?? null,
    providerPaymentId: started.get(ProviderPaymentIdKey) ?? null,
    customerId: started.get(CustomerIdKey) ?? null,
    quoteExpiresAt: started.get(QuoteExpiresAtKey) ?? null,
    fundingDeadline: started.get(FundingDeadlineKey) ?? null,
  };
}

const fingerprintOf = (pairs: SearchAttributePair[]): string =>
  JSON.stringify(pairs.map((p) => [p.key.name, p.value]));

/**
 * One indexer per workflow run (no module state: workflow modules may be shared between runs).
 * Upserts only when something changed, so repeated calls add no commands. `seed`, read at the first call, is
 * what the run already has (indexAtStart), or null for nothing.
 */
export function createIndexer(seed: () => PaymentIndex | null = () => null): (index: PaymentIndex) => void {
  let lastUpserted: string | undefined;
  return (index) => {
    if (lastUpserted === undefined) {
      const seeded = seed();
      lastUpserted = seeded ? fingerprintOf(indexPairs(seeded)) : '';
    }
    const pairs = indexPairs(index);
    if (pairs.length === 0) return;
    const fingerprint = fingerprintOf(pairs);
    if (fingerprint === lastUpserted) return;
    lastUpserted = fingerprint;
    upsertSearchAttributes(pairs);
  };
}
