// What one payment knows, and the bodies of its handlers (ARCHITECTURE: Workflows; workflows/README.md). The
// workflow function (workflow.ts) and its steps read it, and change it only through its named transitions
// (facts.ts); a wait is a `condition()` on it.
// Every phase change goes through `enterPhase` (the lifecycle hook: search attributes, current details, timeline).
import { paymentEventEmitter, type PaymentEventEmitter } from '../payment-events/emit';
import type { LateEventsFor } from '../provider-payment/api';
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  setCurrentDetails,
} from '@temporalio/workflow';
import type { CreatePaymentRequest, Payment, Violation } from '../../src/contract';
import { createIndexer, indexAtStart } from '../indexing';
import { mergePayment } from '../payment-merge';
import {
  hasFundsIn,
  isFunded,
  isKnownStatus,
  isUnfundable,
  pullsFromAccount,
  quoteExpiresAtMs,
  type PaymentLimits,
} from '../payment-rules';
import { requestFingerprint } from '../request-fingerprint';
import { resolveContradiction } from './resolve-rules';
import {
  activeOf,
  cancelBlocker,
  fundsIn,
  isQuoteExpired,
  cancelRefusal,
  requoteBlocker,
  requoteLostTo,
  resolveShapeProblem,
  type CancelRequest,
} from './guards';
import { createdAnswerNow, createdAnswerOf, currentDetailsOf, fundingDeadline, stateOf } from './views';
import type { PaymentPhase, TimelineEntry } from '../types';
import { Waiter } from '../waiter';
import { PaymentFactsAndTransitions } from './facts';
import {
  PAYMENT_FAILURE_TYPES,
  type PaymentAlert,
  type PaymentAlertKind,
  type PaymentCreated,
  type PaymentInput,
  type PaymentOutcome,
  type PaymentState,
  type ResolveCreateDecision,
} from './api';

const HOUR = 60 * 60 * 1000;
/** the payment's own read when nothing was heard, unless the caller sets `reconcileEveryMs` */
export const SAFETY_READ_EVERY_MS = 24 * HOUR;
const MAX_TIMELINE = 200;
/** changes kept for payments whose create is not recorded yet: one per create in flight, a few at most */
const MAX_TOLD_EARLY = 10;

export type { CancelRequest } from './guards';
export type { Attention, RequoteAnswer } from './facts';

/** What a create step ended with. */
export type CreateResult =
  | { created: PaymentCreated & { outcome: 'CREATED' } }
  | { rejected: Violation[]; payment: Payment | null }
  /** the create may have made a payment we never saw (CREATE_OUTCOME_UNKNOWN, or retries ran out) */
  | { attention: string; idempotencyKey: string }
  /** a requote lost a race (funds, the end, a cancel): its new payment, if any, is tracked but never live */
  | { lost: string; payment: Payment | null };

/**
 * What the main loop (steps/follow.ts) decides on: the tracked payments, which one is followed, the cancel. A wait
 * ends when any of it is another object or value (see `changedSince`); a merged payment is a new object. Nothing
 * else wakes it: a wake that changes no decision would only move its timer (one more timer command).
 */
export interface Seen {
  activeId: string | null;
  payments: Payment[];
  cancel: CancelRequest | null;
  decision: CancelRequest['decision'] | undefined;
}

export function refusal(type: string, message: string): ApplicationFailure {
  return ApplicationFailure.create({ type, message, nonRetryable: true });
}

export class PaymentWorkflowState extends PaymentFactsAndTransitions {
  readonly request: CreatePaymentRequest;
  readonly limits: PaymentLimits | undefined;
  readonly holidays: ReadonlySet<string>;
  /** after the provider's EXPIRED, keep listening this long for a refund or a legacy late funding */
  readonly expiredLingerMs: number;
  /**
   * The safety GET when nothing was heard for this long (default a day; the caller may set it). The payment reads at
   * its decision points (quote expiry, funding deadline, a cancel's confirmation) and the fleet-wide reconcile
   * Schedule finds a lost webhook sooner (activities/reconcile-activities.ts: a lost funding or final status is told
   * to the entity within one Schedule interval; spec: Events 5, delivery not shown); this read bounds the wait where
   * the Schedule does not run or its listing is cut.
   */
  readonly reconcileEveryMs: number;

  // written by raise() and note() only: read-only from outside like the facts (facts.ts)
  private readonly _alerts: PaymentAlert[] = [];
  private readonly alerted = new Set<string>();
  private readonly _timeline: TimelineEntry[] = [];
  /**
   * Changes the entity told before this workflow recorded the create that made the payment (the create's activity
   * subscribes before it returns, and the entity tells a subscriber once): applied when the create is recorded.
   */
  private readonly toldEarly = new Map<string, { payment: Payment; cause: string }>();
  /** startPayment gives the first phase with the start: only what differs from it is upserted */
  private readonly index = createIndexer(indexAtStart);
  /** the phase and followed payment last indexed: a status change within a phase is not upserted (enterPhase) */
  private indexedAs: string | undefined;
  /** one timer across the main loop's waits (waiter.ts) */
  private readonly waiter = new Waiter();
  private ownFingerprint: string | undefined;
  /** outbound events to the backend (docs/outbound-events.md): silent when the input asks for none */
  private readonly events: PaymentEventEmitter;

  constructor(
    readonly workflowId: string,
    private readonly input: PaymentInput,
  ) {
    super();
    this.request = input.request as CreatePaymentRequest;
    this.limits = input.limits;
    this.holidays = new Set(input.options?.holidays ?? []);
    this.expiredLingerMs = input.options?.expiredLingerMs ?? 24 * HOUR;
    // a daily safety read by default: the reconcile Schedule's sweep finds a lost webhook within its interval, but a
    // deployment without it (or a listing cut at its cap) must still see every payment end within a day
    this.reconcileEveryMs = input.options?.reconcileEveryMs ?? SAFETY_READ_EVERY_MS;
    this.events = paymentEventEmitter(input);
  }

  /**
   * What the entity needs to send `payment.moved_after_outcome` once this payment has closed (spec: "States and
   * transitions", a COMPLETED payout can still be RETURNED/REFUNDED); undefined when the payment asked for no events.
   */
  lateEvents(): LateEventsFor | undefined {
    return this.input.events
      ? { paymentKey: this.input.paymentKey, endpointUrl: this.input.events.url ?? null }
      : undefined;
  }

  get alerts(): readonly PaymentAlert[] {
    return this._alerts;
  }
  get timeline(): readonly TimelineEntry[] {
    return this._timeline;
  }

  // ---- reading ----

  active(): Payment | null {
    return activeOf(this);
  }
  fundsIn(): boolean {
    return fundsIn(this);
  }
  isQuoteExpired(p: Payment): boolean {
    return isQuoteExpired(p, Date.now());
  }
  fundingDeadline(p: Payment | null): Date | null {
    return fundingDeadline(p, this.holidays);
  }
  /** read through a method: handlers change it between awaits (no narrowing by the compiler) */
  pendingCancel(): CancelRequest | null {
    return this._cancel;
  }
  pulls(): boolean {
    return pullsFromAccount(this.request);
  }

  seen(): Seen {
    const { activeId, cancel } = this;
    return { activeId, payments: [...this._tracked.values()], cancel, decision: cancel?.decision };
  }
  /** Whether anything the main loop decides on changed since `before` (a merged payment is a new object). */
  changedSince(before: Seen): boolean {
    const now = this.seen();
    const keys = ['activeId', 'cancel', 'decision'] as const;
    if (keys.some((k) => now[k] !== before[k])) return true;
    return (
      now.payments.length !== before.payments.length || now.payments.some((p, i) => p !== before.payments[i])
    );
  }
  /**
   * Waits until something the main loop decides on changes, or `ms` pass (no limit when absent). The timer is kept
   * across waits (waiter.ts): a signal that changes nothing about when to act next costs no new timer.
   */
  async wake(ms?: number): Promise<void> {
    const before = this.seen();
    await this.waiter.until(
      () => this.changedSince(before),
      ms === undefined ? undefined : Date.now() + Math.max(1, ms),
    );
  }

  // ---- lifecycle ----

  note(kind: string, detail?: string): void {
    this._timeline.push({ at: new Date().toISOString(), kind, ...(detail !== undefined ? { detail } : {}) });
    if (this._timeline.length > MAX_TIMELINE) this._timeline.shift();
  }

  /** Loud, never dropped: state, outcome, worker log, and a metric at close (payment-metrics-interceptor.ts). */
  raise(
    kind: PaymentAlertKind,
    providerPaymentId: string | null,
    detail: string,
    once = kind + providerPaymentId,
  ): void {
    if (this.alerted.has(once)) return;
    this.alerted.add(once);
    this._alerts.push({ at: new Date().toISOString(), kind, providerPaymentId, detail });
    this.note('alert', `${kind}: ${detail}`);
    // ids and kinds only: no personal data in logs
    log.warn(`payment alert ${kind}`, { workflowId: this.workflowId, providerPaymentId, detail });
  }

  /**
   * The one way a payment changes phase (every lifecycle transition, the outcome included): timeline, current
   * details, search attributes (upserted only when they differ). `indexed` false: VALIDATING, which nobody can see
   * (the rules run within the first workflow task).
   */
  enterPhase(next: PaymentPhase, indexed = true): void {
    if (next !== this._phase) this.note('phase', `${this._phase} → ${next}`);
    this._phase = next;
    setCurrentDetails(this.describe());
    this.events.emit(
      () => this.snapshot(),
      () => this.active(),
    );
    if (!indexed) return;
    const p = this.active();
    // What operators query on a payment is its phase, ids and dates (src/client/stuck.ts); a status change within a
    // phase (PENDING → PROCESSING → SENT) would cost an upsert each and change no answer. PaymentStatus here is the
    // provider status at the last phase change; the entity's is the one `xborder stuck` reads.
    const indexedAs = `${next}|${p?.id ?? ''}`;
    if (indexedAs === this.indexedAs) return;
    this.indexedAs = indexedAs;
    const quoteAt = p ? quoteExpiresAtMs(p) : null;
    this.index({
      phase: next,
      status: p?.status ?? null,
      providerPaymentId: p?.id ?? null,
      customerId: p?.customerId ?? null,
      quoteExpiresAt: quoteAt === null ? null : new Date(quoteAt),
      fundingDeadline: this.fundingDeadline(p),
    });
  }

  describe(): string {
    return currentDetailsOf(this);
  }

  /** Ends the payment: every alert travels with the outcome; a pending cancel is answered. */
  async finish(ended: PaymentOutcome): Promise<PaymentOutcome> {
    const result: PaymentOutcome = this._alerts.length > 0 ? { ...ended, alerts: [...this._alerts] } : ended;
    this._outcome = result;
    if (this._cancel?.decision === 'PENDING')
      this._cancel.decision = result.outcome === 'CANCELLED' ? 'ACCEPTED' : 'REFUSED';
    this.note('outcome', result.outcome);
    this.enterPhase(result.outcome);
    await this.events.settled(); // every event handed over before the run ends
    await condition(allHandlersFinished);
    return result;
  }

  cancelledOutcome(p: Payment | null): PaymentOutcome {
    return { outcome: 'CANCELLED', reason: this._cancel?.reason ?? 'cancelled', payment: p };
  }

  // ---- provider payments ----

  /** Folds a snapshot of one of our provider payments in; never backwards (see payment-merge.ts). */
  absorb(incoming: Payment, cause: string): void {
    const current = this._tracked.get(incoming.id);
    if (!current) return this.keepToldEarly(incoming, cause);
    this._lastHeardAt = Date.now();
    const merged = mergePayment(current, incoming);
    if (!merged.changed) return;
    this._tracked.set(incoming.id, merged.payment);
    if (merged.statusChanged)
      this.note('status', `${incoming.id}: ${current.status} → ${merged.payment.status} (${cause})`);
    const fresh = merged.payment;
    if (!isKnownStatus(fresh.status))
      this.raise(
        'UNKNOWN_STATUS',
        fresh.id,
        `status ${fresh.status} is not in the contract; counted as in progress`,
        `UNKNOWN_STATUS:${fresh.id}:${fresh.status}`,
      );
    if (isFunded(fresh)) this.alertOnFunds(fresh);
    const followed = this.active();
    // Funds sent with the instructions of a superseded quote: that payment is the one that goes on. An unknown
    // status without sentAt is no proof of funds: the followed payment stays. (activeId null: the create or
    // adoption that tracked it sets activeId next.)
    if (
      this._activeId !== null &&
      fresh.id !== this._activeId &&
      hasFundsIn(fresh) &&
      !(followed && isFunded(followed))
    ) {
      this._activeId = fresh.id;
      this.note('followed', `funds arrived on superseded payment ${fresh.id}; following it`);
    }
  }

  private keepToldEarly(incoming: Payment, cause: string): void {
    // Perhaps ours, its create not recorded yet: kept (the newest wins) until track() records it.
    if (this.toldEarly.size >= MAX_TOLD_EARLY && !this.toldEarly.has(incoming.id)) return;
    const kept = this.toldEarly.get(incoming.id);
    this.toldEarly.set(incoming.id, {
      payment: kept ? mergePayment(kept.payment, incoming).payment : incoming,
      cause: `${cause}, told before the create was recorded`,
    });
  }

  private alertOnFunds(fresh: Payment): void {
    // spec: States and transitions, row 2 — a late notice can fund a superseded payment: every one is followed
    for (const other of this._tracked.values())
      if (other.id !== fresh.id && hasFundsIn(fresh) && hasFundsIn(other)) {
        const pair = [other.id, fresh.id].sort().join('+');
        this.raise(
          'DOUBLE_FUNDED',
          fresh.id,
          `funds arrived on ${fresh.id} and ${other.id}: two payments of one request carry money`,
          `DOUBLE_FUNDED:${pair}`,
        );
      }
    // a cancelled status of the provider's own is unknown to the contract, so "funded" above; it carries no funds
    if (this._cancel?.decision === 'ACCEPTED' && !isUnfundable(fresh))
      this.raise(
        'FUNDED_AFTER_CANCEL',
        fresh.id,
        `funds arrived on ${fresh.id} after the cancel was accepted; the payment is followed to its real end`,
      );
  }

  /** Tracks a snapshot of one of our provider payments (a replayed create answers the same payment again). */
  track(p: Payment, cause: string): void {
    if (this._tracked.has(p.id)) this.absorb(p, cause);
    else this._tracked.set(p.id, p);
    const early = this.toldEarly.get(p.id);
    if (early) {
      this.toldEarly.delete(p.id);
      this.absorb(early.payment, early.cause);
    }
  }

  createdAnswer(p: Payment): PaymentCreated & { outcome: 'CREATED' } {
    return createdAnswerOf(p, this.holidays);
  }

  // ---- handlers: queries and signals ----

  /** The `state` query. */
  snapshot(): PaymentState {
    return stateOf(this);
  }

  /** awaitCreated's answer once there is one; null while it waits (also the `createdAnswer` query). */
  createdAnswerNow(): PaymentCreated | null {
    return createdAnswerNow(this);
  }

  // ---- handlers: updates ----

  async awaitCreated(): Promise<PaymentCreated> {
    const seen: { answer: PaymentCreated | null } = { answer: null };
    await condition(() => (seen.answer = this.createdAnswerNow()) !== null);
    return seen.answer!;
  }

  /** awaitCreatedForRequest's validator: a reused key is refused here, with no history written. */
  checkFingerprint(arg: { requestFingerprint: string }): void {
    this.ownFingerprint ??= requestFingerprint(this.input);
    if (arg?.requestFingerprint !== this.ownFingerprint)
      throw refusal(
        PAYMENT_FAILURE_TYPES.IDEMPOTENCY_KEY_REUSED,
        'this payment key is already used by another request',
      );
  }

  /** Why a cancel cannot be accepted now, or null (guards.ts). */
  cancelBlocker(): string | null {
    return cancelBlocker(this);
  }

  validateCancel(): void {
    const refused = cancelRefusal(this);
    if (refused) throw refusal(PAYMENT_FAILURE_TYPES.CANCEL_REFUSED, refused);
  }

  /** The `cancel` update: the main loop decides it (accepted before funds; workflow.ts, steps/follow.ts). */
  async requestCancel(arg: { reason?: string }): Promise<PaymentState> {
    this._cancel = { reason: arg?.reason ?? 'cancelled by the caller', decision: 'PENDING', via: 'UPDATE' };
    await condition(() => this._cancel?.decision !== 'PENDING');
    if (this._cancel?.decision === 'REFUSED')
      throw refusal(
        PAYMENT_FAILURE_TYPES.CANCEL_REFUSED,
        'funds arrived before the cancel was applied; the payment goes on',
      );
    return this.snapshot();
  }

  /**
   * A Temporal cancel request (handle.cancel(), a parent's cancel) is a request like the `cancel` update: accepted
   * before funds, else the payment is followed to its real end.
   */
  onTemporalCancel(): void {
    if (this._outcome || this._cancel) return;
    const blocker = this.cancelBlocker();
    if (blocker) {
      this.note('cancel-ignored', `Temporal cancel request: ${blocker}`);
      log.info('Temporal cancel request ignored', { workflowId: this.workflowId, why: blocker });
      return;
    }
    this._cancel = { reason: 'Temporal cancel request', decision: 'PENDING', via: 'TEMPORAL_CANCEL' };
  }

  /** Why a requote cannot go on now, or null (guards.ts). */
  requoteBlocker(): string | null {
    return requoteBlocker(this, Date.now());
  }

  /** Why a requote in flight must not make its new payment live, or null. Checked after every await. */
  requoteLostTo(): string | null {
    return requoteLostTo(this);
  }

  /** requote's validator: a retried update ID is answered again (the server dedupes it too); anything else is checked. */
  validateRequote(updateId: string | undefined): void {
    if (updateId !== undefined && this._requoteNumbers.has(updateId)) return;
    const blocker = this.requoteBlocker();
    if (blocker) throw refusal(PAYMENT_FAILURE_TYPES.REQUOTE_REFUSED, blocker);
  }

  validateResolve(decision: ResolveCreateDecision): void {
    if (!this._attention)
      throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, 'no create is waiting for a decision');
    if (this._resolution || this._resolvingRequote)
      throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, 'a decision is already being applied');
    const shape = resolveShapeProblem(decision);
    if (shape) throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, shape);
    const contradiction = resolveContradiction(
      decision,
      [...this.toldEarly.values()].map((t) => t.payment),
    );
    if (contradiction) throw refusal(PAYMENT_FAILURE_TYPES.RESOLVE_REFUSED, contradiction);
  }
}
