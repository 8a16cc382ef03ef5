// An in-memory stand-in for the payments service behind the activities, with the quote/funding rules of
// the spec (States and transitions) applied on the test server's clock. Tests move it (fund, advance) and
// deliver the resulting events to the entity workflow the way the ingress does.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { addBusinessDays, type Account, type Customer, type Payment, type Rate } from '../../../src/contract';
import type { AllActivities, RateQuery } from '../../../activities/types';
import { adoptionMismatches } from '../../../workflows/payment/resolve-rules';
import { validatePaymentRequest } from '../../../src/contract/validate-payment-request';
import { createThenFollow } from '../../../activities/payment-activities';
import type { Client } from '@temporalio/client';
import type { ProviderPaymentInput } from '../../../workflows/inputs';

export const QUOTE_VALIDITY_MS = 15 * 60 * 1000;

/** ids unique across the fakes of one test file, so entity workflow IDs never repeat */
let globalSeq = 0;

export interface FakeProviderOptions {
  now: () => Promise<number>;
  midMarketRate?: number;
  quotedRate?: number;
  totalFee?: number;
  /**
   * How often the provider payments' entities read when nothing is heard (their `reconcileEveryMs`; 1 h by
   * default). A test that sleeps weeks on the time-skipping server sets a day: each hourly read of a payment still
   * moving is an activity and a workflow task, 744 of them in 31 days, which the test does not look at.
   */
  entityReconcileEveryMs?: number;
}

export class FakeProvider {
  readonly payments = new Map<string, Payment>();
  readonly customers = new Map<string, Customer>();
  readonly accounts = new Map<string, Account>();
  /** each call, with the type of the workflow whose activity made it (a payment's GET vs its entity's) */
  readonly calls: { name: string; args: unknown[]; workflowType?: string }[] = [];
  private readonly byKey = new Map<string, string>();
  midMarketRate: number;
  quotedRate: number;
  totalFee: number;
  /** thrown by the next createPayment calls (then cleared) */
  createFailures: Error[] = [];
  /** requirements returned by getAccountRequirements */
  requirements: unknown[] = [];
  /** what getCustomer answers; `null` = the client has no GET (NOT_SUPPORTED) */
  customerGetSupported = true;

  constructor(private readonly options: FakeProviderOptions) {
    this.midMarketRate = options.midMarketRate ?? 0.9;
    this.quotedRate = options.quotedRate ?? 0.9;
    this.totalFee = options.totalFee ?? 5;
  }

  callsOf(name: string, workflowType?: string): { name: string; args: unknown[]; workflowType?: string }[] {
    return this.calls.filter((c) => c.name === name && (!workflowType || c.workflowType === workflowType));
  }

  private record(call: { name: string; args: unknown[] }): void {
    let workflowType: string | undefined;
    try {
      workflowType = Context.current().info.workflowType;
    } catch {
      workflowType = undefined; // called outside an activity (a test's own call)
    }
    this.calls.push({ ...call, workflowType });
  }

  activities(): AllActivities {
    return {
      // the contract's own rules (a pure function), as the real activity runs them
      validatePaymentRequest: async (request, asOf) => validatePaymentRequest(request, new Date(asOf)),
      // the real follow (signalWithStart through the worker's client) around the fake POST, as a test may have
      // wrapped it (this.activities() is what the worker calls now)
      createPaymentAndFollow: (request, idempotencyKey, follow) =>
        createThenFollow(
          (r, k) => this.activities().createPayment(r, k),
          this.options.entityReconcileEveryMs === undefined
            ? undefined
            : () => entitiesReadingEvery(Context.current().client, this.options.entityReconcileEveryMs!),
        )(request, idempotencyKey, follow),
      getRate: async (query: RateQuery): Promise<Rate> => {
        this.record({ name: 'getRate', args: [query] });
        return {
          midMarketRate: this.midMarketRate,
          invertedMidMarketRate: 1 / this.midMarketRate,
          serviceFee: { fixed: 1, variable: 0.001 },
          developerFee: { fixed: 0, variable: 0 },
          calculatedAmount: {
            description: 'fake',
            sourceAmount: query.sourceAmount ?? 0,
            destinationAmount: (query.sourceAmount ?? 0) * this.midMarketRate,
            totalFeeInSourceCurrency: this.totalFee,
          },
          quoteId: `quote_${++globalSeq}`,
        };
      },
      createPayment: async (request, idempotencyKey) => {
        this.record({ name: 'createPayment', args: [request, idempotencyKey] });
        const failure = this.createFailures.shift();
        if (failure) throw failure;
        const existing = this.byKey.get(idempotencyKey);
        if (existing) return this.payments.get(existing)!;
        const now = await this.options.now();
        const id = `pay_${++globalSeq}`;
        const pulled = Boolean(request.source.accountId);
        const p: Payment = {
          id,
          lifecycle: {
            createdAt: iso(now),
            sentAt: null,
            completedAt: null,
            expiredAt: null,
            refundedAt: null,
          },
          customerId: (request.customerId as string | undefined) ?? 'cus_1',
          status: pulled ? 'PENDING' : 'AWAITING_FUNDS',
          statusReasons: null,
          error: null,
          type: 'PAYOUT',
          comment: null,
          reference: null,
          returnAddress: null,
          paymentReason: request.paymentReason,
          fee: this.totalFee,
          developerFee: { fixed: null, variable: null, total: null },
          quote: { exchangeRate: this.quotedRate, expiresAt: iso(now + QUOTE_VALIDITY_MS) },
          tracking: { traceNumber: null, omad: null, imad: null, certificate: null, uetr: null },
          files: [],
          configurations: { expiredQuoteBehavior: 'REFUND_PAYMENT' },
          source: {
            amount: request.source.amount,
            currencyCode: request.source.currencyCode,
            accountId: request.source.accountId ?? null,
            rail: request.source.rail,
            fromAddress: null,
            transactionHash: null,
            fromAccountNumber: null,
          },
          destination: {
            amount: request.source.amount * this.quotedRate,
            rail: request.destination.rail,
            currencyCode: request.destination.currencyCode,
            transactionHash: null,
            accountId: request.destination.accountId,
          },
          fundingInstructions: {
            rail: request.source.rail,
            amount: request.source.amount,
            toAddress: `ACCT-${id}`,
            fromAddress: null,
            currencyCode: request.source.currencyCode,
          },
        };
        this.payments.set(id, p);
        this.byKey.set(idempotencyKey, id);
        return p;
      },
      findPaymentsLike: async (request, createdAfter) => {
        this.record({ name: 'findPaymentsLike', args: [request, createdAfter] });
        if (!request.customerId) return null;
        const since = Date.parse(createdAfter);
        return [...this.payments.values()]
          .filter(
            (p) =>
              Date.parse(p.lifecycle.createdAt ?? '') >= since && adoptionMismatches(request, p).length === 0,
          )
          .map((p) => ({ id: p.id, status: p.status }));
      },
      getPayment: async (id) => {
        this.record({ name: 'getPayment', args: [id] });
        await this.applyTime(id);
        const p = this.payments.get(id);
        if (!p)
          throw ApplicationFailure.create({
            type: 'NOT_FOUND',
            message: `no payment ${id}`,
            nonRetryable: true,
          });
        return p;
      },
      createCustomer: async (body, idempotencyKey) => {
        this.record({ name: 'createCustomer', args: [body, idempotencyKey] });
        const existing = this.byKey.get(idempotencyKey);
        if (existing) return this.customers.get(existing)!;
        const id = `cus_${++globalSeq}`;
        const customer = {
          ...body,
          id,
          status: 'PENDING_REVIEW',
          createdAt: iso(await this.options.now()),
        } as Customer;
        this.customers.set(id, customer);
        this.byKey.set(idempotencyKey, id);
        return customer;
      },
      getCustomer: async (id) => {
        this.record({ name: 'getCustomer', args: [id] });
        if (!this.customerGetSupported) {
          throw ApplicationFailure.create({ type: 'NOT_SUPPORTED', message: 'no GET', nonRetryable: true });
        }
        const c = this.customers.get(id);
        if (!c)
          throw ApplicationFailure.create({
            type: 'NOT_FOUND',
            message: `no customer ${id}`,
            nonRetryable: true,
          });
        return c;
      },
      getAccountRequirements: async (query) => {
        this.record({ name: 'getAccountRequirements', args: [query] });
        return this.requirements as never;
      },
      createAccount: async (body, idempotencyKey) => {
        this.record({ name: 'createAccount', args: [body, idempotencyKey] });
        const existing = this.byKey.get(idempotencyKey);
        if (existing) return this.accounts.get(existing)!;
        const id = `acc_${++globalSeq}`;
        const account = { ...body, id, createdAt: iso(await this.options.now()) } as Account;
        this.accounts.set(id, account);
        this.byKey.set(idempotencyKey, id);
        return account;
      },
    };
  }

  /** spec: States and transitions, row 1 — no funds within 3 business days → EXPIRED. */
  async applyTime(id: string): Promise<void> {
    const p = this.payments.get(id);
    if (!p || p.status !== 'AWAITING_FUNDS') return;
    const now = await this.options.now();
    const deadline = addBusinessDays(new Date(p.lifecycle.createdAt!), 3).getTime();
    if (now >= deadline)
      this.set(id, { status: 'EXPIRED', lifecycle: { ...p.lifecycle, expiredAt: iso(now) } });
  }

  /**
   * Funds reach the payment, sent at `sentAtMs`. spec: rows 2 (sent before quote expiry → PENDING, even when
   * the notice is late) and 4 (after the quote expired → refunded, FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED;
   * the status of an EXPIRED payment stays EXPIRED). An AWAITING_FUNDS payment funded after its quote is
   * REFUNDED (our decision, docs/spec-gaps.md).
   */
  async fund(id: string, sentAtMs: number): Promise<Payment> {
    await this.applyTime(id);
    const p = this.payments.get(id)!;
    const now = await this.options.now();
    const beforeExpiry = sentAtMs < Date.parse(p.quote.expiresAt);
    if (p.status === 'AWAITING_FUNDS' && beforeExpiry) return this.set(id, { status: 'PENDING' });
    const refund = {
      error: { code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED', message: 'refunded' },
      lifecycle: { ...p.lifecycle, refundedAt: iso(now) },
    };
    if (p.status === 'EXPIRED') return this.set(id, refund);
    return this.set(id, { ...refund, status: 'REFUNDED' });
  }

  async advance(
    id: string,
    status: 'PROCESSING' | 'SENT' | 'COMPLETED' | 'FAILED',
    code?: string,
  ): Promise<Payment> {
    const p = this.payments.get(id)!;
    const now = iso(await this.options.now());
    const lifecycle = { ...p.lifecycle };
    if (status === 'SENT') lifecycle.sentAt = now;
    if (status === 'COMPLETED') lifecycle.completedAt = now;
    return this.set(id, { status, lifecycle, ...(code ? { error: { code, message: code } } : {}) });
  }

  set(id: string, patch: Partial<Payment>): Payment {
    const next = { ...this.payments.get(id)!, ...patch } as Payment;
    this.payments.set(id, next);
    return next;
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Replaces some of the fake's activities with wrappers around its own (a call that fails first, a slow one, …).
 * It works because the shared worker asks `fake.activities()` on every call.
 */
export function wrapActivities(
  fake: FakeProvider,
  wrap: (inner: AllActivities) => Partial<AllActivities>,
): void {
  const original = fake.activities.bind(fake);
  fake.activities = () => {
    const inner = original();
    return { ...inner, ...wrap(inner) };
  };
}

/** A client whose signalWithStart of an entity gives it `reconcileEveryMs` (FakeProviderOptions.entityReconcileEveryMs). */
function entitiesReadingEvery(client: Client, reconcileEveryMs: number): Pick<Client, 'workflow'> {
  const signalWithStart: Client['workflow']['signalWithStart'] = (type, options) =>
    client.workflow.signalWithStart(type, {
      ...options,
      args: [{ ...(options.args?.[0] as ProviderPaymentInput), reconcileEveryMs }],
    } as typeof options);
  return { workflow: { signalWithStart } as unknown as Client['workflow'] };
}
