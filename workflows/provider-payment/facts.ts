// What one providerPayment entity run knows, and the named transitions its steps change it by (workflows/README.md:
// state, handlers, steps). The fields are protected: a step, quiet-reads.ts and workflow.ts read them through the
// getters (read-only: ReadonlySet, ReadonlyMap, readonly arrays and entries) and change them only through a
// transition named for what happened, so one that writes a field does not compile
// (test/unit/workflows/provider-payment-steps-write-no-state.test.ts holds it for a cast too). The handlers' bodies,
// which change them besides (onEvent, onSubscribe, accept, judge), are ProviderPaymentState's (state.ts).
// No transition makes a command or asks a patch: the steps ask patched() where they always did (patches.ts), so
// every recorded history replays as it ran (AUTO_UPGRADE). Date.now() is the workflow's clock: the same within a task.
import type { Payment } from '../../src/contract';
import { BoundedIdSet } from '../payment-merge';
import type { LateEventsFor, ProviderPaymentChanged, ProviderPaymentInput } from './api';
import { moveKey, type ToldEntry } from './knowledge';
import type { PushMismatch, UnconfirmedPush } from './push-confirmation';

export type Cause = ProviderPaymentChanged['cause'];

/** One status the entity took, when, and why (the snapshot's statusHistory; carried over). */
export interface StatusEntry {
  at: string;
  status: string;
  cause: string;
}

/** A subscriber that asked for outbound events, with the move its backend was last told (steps/announce-late.ts). */
export type EventsForEntry = LateEventsFor &
  ToldEntry & {
    readByIt?: string;
    /**
     * found only by visibility's ProviderPaymentId (a search attribute any client with Temporal access can set):
     * used, never named in the run's result (snapshot, eventsFor), so never passed on as the entity's own record
     */
    foundBy?: 'visibility';
  };

/** The event ids seen, as the steps may read them (the `event` handler alone adds one). */
export type SeenEventIds = Pick<BoundedIdSet, 'size' | 'toArray'>;

export abstract class ProviderPaymentFacts {
  protected readonly _seen: BoundedIdSet;
  protected readonly _subscribers: Set<string>;
  /** the version each subscriber last received */
  protected readonly _forwarded = new Map<string, number>();
  protected readonly _statusHistory: StatusEntry[];
  protected _payment: Payment | null = null;
  protected _terminalSince: number | null;
  protected _version = 0;
  protected _lastCause: Cause = 'start';
  /** every signal lets the loop look again */
  protected _wakeups = 0;
  protected _lastHeardAt: number;
  /** timer reads since the last new event (quiet-reads.ts, QUIET_READS_MS) */
  protected _quietReads = 0;
  /** a subscriber sent its own read of the payment (lean runs): as good as our first GET */
  protected _readBySubscriber = false;
  /** the reconcile sweep's listing was taken (a read of ours: knowledge.ts, readerOf): as good as our first GET */
  protected _readBySweep = false;
  /** pushed final statuses held for the GET that confirms them (ENTITY_PATCHES.confirmsFinalPush) */
  protected _unconfirmed: UnconfirmedPush[] = [];
  /** held pushes whose confirming read is in flight (still unconfirmed to anyone who asks) */
  protected _judgingNow: UnconfirmedPush[] = [];
  protected readonly _pushMismatches: PushMismatch[];
  /**
   * Subscribers that asked for outbound events, with the status each was last told: once one has closed, a
   * later move is sent to its delivery workflow as payment.moved_after_outcome (steps/announce-late.ts).
   */
  protected readonly _eventsFor: Map<string, EventsForEntry>;
  /** workflow time before which no confirming read is tried again (after one that failed) */
  protected _confirmNotBefore = 0;
  /** the fresh run looked for the closed payment's events registration (steps/announce-late.ts); carried over */
  protected _registrationLookedUp: boolean;
  /** lookups made that went unanswered or answered (announce-late.ts); carried over: bounded per following */
  protected _registrationLookups: number;
  /** workflow time before which an unanswered lookup is not asked again; carried over with registrationLookups */
  protected _registrationNotBefore: number;

  /** What the input carries over (continue-as-new: state.ts, carriedFields); none of it makes a command. */
  protected constructor(input: ProviderPaymentInput) {
    this._registrationLookedUp = input.registrationLookedUp ?? false;
    this._registrationLookups = input.registrationLookups ?? 0;
    this._registrationNotBefore = input.registrationNotBefore ?? 0;
    this._seen = new BoundedIdSet(input.seenEventIds ?? []);
    this._subscribers = new Set(input.subscribers ?? []);
    this._statusHistory = [...(input.statusHistory ?? [])];
    this._terminalSince = input.terminalSince ? Date.parse(input.terminalSince) : null;
    this._lastHeardAt = Date.now();
    this._pushMismatches = [...(input.pushMismatches ?? [])];
    this._eventsFor = new Map((input.eventsFor ?? []).map(({ subscriber, ...rest }) => [subscriber, rest]));
  }

  // ---- facts (read-only from outside) ----

  get seen(): SeenEventIds {
    return this._seen;
  }
  get subscribers(): ReadonlySet<string> {
    return this._subscribers;
  }
  get forwarded(): ReadonlyMap<string, number> {
    return this._forwarded;
  }
  get statusHistory(): readonly Readonly<StatusEntry>[] {
    return this._statusHistory;
  }
  get payment(): Payment | null {
    return this._payment;
  }
  get terminalSince(): number | null {
    return this._terminalSince;
  }
  get version(): number {
    return this._version;
  }
  get lastCause(): Cause {
    return this._lastCause;
  }
  get wakeups(): number {
    return this._wakeups;
  }
  get lastHeardAt(): number {
    return this._lastHeardAt;
  }
  get quietReads(): number {
    return this._quietReads;
  }
  get readBySubscriber(): boolean {
    return this._readBySubscriber;
  }
  get readBySweep(): boolean {
    return this._readBySweep;
  }
  get unconfirmed(): readonly UnconfirmedPush[] {
    return this._unconfirmed;
  }
  get pushMismatches(): readonly Readonly<PushMismatch>[] {
    return this._pushMismatches;
  }
  get eventsFor(): ReadonlyMap<string, Readonly<EventsForEntry>> {
    return this._eventsFor;
  }
  /**
   * The subscribers whose late events this entity keeps as its own record: every registration but one only visibility
   * named (foundBy). The run's result names them (snapshot), and a run started after it ended reads them there
   * (activities/late-events-activities.ts).
   */
  get ownRegistrations(): string[] {
    return [...this._eventsFor]
      .filter(([, e]) => e.foundBy !== 'visibility')
      .map(([subscriber]) => subscriber);
  }
  get confirmNotBefore(): number {
    return this._confirmNotBefore;
  }
  get registrationLookedUp(): boolean {
    return this._registrationLookedUp;
  }
  get registrationLookups(): number {
    return this._registrationLookups;
  }
  get registrationNotBefore(): number {
    return this._registrationNotBefore;
  }

  // ---- transitions: the steps' only way to change what the entity knows, each named for what happened ----

  /**
   * The entity heard of its payment (one accepted, or a read of ours ended, answered or not): the quiet ladder counts
   * from now (quiet-reads.ts).
   */
  heard(): void {
    this._lastHeardAt = Date.now();
  }

  /** A timer read while nothing is heard (workflow.ts): the next waits for the ladder's next rung (quiet-reads.ts). */
  quietReadTaken(): void {
    this._quietReads++;
  }

  /**
   * The payment is final: the linger (a refund, row 4, or a legacy late funding, row 5, may still follow: spec,
   * States and transitions) runs from when it first was, `now` the first time. Returns since when.
   */
  lingerFrom(now: number): number {
    return (this._terminalSince ??= now);
  }

  /** A confirming read answered and judged what it held: a push held later is judged at once. */
  confirmed(): void {
    this._confirmNotBefore = 0;
  }
  /** A confirming read did not answer (or answered for another id): held pushes wait `ms` for the next. */
  confirmAgainAfter(ms: number): void {
    this._confirmNotBefore = Date.now() + ms;
  }

  /** `subscriber` received `version`, holding `sent`: it is not sent it again, and its backend knows that move. */
  sentTo(subscriber: string, version: number, sent: Payment): void {
    this._forwarded.set(subscriber, version);
    this.toldMove(subscriber, moveKey(sent));
  }
  /** `subscriber` is gone (completed or cancelled): it is told nothing more. */
  subscriberGone(subscriber: string): void {
    this._subscribers.delete(subscriber);
    this._forwarded.delete(subscriber);
  }

  /**
   * `subscriber`'s backend knows the move `key` (knowledge.ts, moveKey): handed over, read by the payment itself, or
   * told by it before an upgrade. `keyed`: written by this rule (knowledge.ts, ToldEntry). Written in place, so a step
   * going through eventsFor reads it at once.
   */
  toldMove(subscriber: string, key: string): void {
    const events = this._eventsFor.get(subscriber);
    if (!events) return;
    events.told = key;
    events.keyed = true;
  }

  /** A registration lookup is asked (steps/announce-late.ts): one more try, before its answer. */
  lookupTried(): void {
    this._registrationLookups++;
  }
  /**
   * The lookup answered "not yet" (the payment still runs): that takes no try, it stays pending (lookupPending), and
   * is asked again after `retryMs`.
   */
  lookupWaitsForRunningPayment(retryMs: number): void {
    this._registrationLookups = Math.max(1, this._registrationLookups - 1);
    this._registrationNotBefore = Date.now() + retryMs;
  }
  /** The lookup did not answer: it is asked again after `ms` (the run does not end before: lookupPending). */
  lookupRetryAfter(ms: number): void {
    this._registrationNotBefore = Date.now() + ms;
  }
  /** The closed payment's events registration was found: a move after its outcome is announced to `subscriber`. */
  registered(
    subscriber: string,
    events: LateEventsFor & Pick<ToldEntry, 'told'> & Pick<EventsForEntry, 'foundBy'>,
  ): void {
    this._eventsFor.set(subscriber, { ...events, keyed: true });
  }
  /** What the lookup found (a registration, or none) stands for the run, and is carried over. */
  lookupSettled(): void {
    this._registrationLookedUp = true;
  }
}
