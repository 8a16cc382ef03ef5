// What an onboarding knows while it waits for the review: the customer as last seen, and how many changes the
// providerCustomer entity has sent (the waits are `condition()` on it).
import type { Customer } from '../../src/contract';
import { isReviewFinal } from '../provider-customer/api';
import type { OnboardState } from './api';

/** The fields the onboarding reads of a customer the entity sends (spec: Customer, id and status). */
function customerOf(raw: unknown): Customer | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { id, status } = raw as { id?: unknown; status?: unknown };
  return typeof id === 'string' && typeof status === 'string' ? (raw as Customer) : null;
}

export class OnboardProgress {
  customer: Customer | null = null;
  changes = 0;
  lastSignal: string | null = null;

  snapshot(): OnboardState {
    return { customer: this.customer, lastSignal: this.lastSignal };
  }

  /**
   * customerChanged from the entity: the entity parsed the customer (activities validate what the service sends),
   * so only its id and status are read here. A review decision stands: a later change never replaces it.
   */
  onCustomerChanged(raw: unknown): void {
    const customer = customerOf(raw);
    this.lastSignal = customer ? `ok ${customer.status}` : 'unparsable: no id or status';
    if (customer && !this.reviewFinal()) this.customer = customer;
    this.changes++;
  }

  /** A GET's answer, unless a signal brought the decision first. */
  onRead(customer: Customer): void {
    if (!this.reviewFinal()) this.customer = customer;
  }

  reviewFinal(): boolean {
    return isReviewFinal(this.customer);
  }
}
