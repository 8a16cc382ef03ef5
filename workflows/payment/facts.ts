// What one payment knows, and the named transitions that change it (workflows/README.md: state, handlers, steps).
// The fields are protected: a step reads them through the getters (read-only; ReadonlySet/ReadonlyMap) and changes
// them only through a transition named for what happened, so a step that writes one does not compile
// (test/unit/workflows/payment-steps-write-no-state.test.ts holds it for a cast too). The lifecycle and the
// handlers that change them besides (enterPhase, absorb, finish, the cancel's request) are PaymentWorkflowState's
// (state.ts).
import type { Payment } from '../../src/contract';
import type { PaymentPhase } from '../types';
import type { PaymentCreated, PaymentOutcome, ResolveCreateDecision } from './api';
import type { CancelRequest } from './guards';

/** A requote's first answer (or refusal), given again when its update ID comes back. */
export type RequoteAnswer = { answer: PaymentCreated } | { refused: string };

/** A create whose outcome is unknown: `first` is the payment's first create (the main body waits on it). */
export interface Attention {
  reason: string;
  idempotencyKey: string;
  first: boolean;
}

export abstract class PaymentFactsAndTransitions {
  protected _phase: PaymentPhase = 'VALIDATING';
  /** every provider payment this workflow created, by id (requote adds one; old ones stay tracked) */
  protected readonly _tracked = new Map<string, Payment>();
  protected _activeId: string | null = null;
  protected _requotes = 0;
  protected _created: PaymentCreated | null = null;
  protected _outcome: PaymentOutcome | null = null;
  protected _cancel: CancelRequest | null = null;
  protected _requoting = false;
  /** requote update ID → its number n (key `<workflowId>:create:<n>`): one ID never creates twice */
  protected readonly _requoteNumbers = new Map<string, number>();
  protected readonly _requoteAnswers = new Map<string, RequoteAnswer>();
  /** a create whose outcome is unknown, waiting for an operator (`resolveCreate`) */
  protected _attention: Attention | null = null;
  protected _resolution: ResolveCreateDecision | null = null;
  /** why the operator's last decision could not be applied (its refusal says so) */
  protected _resolveFailure: string | null = null;
  /** a `resolveCreate` of a requote's create is reading the named payment */
  protected _resolvingRequote = false;
  protected _lastHeardAt = Date.now();
  protected _expiredSince: number | null = null;
  /** the provider payment whose EXPIRED `expiredSince` dates */
  protected _expiredOf: string | null = null;
  /** when the followed payment ended while another funded one still moved */
  protected _stillMovingSince: number | null = null;
  /** after an accepted cancel: since when the provider says no tracked payment can be funded any more */
  protected _unfundableSince: number | null = null;
  /** after an accepted cancel: when each tracked payment was last read to ask whether it can still be funded */
  protected readonly _cancelReads = new Map<string, number>();
  protected readonly _quoteExpiryReconciled = new Set<string>();
  protected readonly _deadlineReconciled = new Set<string>();
  /** other tracked payments read once before an outcome is returned (a requote's abandoned payment) */
  protected readonly _readBeforeOutcome = new Set<string>();

  /** awaitCreated's answer for a created provider payment (on the payment's calendar: state.ts). */
  abstract createdAnswer(p: Payment): PaymentCreated & { outcome: 'CREATED' };

  // ---- facts (read-only from outside) ----

  get phase(): PaymentPhase {
    return this._phase;
  }
  get tracked(): ReadonlyMap<string, Payment> {
    return this._tracked;
  }
  get activeId(): string | null {
    return this._activeId;
  }
  get requotes(): number {
    return this._requotes;
  }
  get created(): PaymentCreated | null {
    return this._created;
  }
  get outcome(): PaymentOutcome | null {
    return this._outcome;
  }
  /** read-only: a step decides a cancel through `acceptCancel` or `refuseCancel` */
  get cancel(): Readonly<CancelRequest> | null {
    return this._cancel;
  }
  get requoting(): boolean {
    return this._requoting;
  }
  get requoteNumbers(): ReadonlyMap<string, number> {
    return this._requoteNumbers;
  }
  get requoteAnswers(): ReadonlyMap<string, RequoteAnswer> {
    return this._requoteAnswers;
  }
  get attention(): Readonly<Attention> | null {
    return this._attention;
  }
  get resolution(): ResolveCreateDecision | null {
    return this._resolution;
  }
  get resolveFailure(): string | null {
    return this._resolveFailure;
  }
  get resolvingRequote(): boolean {
    return this._resolvingRequote;
  }
  get lastHeardAt(): number {
    return this._lastHeardAt;
  }
  get expiredSince(): number | null {
    return this._expiredSince;
  }
  get expiredOf(): string | null {
    return this._expiredOf;
  }
  get stillMovingSince(): number | null {
    return this._stillMovingSince;
  }
  get unfundableSince(): number | null {
    return this._unfundableSince;
  }
  get cancelReads(): ReadonlyMap<string, number> {
    return this._cancelReads;
  }
  get quoteExpiryReconciled(): ReadonlySet<string> {
    return this._quoteExpiryReconciled;
  }
  get deadlineReconciled(): ReadonlySet<string> {
    return this._deadlineReconciled;
  }
  get readBeforeOutcome(): ReadonlySet<string> {
    return this._readBeforeOutcome;
  }

  // ---- transitions: the steps' only way to change what the payment knows, each named for what happened ----

  /** A provider payment the payment made goes live: it is followed, and awaitCreated answers with it. */
  goLive(p: Payment): PaymentCreated & { outcome: 'CREATED' } {
    this._activeId = p.id;
    const answer = this.createdAnswer(p);
    this._created = answer;
    return answer;
  }

  /** The first create's outcome is unknown: the main body waits for an operator (or a cancel). */
  firstCreateNeedsOperator(reason: string, idempotencyKey: string): void {
    this._attention = { reason, idempotencyKey, first: true };
  }
  /** A requote's create outcome is unknown: no further requote until an operator decides. */
  requoteCreateNeedsOperator(reason: string, idempotencyKey: string): void {
    this._attention = { reason, idempotencyKey, first: false };
  }
  /** The operator's decision on the first create, handed to the main body (awaitOperator acts on it). */
  operatorDecided(decision: ResolveCreateDecision): void {
    this._resolution = decision;
  }
  /** The operator's payment of the first create is adopted and followed: it goes live, nobody waits any more. */
  operatorPaymentAdopted(p: Payment): void {
    this.goLive(p);
    this._attention = null;
    this._resolution = null;
  }
  /** The operator said the first create made no payment: nobody waits any more. */
  operatorSaidNoPayment(): void {
    this._attention = null;
    this._resolution = null;
  }
  /** The operator's decision could not be applied: its update is refused with `why`, and they may try again. */
  operatorDecisionFailed(why: string): void {
    this._resolveFailure = why;
    this._resolution = null;
  }
  /** A `resolveCreate` of a requote's create starts (true) or stops (false) reading the operator's payment. */
  resolvingRequoteCreate(reading: boolean): void {
    this._resolvingRequote = reading;
  }
  /** The create an operator was asked about is settled (resolved, or the payment cancelled meanwhile). */
  attentionSettled(): void {
    this._attention = null;
  }

  /** The pending cancel is accepted (spec: States and transitions; decided in place: `seen()` compares it). */
  acceptCancel(): void {
    if (this._cancel) this._cancel.decision = 'ACCEPTED';
  }
  /** The pending cancel is refused: funds are in, or may be (spec: States and transitions, rule 1). */
  refuseCancel(): void {
    if (this._cancel) this._cancel.decision = 'REFUSED';
  }

  /** A requote starts (true) or ends (false): one at a time. */
  requoteRunning(running: boolean): void {
    this._requoting = running;
  }
  /**
   * The number of the requote asked by `updateId`: its number when it was seen before (`known`), else the next one;
   * kept for the update ID, so the same ID never creates twice (key `<workflowId>:create:<n>`).
   */
  numberRequote(updateId: string | undefined, known: number | undefined): number {
    const n = known ?? ++this._requotes;
    if (updateId !== undefined) this._requoteNumbers.set(updateId, n);
    return n;
  }
  /** A requote's first answer, given again when its update ID comes back. */
  answerRequote(updateId: string | undefined, first: RequoteAnswer): void {
    if (updateId !== undefined) this._requoteAnswers.set(updateId, first);
  }

  /** A read of a provider payment ended (answered or not): the safety read counts from now. */
  readDone(): void {
    this._lastHeardAt = Date.now();
  }
  /** Another tracked payment is read once before the outcome is returned. */
  markReadBeforeOutcome(id: string): void {
    this._readBeforeOutcome.add(id);
  }
  /** `id` was read at its quote expiry (spec: States and transitions, row 3). */
  markQuoteExpiryRead(id: string): void {
    this._quoteExpiryReconciled.add(id);
  }
  /** `id` was read at its funding deadline (spec: States and transitions, row 3). */
  markDeadlineRead(id: string): void {
    this._deadlineReconciled.add(id);
  }
  /** After an accepted cancel, `id` was read at `now` to ask whether it can still be funded. */
  markCancelRead(id: string, now: number): void {
    this._cancelReads.set(id, now);
  }

  /** The followed payment ended while another funded one still moves: since when (the first time: `now`). */
  otherStillMoving(now: number): number {
    return (this._stillMovingSince ??= now);
  }
  /** After an accepted cancel, no tracked payment can be funded any more: since when (the first time: `now`). */
  allUnfundable(now: number): number {
    return (this._unfundableSince ??= now);
  }
  /** After an accepted cancel, a tracked payment can be funded again (or is not known not to be). */
  someFundable(): void {
    this._unfundableSince = null;
  }
  /**
   * The provider's EXPIRED on `id`: the linger after it starts at `now`, unless it is already this payment's (one a
   * requote replaced expiring meanwhile must not shorten it). Returns since when it lingers.
   */
  beginLinger(id: string, now: number): number {
    if (this._expiredOf !== id) [this._expiredOf, this._expiredSince] = [id, now];
    return (this._expiredSince ??= now);
  }
}
