// What one providerPayment entity run holds (built on facts.ts: the fields and the transitions its steps change them
// by), and the bodies of its handlers, which change the fields themselves. Every method keeps the order of the
// commands it makes (patched() markers, memo and search-attribute upserts) as the code it replaced did: the
// entity is AUTO_UPGRADE and its recorded histories must replay (patches.ts).
import { deprecatePatch, log, metricMeter, patched, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { Payment } from '../../src/contract';
import { unknownPaymentValues } from '../../src/contract/payment-status';
import { entityMemo, memoFingerprint, type EntityMemo } from '../entity-memo';
import { createIndexer, indexAtStart } from '../indexing';
import { isTerminalStatus, mergePayment } from '../payment-merge';
import {
  OBSERVED_EVENT_TYPE,
  RECONCILE_SWEEP_READER,
  type ProviderPaymentEvent,
  type ProviderPaymentInput,
  type ProviderPaymentSnapshot,
  type SubscribeRequest,
} from './api';
import { isKnownPaymentStatus } from '../../src/contract/payment-status';
import { ENTITY_PATCHES } from './patches';
import { ProviderPaymentFacts, type Cause } from './facts';
import {
  bearsOut,
  mayHaveMovedAfterOutcome,
  moveKey,
  mustHoldForRead,
  readerOf,
  type SnapshotSource,
} from './knowledge';
import {
  claimsFinalStatus,
  confirms,
  FINAL_PUSH_STATUSES,
  MAX_PUSH_MISMATCHES,
  PUSH_MISMATCH_METRIC,
  PUSH_MISMATCH_PHASE,
  type PushMismatch,
  type UnconfirmedPush,
} from './push-confirmation';

export type { Cause } from './facts';

const MAX_STATUS_HISTORY = 50;
/** Counted on the workflow metric meter (emitted outside replay only); documented in docs/spec-gaps.md. */
export const UNKNOWN_VALUES_METRIC = 'xborder_provider_unknown_values_total';

export class ProviderPaymentState extends ProviderPaymentFacts {
  readonly id: string;
  /** read first, in the run's first workflow task (ENTITY_PATCHES.leanHistory) */
  readonly lean: boolean;
  /** read next, in the same task (ENTITY_PATCHES.fewerActions) */
  readonly fewer: boolean;
  /** under `fewer`: the PaymentStatus this run has indexed (started with, or last upserted) */
  private indexedStatus: string | null = null;
  private readonly index: ReturnType<typeof createIndexer>;
  /** the memo this run has: under the lean patch, the one it was started with */
  private lastMemo: string;
  /** what of the current payment the contract does not know: kept, logged, counted, shown */
  private unknownValues: string[] = [];
  /** a run started by an event after its predecessor ended (no snapshot, not continued): it knows no subscriber */
  readonly freshRun: boolean;

  /**
   * A lookup went unanswered and is to be asked again (announce-late.ts): the run wakes for it and does not end before
   * it stands. Never true in a run before ENTITY_PATCHES.retriesRegistrationLookup: there the first lookup stood.
   */
  lookupPending(): boolean {
    return this.needsRegistration() && this.registrationLookups > 0;
  }

  /** A fresh run knowing no subscriber holds a payment that may have moved after its outcome, and has not looked up. */
  needsRegistration(): boolean {
    const p = this.payment;
    if (!this.freshRun || this.registrationLookedUp || !p) return false;
    return this.eventsFor.size === 0 && this.subscribers.size === 0 && mayHaveMovedAfterOutcome(p);
  }

  constructor(readonly input: ProviderPaymentInput) {
    super(input); // what the input carries over (facts.ts): no command, no patch
    this.id = input.providerPaymentId;
    // Started by an event after its predecessor ended, or carried over from such a run: it knows no subscriber and
    // no events registration (a run a subscriber started always knows one).
    this.freshRun =
      (input.payment === undefined && !workflowInfo().continuedFromExecutionRunId) ||
      (Boolean(workflowInfo().continuedFromExecutionRunId) &&
        (input.subscribers ?? []).length === 0 &&
        (input.eventsFor ?? []).length === 0);
    this.lean = patched(ENTITY_PATCHES.leanHistory);
    this.fewer = this.lean && patched(ENTITY_PATCHES.fewerActions);
    this.index = createIndexer(() => (this.lean ? indexAtStart() : null));
    if (this.fewer) this.indexedStatus = indexAtStart().status ?? null;
    this._payment = input.payment !== undefined ? this.read(input.payment) : null;
    this._version = this._payment ? 1 : 0;
    this.lastMemo = this.lean ? memoFingerprint(workflowInfo().memo as Partial<EntityMemo> | undefined) : '';
    for (const held of input.unconfirmedPushes ?? []) {
      const p = this.read(held.payment);
      if (p)
        this._unconfirmed.push({
          eventId: held.eventId,
          payment: p,
          ...(held.cause ? { cause: held.cause } : {}),
        });
    }
    // An older build's entry (told: the status alone) whose subscriber it still had: it sent it its payment last
    // (knowledge.ts, sentBeforeUpgrade). State only: announce-late.ts asks a patch before acting on it.
    for (const [subscriber, events] of this._eventsFor)
      if (!events.keyed && events.sentKey === undefined && this._subscribers.has(subscriber) && this._payment)
        events.sentKey = moveKey(this._payment);
    // a carried-over run already told its subscribers
    if (workflowInfo().continuedFromExecutionRunId) this.markAllTold();
    // Started with a snapshot by a subscriber (startChild from a payment): it sent us what it has, so echoing it
    // back would only cost it a signal and a workflow task. Later changes are forwarded as usual.
    else if (this.payment && this.subscribers.size > 0 && this.isPatched(ENTITY_PATCHES.noEchoToStarter))
      this.markAllTold();
  }

  private markAllTold(): void {
    for (const s of this.subscribers) this._forwarded.set(s, this.version);
  }

  /** A patch read under the lean marker is on without a marker of its own (ENTITY_PATCHES.leanHistory). */
  isPatched(id: string): boolean {
    return this.lean || patched(id);
  }

  /**
   * A payload as the entity keeps it: every sender parses it at the edge (api.ts), so it is taken as it came; null
   * when the edge found none. Runs before the lean marker asked ENTITY_PATCHES.acceptsUnknownValues at a payload
   * the first contract refused: now deprecated (patches.ts), it keeps their histories replaying with the marker or
   * without it.
   */
  read(payment: Payment | null | undefined): Payment | null {
    if (!this.lean) deprecatePatch(ENTITY_PATCHES.acceptsUnknownValues);
    return payment ?? null;
  }

  /** The `event` signal: a webhook, a reconcile listing, or what the payment workflow read (OBSERVED_EVENT_TYPE). */
  onEvent(event: ProviderPaymentEvent): void {
    this._wakeups++;
    if (!this._seen.add(event.eventId)) return; // Temporal or the sender may deliver an event twice
    this._quietReads = 0;
    // a state the payment workflow read itself (tell-entity.ts, tellEntity) is a reconcile, not a webhook
    const cause = event.type === OBSERVED_EVENT_TYPE ? 'reconcile' : 'event';
    const source = this.sourceOf(event);
    if (source === 'read' && event.payment) this.noteReadBy(event.from!, event.payment);
    if (this.holdsForConfirmation(event, cause, source)) return;
    this.accept(event.payment, cause);
    if (source === 'read' && event.from === RECONCILE_SWEEP_READER && this.payment) this._readBySweep = true;
    if (cause === 'reconcile' && event.from !== undefined && this.fewer)
      this.toldBy(event.from, event.payment);
  }

  /** The sweep, and the payment workflows this entity knows (subscribing, or subscribed and asked for events). */
  private isKnownReader = (from: string): boolean =>
    from === RECONCILE_SWEEP_READER || this.subscribers.has(from) || this.eventsFor.has(from);

  /**
   * A read only from a known reader (knowledge.ts, readerOf). A `from` the entity does not know was taken as a read
   * before ENTITY_PATCHES.knowsItsReaders: asked only for such an event, so a run that hears none has no marker.
   */
  private sourceOf(event: ProviderPaymentEvent): SnapshotSource {
    const reader = readerOf(event, this.isKnownReader);
    if (reader === 'stranger') return patched(ENTITY_PATCHES.knowsItsReaders) ? 'push' : 'read';
    return reader === 'known' ? 'read' : 'push';
  }

  /** A subscriber that asked for events read the payment itself: what it read is what it tells its backend. */
  private noteReadBy(subscriber: string, read: Payment): void {
    const events = this._eventsFor.get(subscriber);
    if (events && read.id === this.id) events.readByIt = moveKey(read);
  }

  /** A subscriber that sent its own read is not sent it back, unless the entity holds more than it sent. */
  private toldBy(subscriber: string, told: Payment | null): void {
    const theirs = this.read(told);
    if (!this.subscribers.has(subscriber) || !this.payment || !theirs) return;
    if (!mergePayment(theirs, this.payment).changed) this._forwarded.set(subscriber, this.version);
  }

  /** The `subscribe` signal. */
  onSubscribe({ workflowId, has, events }: SubscribeRequest): void {
    this._subscribers.add(workflowId);
    if (events && !this.eventsFor.has(workflowId)) {
      const heard = (has !== undefined ? this.read(has) : undefined) ?? this.payment;
      const told = heard ? moveKey(heard) : null;
      this._eventsFor.set(workflowId, { ...events, told, keyed: true });
    }
    this._forwarded.delete(workflowId);
    this._wakeups++;
    // Lean runs: the subscriber's own read (its POST's answer) is merged like a read of ours, and
    // the subscriber is sent only what is newer than it has. Older runs ignore `has`, as their code did.
    if (this.lean && has !== undefined) {
      this.accept(has, 'reconcile');
      this._readBySubscriber = true;
      const theirs = this.read(has);
      if (this.payment && theirs && !mergePayment(theirs, this.payment).changed)
        this._forwarded.set(workflowId, this.version);
    }
    this.updateMemo();
  }

  accept(sent: Payment | null | undefined, cause: Cause): void {
    const incoming = this.read(sent);
    if (!incoming) return;
    if (incoming.id !== this.id) {
      log.warn('payment of another id sent to this entity; dropped', {
        providerPaymentId: this.id,
        got: incoming.id,
      });
      return;
    }
    this.heard();
    const merged = mergePayment(this.payment, incoming);
    if (!merged.changed) return; // duplicate, stale or out of order: never backwards
    const payment = (this._payment = merged.payment);
    this._version++;
    this._lastCause = cause;
    if (merged.statusChanged) {
      this._statusHistory.push({ at: new Date().toISOString(), status: payment.status, cause });
      if (this.statusHistory.length > MAX_STATUS_HISTORY) this._statusHistory.shift();
    }
    // a refund after EXPIRED or COMPLETED (spec: States and transitions, row 4) restarts the linger period
    this._terminalSince = isTerminalStatus(payment) ? Date.now() : null;
    this.noteUnknownValues();
    this.reindex();
    this.updateMemo();
  }

  /**
   * A push waits for a read (knowledge.ts): a pushed final status that would change what the entity holds, whatever
   * the event's type says (ENTITY_PATCHES.confirmsFinalPush), and, since ENTITY_PATCHES.confirmsEveryPush, any push
   * that would change it — a status on the way, a lifecycle timestamp, a figure. A push that changes nothing (a
   * duplicate under a new id, a stale copy) costs no read. Our own reads (a known `from`: knowledge.ts, readerOf) are taken.
   */
  private holdsForConfirmation(
    event: ProviderPaymentEvent,
    cause: 'event' | 'reconcile',
    source: SnapshotSource,
  ): boolean {
    const pushed = this.read(event.payment);
    if (!pushed || pushed.id !== this.id) return false;
    if (!mustHoldForRead(this.payment, pushed)) return false;
    if (claimsFinalStatus(pushed)) {
      // A final status from our own read (the payment's GET, the sweep's listing) is the service's answer already.
      // Read only for such a read, before the older patch, so runs recorded before it replay as they were.
      if (source === 'read' && patched(ENTITY_PATCHES.takesFinalReads)) return false;
      // Not memoized: a run that began on older code (AUTO_UPGRADE) starts confirming at its first final push
      // after the upgrade; on replay the marker's place in history says which pushes were held.
      if (!patched(ENTITY_PATCHES.confirmsFinalPush)) return false;
    } else {
      // Reads are not held; a push is — read only here, so a run that hears no such push has no marker.
      if (source === 'read') return false;
      if (!patched(ENTITY_PATCHES.confirmsEveryPush)) return false;
    }
    this._unconfirmed.push({ eventId: event.eventId, payment: pushed, cause });
    log.info('pushed snapshot held for confirmation by GET', {
      providerPaymentId: this.id,
      eventId: event.eventId,
      status: pushed.status,
    });
    return true;
  }

  /** The entity's search attributes; PaymentPhase only once a push was not borne out (`xborder stuck`). */
  reindex(): void {
    const flagged = this.pushMismatches.length > 0 ? { phase: PUSH_MISMATCH_PHASE } : {};
    const { payment, id } = this;
    if (payment)
      this.index({
        ...flagged,
        status: this.statusToIndex(payment.status),
        providerPaymentId: id,
        customerId: payment.customerId,
      });
    else if (this.pushMismatches.length > 0) this.index({ ...flagged, providerPaymentId: id }); // a push for a payment the service does not have
  }

  /**
   * Under `fewer`: the statuses operators query on an entity (src/client/stuck.ts: unknown ones, REFUNDED and FAILED;
   * the final ones with them) are upserted as they come; a known status on the way (PENDING, PROCESSING, SENT)
   * keeps the one indexed before, and costs no upsert. The snapshot query and the memo's role say the rest.
   */
  private statusToIndex(status: string): string {
    if (
      !this.fewer ||
      this.indexedStatus === null ||
      FINAL_PUSH_STATUSES.includes(status) ||
      !isKnownPaymentStatus(status)
    )
      return (this.indexedStatus = status);
    return this.indexedStatus;
  }

  /**
   * An unknown status is treated as in progress (not terminal: reconciliation goes on); unknown shapes are
   * passed through. Each new finding is logged and counted; the memo flags it, and the PaymentStatus search
   * attribute carries an unknown status as sent, which `xborder stuck` lists (UNKNOWN_PROVIDER_STATUS).
   */
  noteUnknownValues(): void {
    const found = this.payment ? unknownPaymentValues(this.payment) : [];
    const fresh = found.filter((f) => !this.unknownValues.includes(f));
    this.unknownValues = found;
    if (fresh.length === 0) return;
    log.warn('provider payment carries values the contract does not know; passed through', {
      providerPaymentId: this.id,
      unknown: fresh,
    });
    for (const what of fresh)
      metricMeter
        .createCounter(UNKNOWN_VALUES_METRIC, undefined, 'Provider payment values the contract does not know')
        .add(1, { kind: what.startsWith('status ') ? 'status' : what });
  }

  updateMemo(): void {
    const memo = entityMemo(this.payment, this.subscribers.size, this.unknownValues);
    const fingerprint = memoFingerprint(memo);
    if (fingerprint === this.lastMemo) return;
    this.lastMemo = fingerprint;
    upsertMemo({ ...memo });
  }

  /** The `snapshot` query. */
  snapshot(): ProviderPaymentSnapshot {
    const memo = entityMemo(this.payment, this.subscribers.size, []);
    return {
      providerPaymentId: this.id,
      payment: this.payment,
      subscribers: [...this.subscribers],
      eventsFor: this.ownRegistrations,
      seenEventIds: this.seen.size,
      statusHistory: [...this.statusHistory],
      role: memo.role,
      linkAccountId: memo.linkAccountId,
      completedAfterTerminal: false,
      unknownValues: [...this.unknownValues],
      unconfirmed: [...this._judgingNow, ...this.unconfirmed].map((u) => ({
        eventId: u.eventId,
        status: u.payment.status,
      })),
      pushMismatches: [...this.pushMismatches],
    };
  }

  /** The held pushes a read about to start will judge (one that lands while it is in flight waits for the next). */
  takeHeld(): UnconfirmedPush[] {
    const judging = (this._judgingNow = this._unconfirmed);
    this._unconfirmed = [];
    return judging;
  }

  /** The read did not answer: what it was to judge is held again. */
  holdAgain(judging: UnconfirmedPush[]): void {
    this._judgingNow = [];
    this._unconfirmed = [...judging, ...this.unconfirmed];
  }

  /** The GET's answer is the truth: it is what is merged and forwarded; a push it does not bear out is a mismatch. */
  judge(answer: Payment | null, judging: UnconfirmedPush[]): boolean {
    this._judgingNow = [];
    const read = this.read(answer);
    if (!read || read.id !== this.id) {
      this._unconfirmed = [...judging, ...this.unconfirmed]; // nothing to judge by: still held
      this.accept(answer, 'reconcile'); // logs a payment of another id, as before
      return false;
    }
    // a read that bears a push out takes the push's cause (a webhook's `event`); otherwise it is a `reconcile`
    let cause: Cause = 'reconcile';
    let mismatched = false;
    for (const held of judging) {
      // a held final status is judged as it always was; any other held push by the general rule (knowledge.ts)
      const borne = claimsFinalStatus(held.payment)
        ? confirms(read, held.payment)
        : bearsOut(read, held.payment);
      if (borne) cause = held.cause ?? 'event';
      else {
        mismatched = true;
        this.recordMismatch(held, read.status);
      }
    }
    this.accept(answer, cause);
    if (mismatched) this.reindex(); // the read may have changed nothing, yet the entity is now listed
    return true;
  }

  /** The service has no such payment (404): every held push is a mismatch. */
  notFound(judging: UnconfirmedPush[]): void {
    this._judgingNow = [];
    for (const held of judging) this.recordMismatch(held, 'NOT_FOUND');
    if (judging.length > 0) this.reindex();
  }

  /** Kept (snapshot, carried over), logged, counted; the push itself is dropped. */
  private recordMismatch(held: UnconfirmedPush, read: string): void {
    const mismatch: PushMismatch = {
      eventId: held.eventId,
      pushed: held.payment.status,
      read,
      at: new Date().toISOString(),
    };
    this._pushMismatches.push(mismatch);
    if (this.pushMismatches.length > MAX_PUSH_MISMATCHES) this._pushMismatches.shift();
    log.warn('pushed snapshot not borne out by the service; kept, not forwarded', {
      providerPaymentId: this.id,
      ...mismatch,
    });
    metricMeter
      .createCounter(PUSH_MISMATCH_METRIC, undefined, 'Pushed snapshots the service did not confirm')
      .add(1, { pushed: mismatch.pushed, read });
  }

  /** A subscriber has not been sent the current version. */
  unforwarded(): boolean {
    return this.payment !== null && [...this.subscribers].some((s) => this.forwarded.get(s) !== this.version);
  }

  /**
   * The input of the next run (continue-as-new): everything this one holds, as the declared list says
   * (carriedFields: one place naming every field of the input). Absent values are left out, so a run carries what
   * older runs carried, in the same shape.
   */
  carriedOver(): ProviderPaymentInput {
    const fields = carriedFields(this);
    const carried: Record<string, unknown> = {};
    for (const key of Object.keys(fields) as (keyof ProviderPaymentInput)[]) {
      const value = fields[key]();
      if (value !== undefined) carried[key] = value;
    }
    return carried as unknown as ProviderPaymentInput;
  }
}

/**
 * Every field of the entity's input, and what a run writes in it for the next (continue-as-new). The type names
 * every field of ProviderPaymentInput (`-?`): one added to the input and left out here does not compile. The
 * constructor restores each. `undefined`: not carried (the next run takes its default). A field carried only when it
 * holds something keeps the input as older runs wrote it.
 */
function carriedFields(state: ProviderPaymentState): {
  [K in keyof ProviderPaymentInput]-?: () => ProviderPaymentInput[K];
} {
  const { input, unconfirmed, pushMismatches } = state;
  return {
    providerPaymentId: () => state.id,
    payment: () => state.payment ?? undefined,
    subscribers: () => [...state.subscribers],
    seenEventIds: () => state.seen.toArray(),
    statusHistory: () => [...state.statusHistory],
    terminalSince: () => (state.terminalSince === null ? null : new Date(state.terminalSince).toISOString()),
    reconcileEveryMs: () => input.reconcileEveryMs,
    lingerAfterTerminalMs: () => input.lingerAfterTerminalMs,
    continueAsNewAfterEvents: () => input.continueAsNewAfterEvents,
    unconfirmedPushes: () => (unconfirmed.length > 0 ? [...unconfirmed] : undefined),
    pushMismatches: () => (pushMismatches.length > 0 ? [...pushMismatches] : undefined),
    registrationLookedUp: () => (state.registrationLookedUp ? true : undefined),
    eventsFor: () =>
      state.eventsFor.size > 0
        ? [...state.eventsFor].map(([subscriber, e]) => ({ subscriber, ...e }))
        : undefined,
    // Asked only by a run that made a lookup (patched() in the run's last task, before continue-as-new): one that
    // made none writes the input as before and has no marker. Before it, a continued run began its lookups again.
    registrationLookups: () =>
      state.registrationLookups > 0 && patched(ENTITY_PATCHES.carriesRegistrationLookups)
        ? state.registrationLookups
        : undefined,
    registrationNotBefore: () =>
      state.registrationLookups > 0 && patched(ENTITY_PATCHES.carriesRegistrationLookups)
        ? state.registrationNotBefore
        : undefined,
  };
}
