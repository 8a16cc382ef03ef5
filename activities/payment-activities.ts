import { Context } from '@temporalio/activity';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/contract';
import { signalWithStartProviderPayment } from '../workflows/provider-payment/api';
import { CustomerIdKey, PaymentStatusKey, ProviderPaymentIdKey } from '../workflows/search-attributes';
import { entityMemo } from '../workflows/entity-memo';
import { unknownPaymentValues } from '../src/contract/payment-status';
import { validatePaymentRequest } from '../src/contract/validate-payment-request';
import type { ProviderPort } from './provider-port';
import { adoptionMismatches } from '../workflows/payment/resolve-rules';
import type { FollowEntity, PaymentActivities } from './types';
import { callProvider, toApplicationFailure } from './errors';
import { KEY_RUN_MEMO, runScopedIdempotencyKey } from '../workflows/payment/api';
import { PAYMENT_WORKFLOW_TYPE } from '../workflows/payment/api';

/** Same string as PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN of workflows/payment/api.ts. */
export const CREATE_OUTCOME_UNKNOWN = 'CREATE_OUTCOME_UNKNOWN';

/** How many of a customer's payments findPaymentsLike reads at most (their order is not shown: all are read). */
export const FIND_LIKE_MAX_READ = 1_000;

/** The search behind an operator's check could not be made whole: not retried, the decision is refused. */
function searchIncomplete(why: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'SEARCH_INCOMPLETE', message: why, nonRetryable: true });
}

/** The attempt number of the running activity (1 outside an activity, e.g. in unit tests). */
function currentAttempt(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

/**
 * The run of its key the calling payment workflow is (its memo, set by startPayment on a freed key: 2, 3 …);
 * undefined for a key's first run and outside a payment. Fixed at the run's start, so every attempt of one create
 * sends the same idempotency key.
 */
async function currentKeyRun(): Promise<unknown> {
  let info;
  try {
    info = Context.current().info;
  } catch {
    return undefined; // outside an activity (unit tests)
  }
  if (info.workflowType !== PAYMENT_WORKFLOW_TYPE || !info.workflowExecution) return undefined;
  const { workflowId, runId } = info.workflowExecution;
  const description = await Context.current().client.workflow.getHandle(workflowId, runId).describe();
  return description.memo?.[KEY_RUN_MEMO];
}

/**
 * May an earlier attempt (or this one) have created the payment although we got no usable answer?
 * attempt > 1: an earlier attempt failed retryably (network, timeout, 5xx, 429) and may have reached the service;
 * likewise an error whose retryCount > 0 (the transport itself repeated the POST: src/provider/transport.ts).
 * A 2xx whose body did not parse (ResponseShapeError with a 2xx status): the service created it.
 */
function mayHaveCreated(err: unknown, attempt: number): boolean {
  if (attempt > 1) return true;
  const e = err as { type?: unknown; status?: unknown; retryCount?: unknown } | null;
  // the transport repeated the POST (retry.limit > 0): an earlier repeat may have reached the service
  if (typeof e?.retryCount === 'number' && e.retryCount > 0) return true;
  return (
    e?.type === 'ResponseShapeError' && typeof e.status === 'number' && e.status >= 200 && e.status < 300
  );
}

export function createPaymentActivities(deps: {
  provider: Pick<ProviderPort, 'payments' | 'rates'>;
  /** injectable for tests; the activity's attempt number by default */
  attempt?: () => number;
  /** injectable for tests; the calling payment run's number on its key by default (src/client/freed-key.ts) */
  keyRun?: () => Promise<unknown>;
  /** the worker's client and task queue by default (activity context) */
  client?: () => Pick<Client, 'workflow'>;
  taskQueue?: () => string;
}): PaymentActivities {
  const { provider } = deps;
  const attemptOf = deps.attempt ?? currentAttempt;
  const keyRunOf = deps.keyRun ?? currentKeyRun;
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const activities: PaymentActivities = {
    validatePaymentRequest: async (request, asOf) => validatePaymentRequest(request, new Date(asOf)),
    findPaymentsLike: async (request, createdAfter) => {
      if (!request.customerId) return null;
      const list = provider.payments.listByCustomerAll;
      // Never "nothing found" on a search that could not be made or finished: the operator's decision is refused
      // (the payment keeps waiting) rather than taken on a partial look.
      if (!list) throw searchIncomplete("this provider client cannot list a customer's payments");
      const since = Date.parse(createdAfter);
      const found: { id: string; status: string }[] = [];
      let read = 0;
      await callProvider(async () => {
        for await (const p of list.call(provider.payments, request.customerId!, { limit: 100 })) {
          if (++read > FIND_LIKE_MAX_READ)
            throw searchIncomplete(
              `the customer has more than ${FIND_LIKE_MAX_READ} payments; check by hand`,
            );
          const created = Date.parse(String(p.lifecycle?.createdAt ?? ''));
          // a payment whose creation time cannot be read may be this one: a candidate
          const recent = !Number.isFinite(created) || created >= since;
          if (recent && adoptionMismatches(request, p).length === 0)
            found.push({ id: p.id, status: p.status });
        }
      });
      return found;
    },
    getRate: (query) =>
      callProvider(() =>
        provider.rates.get(query).catch((err: unknown) => throw_(inRequestTerms(err))),
      ).catch((failure: unknown) => throw_(benignIfRefused(failure))),
    createPaymentAndFollow: (request, idempotencyKey, follow) =>
      createThenFollow(activities.createPayment, client, taskQueue)(request, idempotencyKey, follow),
    async createPayment(request, workflowKey) {
      const attempt = attemptOf();
      // a freed key's later run must not meet the refusal the service stored under the first run's key
      const idempotencyKey = runScopedIdempotencyKey(workflowKey, await keyRunOf());
      try {
        // A retry repeats a create that may have been committed: it must reach the service (which answers the
        // stored first response for the key), never be refused by local pre-validation on today's date
        // (src/provider/prevalidation.ts).
        return await provider.payments.create(
          request,
          attempt > 1 ? { idempotencyKey, prevalidate: false } : { idempotencyKey },
        );
      } catch (err) {
        const failure = toApplicationFailure(err);
        if (!failure.nonRetryable || !mayHaveCreated(err, attempt)) throw failure;
        // Never a refusal: the workflow goes to NEEDS_ATTENTION (docs/spec-gaps.md, "Maybe created").
        throw ApplicationFailure.create({
          type: CREATE_OUTCOME_UNKNOWN,
          message: `POST /payments with key ${idempotencyKey} may have created a payment: attempt ${attempt} ended with ${failure.type ?? 'an error'}: ${failure.message}`,
          nonRetryable: true,
          details: [{ causeType: failure.type ?? null, attempt, cause: failure.details?.[0] ?? null }],
          cause: failure,
        });
      }
    },
    getPayment: (id) => callProvider(() => provider.payments.get(id)),
  };
  return activities;
}

/** createPaymentAndFollow around any createPayment (the real one, or a test's fake). */
export function createThenFollow(
  createPayment: PaymentActivities['createPayment'],
  client: () => Pick<Client, 'workflow'> = () => Context.current().client,
  taskQueue: () => string = () => Context.current().info.taskQueue,
): PaymentActivities['createPaymentAndFollow'] {
  return async (request, idempotencyKey, follow) => {
    const payment = await createPayment(request, idempotencyKey);
    try {
      await followEntity(client(), taskQueue(), payment, follow);
      return { payment, followed: true };
    } catch (err) {
      return { payment, followed: false, error: err instanceof Error ? err.message : String(err) };
    }
  };
}

/**
 * Starts the entity with the POST's answer, or subscribes to it when a webhook started it first: one call that
 * works either way (the ingress's policies: an entity that ended after its linger period starts again). The
 * subscribe signal carries what the subscriber already has, so the entity does not send it back.
 */
async function followEntity(
  client: Pick<Client, 'workflow'>,
  taskQueue: string,
  p: Payment,
  follow: FollowEntity,
): Promise<void> {
  const subscribers = [follow.subscriber];
  await signalWithStartProviderPayment(client, {
    taskQueue,
    input: {
      providerPaymentId: p.id,
      payment: p,
      subscribers,
      ...(follow.events
        ? { eventsFor: [{ subscriber: follow.subscriber, ...follow.events, told: p.status }] }
        : {}),
    },
    subscribe: { workflowId: follow.subscriber, has: p, ...(follow.events ? { events: follow.events } : {}) },
    // what the entity would set first (it seeds from its start under entity-lean-history and upserts nothing)
    typedSearchAttributes: [
      { key: PaymentStatusKey, value: p.status },
      { key: ProviderPaymentIdKey, value: p.id },
      ...(p.customerId ? [{ key: CustomerIdKey, value: p.customerId }] : []),
    ],
    memo: { ...entityMemo(p, subscribers.length, unknownPaymentValues(p)) },
    staticSummary: `provider payment ${p.id} (for ${follow.subscriber})`,
    ...(follow.priority ? { priority: follow.priority } : {}),
  });
}

/**
 * The rate is asked with query parameters (spec: Endpoints, GET /payments/rate: sourceRail, destinationRail, amount
 * and currency parameters), but the caller wrote a POST /payments body: a refusal of the rate names the body's field
 * (destination.rail, not destinationRail), so the REJECTED outcome points at what the caller can fix.
 */
const RATE_QUERY_TO_REQUEST_FIELD: Readonly<Record<string, string>> = {
  sourceRail: 'source.rail',
  destinationRail: 'destination.rail',
  sourceCurrency: 'source.currencyCode',
  sourceCurrencyCode: 'source.currencyCode',
  destinationCurrency: 'destination.currencyCode',
  destinationCurrencyCode: 'destination.currencyCode',
  amount: 'source.amount',
  sourceAmount: 'source.amount',
};

export function inRequestTerms(err: unknown): unknown {
  const fields = (err as { fields?: unknown } | null)?.fields;
  if (!Array.isArray(fields)) return err;
  for (const field of fields as Array<{ path?: unknown }>) {
    if (field && typeof field.path === 'string' && field.path in RATE_QUERY_TO_REQUEST_FIELD)
      field.path = RATE_QUERY_TO_REQUEST_FIELD[field.path];
  }
  return err;
}

/**
 * The service refused the rate on the caller's fields (an unsupported corridor): the payment ends REJECTED with
 * those fields, an answer, not a fault. BENIGN keeps the worker from logging it as a failed activity with its stack
 * (the SDK logs benign failures at DEBUG and leaves them out of its failure metrics).
 */
export function benignIfRefused(failure: unknown): unknown {
  if (!(failure instanceof ApplicationFailure) || !failure.nonRetryable) return failure;
  const fields = (failure.details?.[0] as { fields?: unknown[] } | undefined)?.fields;
  if (!Array.isArray(fields) || fields.length === 0) return failure;
  return ApplicationFailure.create({
    type: failure.type ?? undefined,
    message: failure.message,
    nonRetryable: true,
    details: failure.details as unknown[],
    category: ApplicationFailureCategory.BENIGN,
  });
}

function throw_(err: unknown): never {
  throw err;
}
