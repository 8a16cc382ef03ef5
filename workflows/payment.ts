// payment: validate → rate → limits → create → follow the provider payment to an outcome
// (ARCHITECTURE: Workflows; spec: States and transitions). ID `payment:<key>` chosen by the caller.
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  validatePaymentRequest,
  type CreatePaymentRequest,
  type Payment,
  type Violation,
} from '../src/contract';
import type { RateQuery } from '../activities/types';
import { createActivities, rateActivities, readActivities } from './activity-options';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  PAYMENT_FAILURE_TYPES,
  paymentStateQuery,
  providerPaymentChangedSignal,
  providerPaymentWorkflowId,
  requoteUpdate,
  type PaymentCreated,
  type PaymentOutcome,
  type PaymentState,
} from './messages';
import { PaymentInputSchema, type PaymentInput, type ProviderPaymentInput } from './inputs';
import { startOrSubscribe } from './follow-entity';
import type { PaymentPhase, TimelineEntry } from './types';
import { mergePayment } from './payment-merge';
import { applicationFailureOf, failureViolation, providerViolations, parseWorkflowInput } from './failures';
import {
  driftViolations,
  feeViolations,
  fundingDeadlineOf,
  isFunded,
  outcomeOf,
  phaseOf,
  pullsFromAccount,
  quoteExpiresAtMs,
} from './payment-rules';
import { createIndexer } from './indexing';

const HOUR = 60 * 60 * 1000;
const MAX_TIMELINE = 200;

type CreateResult =
  | { created: PaymentCreated & { outcome: 'CREATED' } }
  | { rejected: Violation[]; payment: Payment | null };

export async function payment(rawInput: PaymentInput): Promise<PaymentOutcome> {
  const input = parseWorkflowInput(PaymentInputSchema, rawInput);
  const workflowId = workflowInfo().workflowId;
  const holidays = new Set(input.options?.holidays ?? []);
  const expiredLingerMs = input.options?.expiredLingerMs ?? 24 * HOUR;
  const reconcileEveryMs = input.options?.reconcileEveryMs ?? 6 * HOUR;
  const index = createIndexer();

  // ---- state ----
  let phase = 'VALIDATING' as PaymentPhase; // `as`: changed by handlers, so no narrowing
  /** every provider payment this workflow created, by id (requote adds one; old ones stay tracked) */
  const tracked = new Map<string, Payment>();
  let activeId: string | null = null;
  let requotes = 0;
  let created = null as PaymentCreated | null;
  let outcome = null as PaymentOutcome | null;
  let cancel = null as { reason: string; decision: 'PENDING' | 'ACCEPTED' | 'REFUSED' } | null;
  let requoting = false;
  let version = 0; // bumped on every change the main loop must look at
  let lastHeardAt = Date.now();
  let expiredSince: number | null = null;
  const timeline: TimelineEntry[] = [];

  const pendingCancel = () => cancel; // read through a function: handlers change it between awaits
  const active = (): Payment | null => (activeId ? (tracked.get(activeId) ?? null) : null);
  const fundsIn = (): boolean => [...tracked.values()].some(isFunded);
  const isQuoteExpired = (p: Payment): boolean => {
    const at = quoteExpiresAtMs(p);
    return at !== null && Date.now() >= at;
  };

  function note(kind: string, detail?: string): void {
    timeline.push({ at: new Date().toISOString(), kind, ...(detail !== undefined ? { detail } : {}) });
    if (timeline.length > MAX_TIMELINE) timeline.shift();
  }

  function fundingDeadline(p: Payment | null): Date | null {
    return p ? fundingDeadlineOf(p, holidays) : null;
  }

  function setPhase(next: PaymentPhase): void {
    if (next !== phase) note('phase', `${phase} → ${next}`);
    phase = next;
    const p = active();
    const quoteAt = p ? quoteExpiresAtMs(p) : null;
    index({
      phase,
      status: p?.status ?? null,
      providerPaymentId: p?.id ?? null,
      customerId: p?.customerId ?? null,
      quoteExpiresAt: quoteAt === null ? null : new Date(quoteAt),
      fundingDeadline: fundingDeadline(p),
    });
    setCurrentDetails(describe());
  }

  function describe(): string {
    const p = active();
    const lines = [`**${phase}**`];
    if (p) lines.push(`provider payment ${p.id}: ${p.status}`, `quote expires ${p.quote?.expiresAt ?? '—'}`);
    const deadline = fundingDeadline(p);
    if (deadline && (phase === 'AWAITING_FUNDS' || phase === 'QUOTE_EXPIRED'))
      lines.push(`funding deadline ${deadline.toISOString()}`);
    if (requotes > 0) lines.push(`requotes: ${requotes}`);
    return lines.join('\n\n');
  }

  function state(): PaymentState {
    const p = active();
    return {
      workflowId,
      phase,
      providerPaymentId: p?.id ?? null,
      providerStatus: p?.status ?? null,
      quote: p?.quote ?? null,
      fundingInstructions: p?.fundingInstructions ?? null,
      fundingDeadline: fundingDeadline(p)?.toISOString() ?? null,
      customerId: p?.customerId ?? '',
      requotes,
      superseded: [...tracked.values()]
        .filter((t) => t.id !== activeId)
        .map((t) => ({ id: t.id, status: t.status })),
      outcome,
      timeline: [...timeline],
    };
  }

  /** Folds a snapshot of one of our provider payments in; never backwards (see payment-merge.ts). */
  function absorb(incoming: Payment, cause: string): void {
    const current = tracked.get(incoming.id);
    if (!current) return; // not one of ours
    lastHeardAt = Date.now();
    const merged = mergePayment(current, incoming);
    if (!merged.changed) return;
    tracked.set(incoming.id, merged.payment);
    version++;
    if (merged.statusChanged)
      note('status', `${incoming.id}: ${current.status} → ${merged.payment.status} (${cause})`);
    const followed = active();
    // Funds sent with the instructions of a superseded quote: that payment is the one that goes on.
    if (incoming.id !== activeId && isFunded(merged.payment) && !(followed && isFunded(followed))) {
      activeId = incoming.id;
      note('followed', `funds arrived on superseded payment ${incoming.id}; following it`);
    }
  }

  function refusal(type: string, message: string): ApplicationFailure {
    return ApplicationFailure.create({ type, message, nonRetryable: true });
  }

  // ---- handlers ----
  setHandler(paymentStateQuery, state);
  setHandler(providerPaymentChangedSignal, ({ payment: p, cause }) => absorb(p, cause));
  setHandler(awaitCreatedUpdate, async (): Promise<PaymentCreated> => {
    await condition(() => created !== null || outcome !== null);
    if (created) return created;
    const violations: Violation[] =
      outcome?.outcome === 'REJECTED'
        ? outcome.violations
        : [
            {
              path: '',
              rule: outcome?.outcome ?? 'ENDED',
              message: 'the payment ended before a provider payment was created',
            },
          ];
    return { outcome: 'REJECTED', violations };
  });
  setHandler(
    cancelUpdate,
    async (arg: { reason?: string }): Promise<PaymentState> => {
      cancel = { reason: arg?.reason ?? 'cancelled by the caller', decision: 'PENDING' };
      version++;
      await condition(() => cancel?.decision !== 'PENDING');
      if (cancel?.decision === 'REFUSED') {
        throw refusal(
          PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
          'funds arrived before the cancel was applied; the payment goes on',
        );
      }
      return state();
    },
    {
      validator: (_arg: { reason?: string }) => {
        if (outcome)
          throw refusal(
            PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
            `the payment already ended: ${outcome.outcome}`,
          );
        if (fundsIn())
          throw refusal(
            PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
            'funds are in: the payment can no longer be cancelled',
          );
        // After the provider's EXPIRED a refund of late funds may still come (spec: States and transitions, row 4).
        if (active()?.status === 'EXPIRED')
          throw refusal(
            PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
            'the provider expired the payment: it is followed until a late refund could no longer arrive',
          );
        if (cancel) throw refusal(PAYMENT_FAILURE_TYPES.CANCEL_REFUSED, 'a cancel is already being applied');
      },
    },
  );
  setHandler(
    requoteUpdate,
    async (): Promise<PaymentCreated> => {
      await condition(() => !requoting);
      if (outcome || fundsIn() || cancel)
        throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, 'funds arrived or the payment ended');
      requoting = true;
      try {
        requotes++;
        note('requote', `requote ${requotes} requested`);
        const result = await quoteAndCreate(requotes);
        if ('rejected' in result) return { outcome: 'REJECTED', violations: result.rejected };
        return result.created;
      } finally {
        requoting = false;
        version++;
      }
    },
    {
      validator: () => {
        if (outcome)
          throw refusal(
            PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED,
            `the payment already ended: ${outcome.outcome}`,
          );
        if (fundsIn())
          throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, 'funds are in: the quote is already used');
        if (phase !== 'AWAITING_FUNDS' && phase !== 'QUOTE_EXPIRED') {
          throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, `nothing to requote in phase ${phase}`);
        }
        if (pullsFromAccount(input.request as CreatePaymentRequest)) {
          throw refusal(
            PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED,
            'a payment pulled from an account has no quote to wait on',
          );
        }
      },
    },
  );

  // ---- steps ----
  const request = input.request as CreatePaymentRequest;

  function rateQuery(): RateQuery {
    return {
      sourceCurrency: request.source.currencyCode,
      destinationCurrency: request.destination.currencyCode,
      sourceRail: request.source.rail,
      destinationRail: request.destination.rail,
      sourceAmount: request.source.amount,
    };
  }

  /**
   * A payment pulled from an account moves the funds at creation (spec: States and transitions, rule 1), so a
   * drift limit, which can only be judged on the created payment's quote, could not stop anything: refuse it up front.
   */
  function pullLimitViolations(): Violation[] {
    if (input.limits?.maxRateDrift === undefined || !pullsFromAccount(request)) return [];
    return [
      {
        path: 'limits.maxRateDrift',
        rule: 'DRIFT_LIMIT_ON_PULL_PAYMENT',
        message:
          'maxRateDrift cannot be enforced for a payment with source.accountId: the funds are pulled when it is created. Omit maxRateDrift, or use maxTotalFee (checked before creation).',
      },
    ];
  }

  /** Rate → fee limit → POST /payments (key `<workflowId>:create:<n>`) → drift limit → follow. */
  async function quoteAndCreate(n: number): Promise<CreateResult> {
    let rate;
    try {
      rate = await rateActivities.getRate(rateQuery());
    } catch (err) {
      return { rejected: [failureViolation('rate', err, 'RATE_UNAVAILABLE')], payment: null };
    }
    const fees = feeViolations(rate, input.limits);
    if (fees.length > 0) return { rejected: fees, payment: null };

    let p: Payment;
    try {
      p = await createActivities.createPayment(request, `${workflowId}:create:${n}`);
    } catch (err) {
      const app = applicationFailureOf(err);
      if (app?.nonRetryable) return { rejected: providerViolations(app), payment: null };
      throw err; // the outcome stayed unknown for 12 hours: let an operator look
    }
    tracked.set(p.id, p);
    note('created', `provider payment ${p.id} (${p.status}), quote until ${p.quote?.expiresAt ?? '—'}`);
    const drift = driftViolations(rate, p, input.limits);
    // Never walk away from a payment whose funds are already moving (pull payments are refused above; defensive).
    if (drift.length > 0 && !pullsFromAccount(p)) {
      // The provider payment exists but is never funded by us: it expires on its own (no cancel endpoint).
      note('refused', `rate drift above the limit; provider payment ${p.id} is left to expire`);
      return { rejected: drift, payment: p };
    }
    activeId = p.id;
    version++;
    await follow(p);
    created = {
      outcome: 'CREATED',
      providerPaymentId: p.id,
      quote: p.quote,
      fundingInstructions: p.fundingInstructions,
      fee: p.fee,
      fundingDeadline: fundingDeadline(p)?.toISOString() ?? null,
      pulledFromAccount: pullsFromAccount(p),
    };
    return { created };
  }

  /** Start the entity of the provider payment, or subscribe to it when a webhook started it first. */
  async function follow(p: Payment): Promise<void> {
    const entityInput: ProviderPaymentInput = {
      providerPaymentId: p.id,
      payment: p,
      subscribers: [workflowId],
    };
    await startOrSubscribe(
      'providerPayment',
      providerPaymentWorkflowId(p.id),
      entityInput,
      `provider payment ${p.id} (for ${workflowId})`,
    );
  }

  async function reconcile(id: string, why: string): Promise<void> {
    try {
      absorb(await readActivities.getPayment(id), `reconcile: ${why}`);
      note('reconciled', `${id} (${why})`);
    } catch (err) {
      note('reconcile-failed', `${id} (${why}): ${String(err)}`);
    } finally {
      lastHeardAt = Date.now();
    }
  }

  async function finish(result: PaymentOutcome): Promise<PaymentOutcome> {
    outcome = result;
    if (cancel?.decision === 'PENDING')
      cancel.decision = result.outcome === 'CANCELLED' ? 'ACCEPTED' : 'REFUSED';
    note('outcome', result.outcome);
    setPhase(result.outcome);
    await condition(allHandlersFinished);
    return result;
  }

  // ---- 1. validate (contract rules at workflow time) ----
  setPhase('VALIDATING');
  const violations = [...validatePaymentRequest(input.request, new Date()), ...pullLimitViolations()];
  if (violations.length > 0) return finish({ outcome: 'REJECTED', violations, payment: null });

  // ---- 2–3. rate, limits, create ----
  setPhase('QUOTING');
  if (cancel) return finish({ outcome: 'CANCELLED', reason: cancel.reason, payment: null });
  const first = await quoteAndCreate(0);
  if ('rejected' in first)
    return finish({ outcome: 'REJECTED', violations: first.rejected, payment: first.payment });

  // ---- 4. follow to an outcome ----
  const quoteExpiryReconciled = new Set<string>();
  const deadlineReconciled = new Set<string>();
  for (;;) {
    const p = active()!;
    const asked = pendingCancel();
    if (asked?.decision === 'PENDING') {
      if (fundsIn()) {
        asked.decision = 'REFUSED';
        note('cancel-refused', 'funds are in');
      } else {
        // spec: no cancel endpoint — we stop tracking; the provider payment expires on its own (docs/spec-gaps.md)
        asked.decision = 'ACCEPTED';
        return finish({ outcome: 'CANCELLED', reason: asked.reason, payment: p });
      }
    }
    const ended = outcomeOf(p);
    if (ended && ended.outcome !== 'EXPIRED') return finish(ended);
    const now = Date.now();
    setPhase(phaseOf(p, isQuoteExpired(p)));

    let wakeAt = lastHeardAt + reconcileEveryMs;
    if (ended?.outcome === 'EXPIRED') {
      // spec: States and transitions, rows 4–5 — a refund or a legacy late funding may still follow
      expiredSince ??= now;
      if (now >= expiredSince + expiredLingerMs) return finish(ended);
      wakeAt = expiredSince + expiredLingerMs;
    } else if (phase === 'AWAITING_FUNDS' && !pullsFromAccount(p)) {
      // spec: States and transitions, row 2 — wait for funding until quote.expiresAt
      wakeAt = Math.min(wakeAt, quoteExpiresAtMs(p) ?? wakeAt);
    } else if (phase === 'QUOTE_EXPIRED') {
      // row 3: the status does not change at quote expiry; read once, then keep waiting for a late notice,
      // the provider's EXPIRED (3 business days) or a refund
      if (!quoteExpiryReconciled.has(p.id)) {
        quoteExpiryReconciled.add(p.id);
        await reconcile(p.id, 'quote expired');
        continue;
      }
      const deadline = fundingDeadline(p)?.getTime() ?? null;
      if (deadline !== null && now >= deadline && !deadlineReconciled.has(p.id)) {
        deadlineReconciled.add(p.id);
        await reconcile(p.id, 'funding deadline passed');
        continue;
      }
      if (deadline !== null && deadline > now) wakeAt = Math.min(wakeAt, deadline);
    }
    if (now >= wakeAt && ended?.outcome !== 'EXPIRED') {
      await reconcile(p.id, 'nothing heard');
      continue;
    }
    const v = version;
    await condition(() => version !== v, Math.max(1, wakeAt - now));
  }
}
