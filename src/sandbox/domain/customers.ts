import { CreateCustomerRequestSchema, validateCustomer } from '../../contract';
import { type SandboxCore } from '../core';
import { ApiError, notFound, validationError } from '../http/api-error';
import { type StoredCustomer } from '../state';
import { customerReviewScript } from './magic';

const REVIEW = 'customer.review';
export type ReviewOutcome = 'APPROVED' | 'REJECTED';

/**
 * Customers and their review (gap: review status, docs/spec-gaps.md). A new customer is PENDING_REVIEW and
 * gets its outcome after `customerReviewDelayMs`: APPROVED, unless a magic value says otherwise
 * (lastName/name "Review" stays in review, "Reject" is rejected).
 */
export class CustomerService {
  constructor(private readonly core: SandboxCore) {
    core.scheduler.on(REVIEW, (job, at) => {
      const c = core.data.customers[String(job.data.customerId)];
      if (c && c.status === 'PENDING_REVIEW') this.setOutcome(c, job.data.outcome as ReviewOutcome, at);
    });
  }

  get(id: string): StoredCustomer {
    const c = this.core.data.customers[id];
    if (!c) throw notFound('Customer', id);
    return c;
  }

  /** POST /v1/customers: every rule of the spec by the clock's date (validateCustomer). */
  create(
    body: unknown,
    options: { fixedId?: string; status?: StoredCustomer['status'] } = {},
  ): StoredCustomer {
    const nowMs = this.core.clock.nowMs();
    const violations = validateCustomer(body, new Date(nowMs), { teamEmail: this.core.options.teamEmail });
    if (violations.length > 0) throw validationError(violations);
    const req = CreateCustomerRequestSchema.parse(body);
    const id = options.fixedId ?? this.core.newId('cus');
    const customer: StoredCustomer = {
      ...(body as Record<string, unknown>),
      id,
      type: req.type,
      status: options.status ?? 'PENDING_REVIEW',
      createdAt: new Date(nowMs).toISOString(),
    };
    this.core.data.customers[id] = customer;
    this.core.emit('customer.created', customer, nowMs);
    const script = customerReviewScript(customer);
    if (customer.status === 'PENDING_REVIEW' && script !== 'MANUAL') {
      this.core.scheduler.schedule(REVIEW, nowMs + this.core.options.customerReviewDelayMs, {
        customerId: id,
        outcome: script === 'REJECT' ? 'REJECTED' : 'APPROVED',
      });
    }
    return customer;
  }

  /** Control API: the review outcome now (only from PENDING_REVIEW). */
  review(id: string, outcome: ReviewOutcome): StoredCustomer {
    const c = this.get(id);
    if (c.status !== 'PENDING_REVIEW')
      throw new ApiError(409, 'INVALID_STATE', `Customer ${id} is already ${c.status}`);
    this.setOutcome(c, outcome, this.core.clock.nowMs());
    return c;
  }

  list(): StoredCustomer[] {
    return Object.values(this.core.data.customers);
  }

  private setOutcome(c: StoredCustomer, outcome: ReviewOutcome, atMs: number): void {
    c.status = outcome;
    c.reviewedAt = new Date(atMs).toISOString();
    this.core.emit('customer.updated', c, atMs);
  }
}
