// Steps 2–3: rate → fee limit → POST /payments (key `<workflowId>:create:<n>`) → drift limit → follow
// (ARCHITECTURE: Workflows). The first create and every requote go through `quoteAndCreate`.
import { workflowInfo } from '@temporalio/workflow';
import type { Payment } from '../../../src/contract';
import type { RateQuery } from '../../../activities/types';
import { unknownPaymentValues } from '../../../src/contract/payment-status';
import { createCallActivities, localRateActivities, readActivities } from '../../activity-options';
import { applicationFailureOf, failureViolation, providerViolations } from '../../activity-failures';
import { entityMemo } from '../../entity-memo';
import { startOrSubscribe } from '../../follow-entity';
import { indexPairs } from '../../indexing';
import type { ProviderPaymentInput } from '../../inputs';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE, providerPaymentWorkflowId } from '../../provider-payment/api';
import { driftViolations, feeViolations, phaseOf, pullsFromAccount } from '../../payment-rules';
import { PAYMENT_FAILURE_TYPES } from '../api';
import { adoptionMismatches } from '../resolve-rules';
import { refusal, type CreateResult, type PaymentWorkflowState } from '../state';

export interface CreateChecks {
  /** a requote: asked after every await; a reason means the new payment never goes live */
  lostTo?: () => string | null;
  /** the first create: asked once before POST /payments; a reason means nothing is created */
  beforeCreate?: () => string | null;
}

function rateQuery(state: PaymentWorkflowState): RateQuery {
  const { source, destination } = state.request;
  return {
    sourceCurrency: source.currencyCode,
    destinationCurrency: destination.currencyCode,
    sourceRail: source.rail,
    destinationRail: destination.rail,
    sourceAmount: source.amount,
  };
}

/** Rate → fee limit → create → drift limit → live (or, for a requote that lost a race, tracked only). */
export async function quoteAndCreate(
  state: PaymentWorkflowState,
  n: number,
  checks: CreateChecks = {},
): Promise<CreateResult> {
  let rate;
  try {
    // a local activity: a short idempotent read, one workflow task fewer per quote
    rate = await localRateActivities.getRate(rateQuery(state));
  } catch (err) {
    return { rejected: [failureViolation('rate', err, 'RATE_UNAVAILABLE')], payment: null };
  }
  const lostBeforeCreate = checks.lostTo?.() ?? checks.beforeCreate?.() ?? null;
  if (lostBeforeCreate) return { lost: lostBeforeCreate, payment: null };
  const fees = feeViolations(rate, state.limits);
  if (fees.length > 0) return { rejected: fees, payment: null };

  const made = await create(state, `${state.workflowId}:create:${n}`);
  if (!('followed' in made)) return made;
  const p = made.payment;
  state.track(p, 'create');
  state.note('created', `provider payment ${p.id} (${p.status}), quote until ${p.quote?.expiresAt ?? '—'}`);
  const drift = driftViolations(rate, p, state.limits);
  // Never walk away from a payment whose funds are already moving (pull payments are refused up front; defensive).
  if (drift.length > 0 && !pullsFromAccount(p)) {
    // The provider payment exists but is never funded by us: it expires on its own (no cancel endpoint).
    state.note('refused', `rate drift above the limit; provider payment ${p.id} is left to expire`);
    return { rejected: drift, payment: p };
  }
  if (checks.lostTo) {
    // Follow it first: whatever happens next, funds sent to it reach this workflow.
    if (!made.followed) await follow(state, p);
    const lost = checks.lostTo();
    if (lost) {
      state.note('superseded', `${p.id} never went live: ${lost}; it is tracked until it expires`);
      return { lost, payment: p };
    }
    return { created: state.goLive(p) };
  }
  // The first create answers now, in this workflow task. Nothing is lost meanwhile: a webhook that
  // started the entity first is read back when we subscribe, and a cancel or requote arriving now is decided by
  // the main loop once the entity is followed. The phase is the one the main loop would show.
  const answer = state.goLive(p);
  state.enterPhase(phaseOf(p, state.isQuoteExpired(p)));
  if (!made.followed) await follow(state, p);
  return { created: answer };
}

type Made =
  | { payment: Payment; followed: boolean }
  | Extract<CreateResult, { rejected: unknown }>
  | Extract<CreateResult, { attention: unknown }>;

/** POST /payments; the create's own activity follows the new payment's entity (one signalWithStart). */
async function create(state: PaymentWorkflowState, idempotencyKey: string): Promise<Made> {
  try {
    const made = await createCallActivities.createPaymentAndFollow(state.request, idempotencyKey, {
      subscriber: state.workflowId,
      ...(state.lateEvents() ? { events: state.lateEvents() } : {}),
      // the entity shares the payment's fairness key
      ...(workflowInfo().priority ? { priority: { ...workflowInfo().priority } } : {}),
    });
    if (!made.followed)
      state.note(
        'follow-failed',
        `${made.payment.id}: ${made.error ?? 'signalWithStart failed'}; following by a child start`,
      );
    return { payment: made.payment, followed: made.followed };
  } catch (err) {
    const app = applicationFailureOf(err);
    const maybeCreated = app?.type === PAYMENT_FAILURE_TYPES.CREATE_OUTCOME_UNKNOWN || !app?.nonRetryable;
    if (!maybeCreated) return { rejected: providerViolations(app!), payment: null };
    // A create that may have reached the service is never a refusal: an operator decides.
    const why = app?.nonRetryable
      ? app.message
      : `no answer after retrying for 12 hours: ${err instanceof Error ? err.message : String(err)}`;
    return { attention: why, idempotencyKey };
  }
}

/**
 * Start the entity of the provider payment, or subscribe to it when a webhook started it first: the fallback
 * when the create's signalWithStart failed, and an adopted payment. A child that ignores our cancel and close
 * (follow-entity.ts), started with what it would upsert first, so it upserts nothing.
 */
export async function follow(state: PaymentWorkflowState, p: Payment): Promise<void> {
  const events = state.lateEvents();
  const entityInput: ProviderPaymentInput = {
    providerPaymentId: p.id,
    payment: p,
    subscribers: [state.workflowId],
    ...(events ? { eventsFor: [{ subscriber: state.workflowId, ...events, told: p.status }] } : {}),
  };
  await startOrSubscribe(
    PROVIDER_PAYMENT_WORKFLOW_TYPE,
    providerPaymentWorkflowId(p.id),
    entityInput,
    `provider payment ${p.id} (for ${state.workflowId})`,
    {
      abandonOnCancel: true,
      typedSearchAttributes: indexPairs({
        status: p.status,
        providerPaymentId: p.id,
        customerId: p.customerId,
      }),
      memo: { ...entityMemo(p, entityInput.subscribers!.length, unknownPaymentValues(p)) },
      // the entity already runs (a webhook started it): the subscribe carries the events registration instead
      ...(events ? { subscribeWith: { events } } : {}),
    },
  );
}

/** Reads a provider payment an operator named and follows it (NEEDS_ATTENTION resolved). */
export async function adopt(state: PaymentWorkflowState, id: string, why: string): Promise<Payment> {
  let p: Payment;
  try {
    p = await readActivities.getPayment(id);
  } catch (err) {
    throw refusal(
      PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
      `could not read provider payment ${id}: ${String(err)}`,
    );
  }
  // the operator's payment must be this request's: a payment of another customer, amount or account is not adopted
  const differs = adoptionMismatches(state.request, p);
  if (differs.length > 0)
    throw refusal(
      PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED,
      `provider payment ${id} is not this payment's: ${differs.join('; ')}`,
    );
  state.track(p, 'operator');
  state.note('adopted', `${id} (${why})`);
  await follow(state, p);
  return p;
}
