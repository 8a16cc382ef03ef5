// One payment, its providerPayment entity, the network between the service and us, and the backend, driven by
// the simulation (money-truth.sim.test.ts). The entity and the payment are modelled by composing the PURE
// decisions the workflows use, in the order their code calls them:
// - entity (workflows/provider-payment/state.ts, steps/forward.ts, steps/announce-late.ts, workflow.ts): every
//   push is held for a read unless it changes nothing (knowledge.ts: sourceOf, mustHoldForRead); a read judges what
//   it holds (push-confirmation.ts: claimsFinalStatus, confirms; knowledge.ts: bearsOut) and is merged
//   (payment-merge.ts: mergePayment); what changed is forwarded to the subscriber, and once it is gone, a move after
//   the outcome is announced once (knowledge.ts: moveKey, isUntoldMove); a fresh run after the linger finds the
//   payment's registration (knowledge.ts: mayHaveMovedAfterOutcome);
// - payment (workflows/payment/steps/follow.ts): decides its outcome on what it holds (payment-rules.ts: outcomeOf),
//   refuses a cancel once funds are in (isFunded);
// - a worker crash / continue-as-new re-creates the entity from what it carries over (state.ts, carriedOver);
// - the reconcile sweep (activities/reconcile-activities.ts) runs on the Schedule's ticks as time passes, and on its
//   own as a command: its listing is a read, and what it tells the entity is sweep-decision.ts (sweepTellOf,
//   sweepEventId).
// Every invariant violation throws an Error naming the invariant.
import type { Payment } from '../../../src/contract';
import { BoundedIdSet, isTerminalStatus, mergePayment } from '../../../workflows/payment-merge';
import { isFunded, outcomeOf } from '../../../workflows/payment-rules';
import {
  bearsOut,
  isUntoldMove,
  lookupStands,
  MAX_REGISTRATION_LOOKUPS,
  mayHaveMovedAfterOutcome,
  moveKey,
  mustHoldForRead,
  sourceOf,
} from '../../../workflows/provider-payment/knowledge';
import { claimsFinalStatus, confirms } from '../../../workflows/provider-payment/push-confirmation';
import { sweepEventId, sweepTellOf } from '../../../workflows/provider-payment/sweep-decision';
import { RECONCILE_SWEEP_READER } from '../../../workflows/provider-payment/api';
import { FINAL_PAYMENT_STATUSES } from '../../../workflows/search-attributes';
import { ServiceModel, START_MS, type ServiceMove } from './service-model';

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
/** workflow.ts: lingerAfterTerminalMs default */
export const ENTITY_LINGER_MS = 7 * DAY;
/** src/client/reconcile-schedule.ts: the Schedule `payment-reconcile` runs the sweep every 15 minutes by default */
export const SWEEP_EVERY_MS = 15 * MINUTE;
/** workflows/reconcile-payments/workflow.ts: each run's window, 6 hours by default */
export const SWEEP_WINDOW_MS = 6 * 60 * MINUTE;

export interface SimEvent {
  eventId: string;
  payment: Payment;
  /** set only by a worker's own read (the payment's tellEntity); never by the ingress */
  from?: string;
}

/** What a run of the entity carries over continue-as-new (state.ts, carriedOver), as JSON. */
interface EntityCarry {
  payment: Payment | null;
  seenEventIds: string[];
  unconfirmed: SimEvent[];
  mismatches: number;
  subscribed: boolean;
  eventsFor: { told: string | null; readByIt?: string } | null;
  terminalSince: number | null;
  /** carried over (inputs.ts, registrationLookedUp): a run that looked once does not look again */
  lookedUp?: boolean;
}

/** JSON with sorted keys: two states are the same when their contents are. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export class Violation extends Error {
  constructor(invariant: string, detail: string) {
    super(`${invariant}: ${detail}`);
  }
}

class Entity {
  payment: Payment | null;
  readonly seen: BoundedIdSet;
  unconfirmed: SimEvent[];
  mismatches: number;
  subscribed: boolean;
  eventsFor: { told: string | null; readByIt?: string } | null;
  terminalSince: number | null;
  version = 0;
  forwardedVersion = -1;
  /** a run that knows no subscriber and no registration (state.ts, freshRun): started by a late event, or carried over from one */
  fresh = false;
  lookedUp: boolean;
  /** lookups this run made (state.ts, registrationLookups: not carried over) */
  lookups = 0;

  constructor(carry: EntityCarry) {
    this.payment = carry.payment;
    this.seen = new BoundedIdSet(carry.seenEventIds);
    this.unconfirmed = carry.unconfirmed;
    this.mismatches = carry.mismatches;
    this.subscribed = carry.subscribed;
    this.eventsFor = carry.eventsFor;
    this.terminalSince = carry.terminalSince;
    this.lookedUp = carry.lookedUp ?? false;
    this.fresh = !carry.subscribed && !carry.eventsFor && carry.payment !== null;
    if (carry.payment) this.forwardedVersion = this.version; // a carried-over run already told its subscribers
  }

  carry(): EntityCarry {
    const { payment, unconfirmed, mismatches, subscribed, eventsFor, terminalSince, lookedUp } = this;
    return JSON.parse(
      JSON.stringify({
        payment,
        seenEventIds: this.seen.toArray(),
        unconfirmed,
        mismatches,
        subscribed,
        eventsFor,
        terminalSince,
        lookedUp,
      }),
    ) as EntityCarry;
  }
}

export class World {
  readonly service = new ServiceModel();
  now = START_MS;
  entity: Entity | null;
  /** pushes in flight (webhooks): any may be delivered, again, in any order, or dropped */
  inFlight: SimEvent[] = [];
  /** pushes the delivery model must still deliver at least once (after-outcome moves, unless drops are allowed) */
  private readonly mustDeliver = new Set<string>();
  private readInFlight: { answer: Payment; judging: SimEvent[] } | null = null;
  private nextEventId = 0;
  /** every answer a read of ours returned: the only states anything may decide on */
  private readonly reads = new Set<string>();
  // the payment workflow
  paymentKnows: Payment | null;
  decided: { outcome: string; on: Payment } | null = null;
  cancelRefused = 0;
  // the backend: what it was told, in order (payment events, then payment.moved_after_outcome)
  readonly told: { kind: 'outcome' | 'moved'; key: string; on: Payment }[] = [];
  /** the payment's registration after it closed (activities/late-events-activities.ts): the last move its backend heard */
  private registration: { told: string } | null = null;
  /** lookups Temporal will not answer (the next ones); a history has fewer than MAX_REGISTRATION_LOOKUPS: the bound */
  private unansweredLookups = 0;
  private unansweredInAll = 0;
  readonly log: string[] = [];

  constructor(
    readonly options: {
      /** a push of a move after the outcome may be lost (else delivered at least once, at any delay) */
      dropsAfterOutcome: boolean;
      /** an entity read in flight answers what the service had when it started (else what it has when it lands) */
      staleInFlightReads: boolean;
      /**
       * a push (delayed, duplicated or forged) may reach the entity after it ended, while the service's record has not
       * moved after the outcome (else such a push is lost with the ended run)
       */
      stalePushesAfterLinger: boolean;
      /** the entity's rule before entity-confirms-every-push: only a pushed final status waits for a read */
      holdsOnlyFinalPushes?: boolean;
      /** the rule before entity-retries-registration-lookup: a fresh run's first lookup stands, answered or not */
      oneLookupStands?: boolean;
    },
  ) {
    // POST /payments answered (a read); the payment subscribes with it (lean runs: taken like a read) and asks for events
    const created = this.readService();
    this.paymentKnows = created;
    this.entity = new Entity({
      payment: null,
      seenEventIds: [],
      unconfirmed: [],
      mismatches: 0,
      subscribed: true,
      eventsFor: { told: moveKey(created) },
      terminalSince: null,
    });
    this.accept(created);
    this.entity.forwardedVersion = this.entity.version; // the subscriber sent it: no echo
  }

  // ---- the service and the network

  /** The service makes the `choice`-th move the spec allows now (none once nothing more can happen). */
  serviceMoves(choice: number, afterMs: number): void {
    const moves = this.service.legalMoves();
    if (moves.length === 0) return;
    const move: ServiceMove = moves[choice % moves.length];
    this.advance(afterMs);
    const after = isTerminalStatus(this.service.record);
    this.service.apply(move, this.now);
    const push = this.newEvent(this.service.record);
    this.inFlight.push(push);
    // a terminal entity reads no more (workflow.ts: it lingers on pushes): a move after a final status comes only by push
    if (!this.options.dropsAfterOutcome && after) this.mustDeliver.add(push.eventId);
    this.log.push(`service ${move} → ${moveKey(this.service.record)}`);
  }

  deliver(index: number, again: 'once' | 'sameId' | 'newId'): void {
    if (this.inFlight.length === 0) return;
    const i = index % this.inFlight.length;
    const push = this.inFlight[i];
    if (again === 'once') this.inFlight.splice(i, 1);
    this.mustDeliver.delete(push.eventId);
    const event = again === 'newId' ? { ...push, eventId: this.newEvent(push.payment).eventId } : push;
    this.log.push(`deliver ${push.eventId} (${moveKey(push.payment)}, ${again})`);
    this.signal(event);
  }

  drop(index: number): void {
    if (this.inFlight.length === 0) return;
    const i = index % this.inFlight.length;
    if (this.mustDeliver.has(this.inFlight[i].eventId)) return; // the delivery model promises these at least once
    this.log.push(`drop ${this.inFlight[i].eventId}`);
    this.inFlight.splice(i, 1);
  }

  /** A signed push with any content: whoever holds the webhook secret can send one. */
  forge(payment: Payment): void {
    const event = this.newEvent({ ...payment, id: this.service.id });
    this.log.push(
      `forge ${JSON.stringify({ status: payment.status, lifecycle: payment.lifecycle, error: payment.error, amount: payment.source?.amount })}`,
    );
    this.signal(event);
  }

  /**
   * Time passes: the Schedule's sweep runs at every tick (START_MS + k × SWEEP_EVERY_MS) in between. Only the first
   * tick of a gap is run: nothing moves in the gap, so a later tick's window holds no record the first one's did not,
   * and what the first told is a duplicate to the entity then (the same event id). An ended entity stays ended: its
   * linger is longer than the window.
   */
  private advance(ms: number): void {
    const end = this.now + ms;
    const tick = START_MS + (Math.floor((this.now - START_MS) / SWEEP_EVERY_MS) + 1) * SWEEP_EVERY_MS;
    if (tick <= end) {
      this.now = tick;
      this.sweep();
    }
    this.now = end;
  }

  passTime(ms: number): void {
    this.advance(ms);
    this.lookAgain();
    const e = this.entity;
    // workflow.ts: a terminal entity lingers, then ends (a held push is judged first; no read in flight then)
    if (
      e &&
      e.payment &&
      isTerminalStatus(e.payment) &&
      e.terminalSince !== null &&
      this.now >= e.terminalSince + ENTITY_LINGER_MS &&
      !this.readInFlight &&
      e.unconfirmed.length === 0 &&
      !this.lookingAgain()
    ) {
      this.forwardAndAnnounce();
      this.entity = null;
      this.log.push('entity ends after its linger');
    }
  }

  // ---- the entity

  private newEvent(payment: Payment): SimEvent {
    return { eventId: `evt-${this.nextEventId++}`, payment: clone(payment) };
  }

  private readService(): Payment {
    const answer = clone(this.service.record);
    this.reads.add(canonical(answer));
    return answer;
  }

  private wasRead(p: Payment): boolean {
    return this.reads.has(canonical(p));
  }

  /** signalWithStart: a fresh run when the entity has ended (a push weeks after the outcome). */
  private signal(event: SimEvent): void {
    if (!this.entity) {
      if (!this.options.stalePushesAfterLinger && !mayHaveMovedAfterOutcome(this.service.record)) return;
      this.entity = new Entity({
        payment: null,
        seenEventIds: [],
        unconfirmed: [],
        mismatches: 0,
        subscribed: false,
        eventsFor: null,
        terminalSince: null,
      });
      this.onEvent(event);
      // workflow.ts: a fresh run reads first, then looks for the closed payment's registration
      this.entity.fresh = true;
      this.readNow();
      this.forwardAndAnnounce(); // looks for the registration (once) when what it read may have moved after the outcome
      return;
    }
    this.onEvent(event);
    this.forwardAndAnnounce();
  }

  /** state.ts, onEvent and holdsForConfirmation (every patch on). */
  private onEvent(event: SimEvent): void {
    const e = this.entity!;
    if (!e.seen.add(event.eventId)) return;
    if (event.from === 'payment' && e.eventsFor) e.eventsFor.readByIt = moveKey(event.payment);
    const pushed = event.payment;
    // every patch on: a push that would change anything waits for a read; our own reads (even final: entity-takes-
    // final-reads) are taken. The old rule: only a final status waited, pushed or read.
    // knowledge.ts, readerOf: a read only from a known reader (state.ts: the sweep, a payment it knows)
    const known = (from: string) =>
      from === RECONCILE_SWEEP_READER || (from === 'payment' && (e.subscribed || e.eventsFor !== null));
    const held = this.options.holdsOnlyFinalPushes
      ? claimsFinalStatus(pushed)
      : sourceOf(event, known) === 'push';
    if (mustHoldForRead(e.payment, pushed) && held) {
      e.unconfirmed.push(event);
      return;
    }
    this.accept(pushed);
    // state.ts, toldBy: a subscriber that sent its own read is not sent it back (nor is its `told` moved); only the
    // subscriber's read (`from` names it): the sweep's is no subscriber's (and its type makes its cause `event`)
    if (event.from === 'payment' && e.subscribed && e.payment && !mergePayment(pushed, e.payment).changed)
      e.forwardedVersion = e.version;
  }

  /** state.ts, accept: the merge; every state the entity comes to hold must be one a read returned. */
  private accept(incoming: Payment): void {
    const e = this.entity!;
    const merged = mergePayment(e.payment, incoming);
    if (!merged.changed) return;
    if (!this.wasRead(merged.payment))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `the entity came to hold ${moveKey(merged.payment)} that no read returned: ${JSON.stringify(merged.payment.lifecycle)}`,
      );
    e.payment = merged.payment;
    e.version++;
    e.terminalSince = isTerminalStatus(merged.payment) ? this.now : null;
  }

  /** The confirming or periodic GET starts: it judges the pushes held now (state.ts, takeHeld). */
  startRead(): void {
    const e = this.entity;
    if (!e || this.readInFlight) return;
    this.readInFlight = {
      answer: this.options.staleInFlightReads ? this.readService() : (null as unknown as Payment),
      judging: e.unconfirmed,
    };
    e.unconfirmed = [];
  }

  /** The GET answers (state.ts, judge): the read is the truth; a held push it does not bear out is a mismatch. */
  landRead(): void {
    const e = this.entity;
    const inFlight = this.readInFlight;
    if (!e || !inFlight) return;
    this.readInFlight = null;
    if (!this.options.staleInFlightReads) inFlight.answer = this.readService();
    for (const held of inFlight.judging) {
      const borne = claimsFinalStatus(held.payment)
        ? confirms(inFlight.answer, held.payment)
        : bearsOut(inFlight.answer, held.payment);
      if (!borne) e.mismatches++;
    }
    this.accept(inFlight.answer);
    this.forwardAndAnnounce();
  }

  /**
   * One run of the reconcile sweep (activities/reconcile-activities.ts, onListed): it lists the record (a read) and tells
   * the entity what sweep-decision.ts decides — a running entity not final (by the status it indexed) a final status;
   * the entity of a payment still waiting for funds a status past AWAITING_FUNDS (its funding webhook lost);
   * any other (terminal, or ended: a fresh run) a record that moved after its outcome within the run's window — under
   * sweepEventId (one per status, with the timestamps once it moved after its outcome).
   */
  sweep(): void {
    const e = this.entity;
    const record = this.service.record;
    const entityNotFinal =
      e !== null && e.payment !== null && !FINAL_PAYMENT_STATUSES.includes(e.payment.status);
    // visibility: the payment workflow still waits for funds (its PaymentPhase; sweep-decision.ts, AWAITING_FUNDS_PHASES)
    const awaitsFunds = !this.decided && this.paymentKnows?.status === 'AWAITING_FUNDS';
    const tell = sweepTellOf(record, entityNotFinal, this.now - SWEEP_WINDOW_MS, awaitsFunds);
    if (tell === null) return;
    const listed = this.readService();
    this.log.push(`sweep tells ${tell} ${moveKey(listed)}`);
    this.signal({ eventId: sweepEventId(listed), payment: listed, from: RECONCILE_SWEEP_READER });
  }

  readNow(): void {
    this.startRead();
    this.landRead();
  }

  /** Continue-as-new, or a new worker taking over: only what was carried over survives. */
  crash(): void {
    if (!this.entity || this.readInFlight) return;
    this.forwardAndAnnounce(); // forwardUntilSettled before continueAsNew
    this.entity = new Entity(this.entity.carry());
    this.log.push('entity continues as new');
  }

  /**
   * Temporal does not answer the entity's next registration lookup (activities/late-events-activities.ts). Fewer than
   * MAX_REGISTRATION_LOOKUPS in a history: past that the run gives up, logged — the rule's bound, not a case it
   * covers. A payment still running answers "not yet", which takes no try (entity-waits-for-running-payment: the
   * time-skipping test registration-lookup-retry.test.ts), not modelled here.
   */
  lookupUnanswered(): void {
    if (this.unansweredInAll >= MAX_REGISTRATION_LOOKUPS - 1) return;
    this.unansweredInAll++;
    this.unansweredLookups++;
  }

  /** steps/forward.ts and steps/announce-late.ts. */
  private forwardAndAnnounce(): void {
    const e = this.entity;
    if (!e || !e.payment) return;
    if (e.subscribed && e.forwardedVersion !== e.version) {
      if (this.decided)
        e.subscribed = false; // the payment has closed: the signal fails, the subscriber is dropped
      else {
        this.paymentHears(e.payment);
        e.forwardedVersion = e.version;
        if (e.eventsFor) e.eventsFor.told = moveKey(e.payment);
      }
    }
    // announce-late.ts: a fresh run that began before the record moved looks for the registration once it has moved
    if (e.fresh && !e.lookedUp && !e.subscribed && !e.eventsFor && mayHaveMovedAfterOutcome(e.payment)) {
      e.lookups++;
      const answered = this.unansweredLookups === 0;
      if (!answered) this.unansweredLookups--;
      if (answered && this.registration) e.eventsFor = { told: this.registration.told };
      e.lookedUp = this.options.oneLookupStands || lookupStands(answered, e.lookups);
      if (!answered) this.log.push(`registration lookup unanswered (${e.lookups})`);
    }
    if (e.subscribed || !e.eventsFor) return;
    const key = moveKey(e.payment);
    if (!isUntoldMove(e.eventsFor.told, e.payment)) return;
    e.eventsFor.told = key;
    if (e.eventsFor.readByIt === key) return; // what the payment read itself it told its backend
    this.backendHears('moved', e.payment);
  }

  // ---- the payment workflow and its callers

  private paymentHears(p: Payment): void {
    if (this.decided) return;
    const merged = mergePayment(this.paymentKnows, p);
    if (merged.changed) this.paymentKnows = merged.payment;
    this.decide();
  }

  /**
   * The payment's own GET (its reads at deadlines), told to its entity (payment/steps/reconcile.ts, tellEntity: a
   * signal it awaits, so it is in the entity's history before the payment can close), then decided on.
   */
  paymentReads(): void {
    if (this.decided) return;
    const read = this.readService();
    if (this.entity) this.signal({ ...this.newEvent(read), from: 'payment' });
    this.paymentHears(read);
  }

  private decide(): void {
    const p = this.paymentKnows;
    const outcome = p ? outcomeOf(p) : null;
    if (!p || !outcome) return;
    if (!this.wasRead(p))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `the payment decided ${outcome.outcome} on a state no read returned`,
      );
    this.decided = { outcome: outcome.outcome, on: p };
    this.backendHears('outcome', p);
  }

  /** A caller's cancel: refused once funds are in (payment-rules.ts, isFunded) — only on what a read showed. */
  cancel(): void {
    if (this.decided || !this.paymentKnows) return;
    if (!isFunded(this.paymentKnows)) return;
    if (!this.wasRead(this.paymentKnows))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `a cancel was refused ("funds are in") on ${moveKey(this.paymentKnows)}, a state no read returned`,
      );
    this.cancelRefused++;
  }

  private backendHears(kind: 'outcome' | 'moved', p: Payment): void {
    const key = moveKey(p);
    this.log.push(`backend hears ${kind} ${key}`);
    const truthKeys = this.service.history.map(moveKey);
    if (!this.wasRead(p))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `the backend was told ${kind} ${key} on a state no read returned`,
      );
    if (this.told.some((t) => t.key === key))
      throw new Violation(
        'TOLD EXACTLY ONCE',
        `the backend was told ${key} twice: ${this.told.map((t) => `${t.kind} ${t.key}`).join(', ')} then ${kind} ${key}`,
      );
    const last = this.told[this.told.length - 1];
    if (last && truthKeys.indexOf(key) < truthKeys.indexOf(last.key))
      throw new Violation(
        'TOLD IN ORDER',
        `the backend was told ${key} after ${last.key}; the service went ${truthKeys.join(' → ')}`,
      );
    this.told.push({ kind, key, on: p });
    // activities/late-events-activities.ts: a fresh run finds the last move handed over, else the outcome
    this.registration = { told: key };
  }

  // ---- the end of a history

  /**
   * The bound of invariant 5, as the model runs it: pushes the delivery model promised are delivered, a held push is
   * judged by the entity's read (at once), then the Schedule's next sweep runs (at most 15 minutes away). No periodic
   * read of the payment or the entity: they read at the payment's deadlines only, and the sweep is the read that
   * finds a lost final webhook (it tells a running entity not final the final status; the entity tells the payment)
   * or a move after the outcome whose push was lost (workflows/provider-payment/quiet-reads.ts,
   * workflows/payment/steps/follow.ts).
   */
  settle(): void {
    this.landRead();
    for (const push of [...this.inFlight])
      if (this.mustDeliver.has(push.eventId)) this.deliver(this.inFlight.indexOf(push), 'once');
    if (this.entity && this.entity.unconfirmed.length > 0) this.readNow();
    // the Schedule's next sweep (at most SWEEP_EVERY_MS away)
    this.advance(SWEEP_EVERY_MS);
    this.lookAgain();
  }

  /** workflow.ts: a fresh run's own timer asks an unanswered lookup again, at most MAX_REGISTRATION_LOOKUPS in a run. */
  private lookAgain(): void {
    for (let i = 0; i < MAX_REGISTRATION_LOOKUPS && this.lookingAgain(); i++) this.forwardAndAnnounce();
  }

  /** state.ts, lookupPending */
  private lookingAgain(): boolean {
    const e = this.entity;
    if (!e || !e.payment || !e.fresh || e.lookedUp || e.lookups === 0) return false;
    return !e.subscribed && !e.eventsFor && mayHaveMovedAfterOutcome(e.payment);
  }

  /** Invariants at the end: the outcome matches the service's record; every move after it was told; flagged or ended. */
  checkSettled(): void {
    const truth = this.service.record;
    if (this.entity && this.entity.unconfirmed.length > 0)
      throw new Violation(
        'ENDS OR IS FLAGGED WITHIN THE BOUND',
        `${this.entity.unconfirmed.length} push(es) still held, never judged by a read`,
      );
    const truthOutcome = outcomeOf(truth);
    if (truthOutcome && !this.decided)
      throw new Violation(
        'ENDS WITHIN THE BOUND',
        `the service says ${moveKey(truth)} and the payment has not decided`,
      );
    if (!this.decided) return;
    const truthKeys = this.service.history.map(moveKey);
    if (!truthKeys.includes(moveKey(this.decided.on)))
      throw new Violation(
        'OUTCOME MATCHES THE SERVICE',
        `decided on ${moveKey(this.decided.on)}; the service went ${truthKeys.join(' → ')}`,
      );
    const last = this.told[this.told.length - 1];
    if (!last || last.key !== moveKey(truth))
      throw new Violation(
        'EVERY MOVE AFTER THE OUTCOME TOLD',
        `the backend last heard ${last?.key}; the service says ${moveKey(truth)} (went ${truthKeys.join(' → ')})`,
      );
  }
}
