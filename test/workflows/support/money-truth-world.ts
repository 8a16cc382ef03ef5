// One payment driven through the REAL payment and providerPayment workflows on the time-skipping server, by the
// simulation's commands (test/workflows/money-truth.sim.test.ts). The service's true record is the pure
// simulation's ServiceModel (test/unit/simulation/service-model.ts), seeded with the payment the fake's POST made:
// every GET answers the model's record now, and every change of the record is a webhook in flight, which the
// commands deliver (as the ingress does: signalWithStart), again, in any order, late, or drop. The backend is the
// shared worker's recording receiver. Invariants carry the pure simulation's names (test/unit/simulation/world.ts).
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { addBusinessDays, type Payment, type XborderEvent } from '../../../src/contract';
import { startPayment, type StartPaymentInput } from '../../../src/client/payments';
import { cancelUpdate, type PaymentState, paymentStateQuery } from '../../../workflows/payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { isTerminalStatus } from '../../../workflows/payment-merge';
import { isFunded, outcomeOf } from '../../../workflows/payment-rules';
import { moveKey } from '../../../workflows/provider-payment/knowledge';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
  RECONCILE_SWEEP_READER,
  signalWithStartProviderPayment,
} from '../../../workflows/provider-payment/api';
import {
  AWAITING_FUNDS_PHASES,
  sweepEventId,
  sweepTellOf,
} from '../../../workflows/provider-payment/sweep-decision';
import { FINAL_PAYMENT_STATUSES } from '../../../workflows/search-attributes';
import { ServiceModel, type ServiceMove } from '../../unit/simulation/service-model';
import { canonical, Violation } from '../../unit/simulation/world';
import { uniqueWorkflowId } from '../../support/temporal';
import { wrapActivities, type FakeProvider } from './fake-provider';
import { deliverPaymentEvent } from './harness';
import { backendEventsOf, checkTold, lastToldKey } from './money-truth-told';
import { replaysOnANewWorker } from './replay-check';
import { paymentRequest } from './payment-request';
import type { TestBed } from './test-bed';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Time given to the workflows after each command: their tasks and activities run before the next one. */
const QUIET_MS = 1_000;
/** src/client/reconcile-schedule.ts: the Schedule runs the reconcile sweep every 15 minutes by default */
const SWEEP_EVERY_MS = 15 * MIN;
/** workflows/reconcile-payments/workflow.ts: each sweep run's window */
const SWEEP_WINDOW_MS = 6 * HOUR;
/**
 * The bound of "ends or is flagged": once every promised push is delivered, the payment has decided (or is flagged
 * NEEDS_ATTENTION) within the reconcile Schedule's next sweep (SWEEP_EVERY_MS: it tells a running entity not final the
 * final status its lost webhook carried, and the entity tells the payment) plus an hour for retries and hand-over;
 * every push the entity holds is judged by then (its read follows at once). It was the payment's own read every 6
 * hours plus that hour: neither the payment nor the entity reads periodically any more, the sweep is that read
 * (workflows/payment/steps/follow.ts, workflows/provider-payment/quiet-reads.ts).
 */
export const SETTLE_BOUND_MS = SWEEP_EVERY_MS + HOUR;
export interface Push {
  eventId: string;
  payment: Payment;
}

/** A forged push's content, the true record's id and the rest replaced (any status, timestamps, code, amount). */
export interface Forgery {
  status: string;
  /** lifecycle stamps, in days from the payment's creation (null: cleared) */
  days: Partial<Record<'sentAt' | 'completedAt' | 'expiredAt' | 'refundedAt', number | null>>;
  code: string | null;
  amount: number;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export class TsWorld {
  model: ServiceModel | null = null;
  readonly log: string[] = [];
  /** webhooks in flight: any may be delivered, again, in any order, or dropped */
  readonly inFlight: Push[] = [];
  /** pushes the delivery model must deliver at least once (see serviceMoves) */
  private readonly mustDeliver = new Set<string>();
  /** every answer a read of ours (POST, GET) returned: the only states anything may decide on or tell */
  private readonly reads = new Set<string>();
  private readonly readKeys = new Set<string>();
  private fundedRead = false;
  private seq = 0;
  private createdAtMs = 0;
  readonly paymentKey = uniqueWorkflowId('sim');
  handle: WorkflowHandle | null = null;
  providerPaymentId: string | null = null;
  /** an update the payment's validator refused (see replaysOnANewWorker) */
  private refusedByValidator = false;
  /** the next provider calls whose answers are lost (the worker died after the call) */
  private answersToLose = 0;
  cancelAccepted = false;
  cancelRefused = 0;
  retries = 0;

  /** `createAnswersLost`: the first POSTs take effect and their answers are lost (retried with the same key). */
  constructor(
    private readonly bed: TestBed,
    private createAnswersLost = 0,
  ) {}

  private get input(): StartPaymentInput {
    // production defaults (no periodic read: the sweep's) but a 1-minute linger after EXPIRED, as every workflow test
    return {
      paymentKey: this.paymentKey,
      request: paymentRequest(),
      events: {},
      options: { expiredLingerMs: MIN },
    };
  }

  private now(): Promise<number> {
    return this.bed.env.currentTimeMs();
  }

  private read(p: Payment): Payment {
    const answer = clone(p);
    this.reads.add(canonical(answer));
    this.readKeys.add(moveKey(answer));
    if (isFunded(answer)) this.fundedRead = true;
    return answer;
  }

  private wasRead(p: Payment): boolean {
    return this.reads.has(canonical(p));
  }

  /** spec: States and transitions, row 1: the service expires an unfunded payment 3 business days after creation. */
  private expireIfDue(nowMs: number): void {
    const m = this.model;
    if (!m || m.record.status !== 'AWAITING_FUNDS') return;
    const deadline = addBusinessDays(new Date(this.createdAtMs), 3).getTime();
    if (nowMs < deadline) return;
    this.change('expire', deadline);
  }

  private change(move: ServiceMove, atMs: number): void {
    const m = this.model!;
    const wasTerminal = isTerminalStatus(m.record);
    if (!m.apply(move, atMs)) return;
    const push = { eventId: `sim_${this.paymentKey}_${this.seq++}`, payment: clone(m.record) };
    this.inFlight.push(push);
    // A move after a final status comes to a terminal entity only by push (it reads no more). Such a push is
    // delivered at least once: a lost one, with no other read, is the open case the pure simulation keeps skipped
    // ("a refund after the outcome whose webhook is lost is never told"), left out here until it is fixed.
    if (wasTerminal) this.mustDeliver.add(push.eventId);
    this.log.push(`service ${move} → ${moveKey(m.record)}`);
  }

  /** The fake provider answers from the model: the POST seeds it, every GET answers its record now. */
  async start(): Promise<void> {
    await this.toMondayMorning();
    const fake: FakeProvider = this.bed.newFake();
    wrapActivities(fake, (inner) => ({
      createPayment: async (request, key) => {
        const p = await inner.createPayment(request, key);
        if (!this.model) {
          this.model = new ServiceModel(p.id, clone(p));
          this.createdAtMs = Date.parse(p.lifecycle.createdAt!);
        }
        if (this.createAnswersLost > 0) {
          this.createAnswersLost--;
          this.log.push('POST /payments took effect; the worker died before its answer was recorded');
          throw new Error('the worker died before the answer was recorded');
        }
        // a repeated POST with the same key answers the payment as the service has it now
        return this.read(this.model.id === p.id ? this.model.record : p);
      },
      getPayment: async (id) => {
        await inner.getPayment(id); // recorded, and NOT_FOUND for an id the fake never made
        this.expireIfDue(await this.now());
        if (this.answersToLose > 0) {
          this.answersToLose--;
          this.log.push('a GET answered; the worker died before its answer was recorded');
          throw new Error('the worker died before the answer was recorded');
        }
        return this.read(this.model!.record);
      },
    }));
    // a lost POST answer is retried after the activity's backoff (1 s, 2 s: it passes in real time, the update of
    // startPayment holding the time-skipping server's clock)
    const started = await startPayment(this.bed.env.client, this.input, { taskQueue: this.bed.taskQueue });
    if (started.created.outcome !== 'CREATED')
      throw new Error(`not created: ${JSON.stringify(started.created)}`);
    this.providerPaymentId = started.created.providerPaymentId;
    this.handle = this.bed.env.client.workflow.getHandle(started.workflowId);
    for (const id of [
      started.workflowId,
      paymentEventsWorkflowId(this.paymentKey),
      providerPaymentWorkflowId(this.providerPaymentId),
    ])
      this.bed.worker.started.add(id);
    // what visibility answers on a real server (findLateEventsRegistration), for a fresh entity run after the linger
    this.bed.worker.paymentWorkflowOf.set(this.providerPaymentId, started.workflowId);
    this.log.push(`started ${this.providerPaymentId}`);
    await this.quiet();
  }

  /**
   * Every history starts on a Monday 09:00 UTC of the server's clock, so a seed replays the same funding deadline
   * on any weekday the test runs (3 business days: row 1). Nothing runs then: the last history was cleaned up.
   */
  private async toMondayMorning(): Promise<void> {
    const now = await this.now();
    const d = new Date(now);
    const days = (8 - d.getUTCDay()) % 7 || 7;
    await this.bed.env.sleep(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days, 9) - now);
  }

  private quiet(): Promise<void> {
    return this.bed.env.sleep(QUIET_MS);
  }

  // ---- commands

  async serviceMoves(choice: number, afterMs: number): Promise<void> {
    if (afterMs > 0) await this.bed.env.sleep(afterMs);
    const now = await this.now();
    this.expireIfDue(now);
    // expiry is the clock's (expireIfDue), never a choice: the spec expires a payment at its deadline only
    const moves = this.model!.legalMoves().filter((m) => m !== 'expire');
    if (moves.length > 0) this.change(moves[choice % moves.length], now);
    await this.quiet();
  }

  async deliver(index: number, again: 'once' | 'sameId' | 'newId'): Promise<void> {
    if (this.inFlight.length === 0) return;
    const i = index % this.inFlight.length;
    const push = this.inFlight[i];
    if (again === 'once') this.inFlight.splice(i, 1);
    this.mustDeliver.delete(push.eventId);
    const eventId = again === 'newId' ? `${push.eventId}_again${this.seq++}` : push.eventId;
    this.log.push(`deliver ${push.eventId} (${moveKey(push.payment)}, ${again})`);
    await deliverPaymentEvent(this.bed.env, this.bed.taskQueue, push.payment, eventId);
    await this.quiet();
  }

  drop(index: number): void {
    if (this.inFlight.length === 0) return;
    const i = index % this.inFlight.length;
    if (this.mustDeliver.has(this.inFlight[i].eventId)) return; // promised at least once (see change)
    this.log.push(`drop ${this.inFlight[i].eventId}`);
    this.inFlight.splice(i, 1);
  }

  /** A signed push with any content: whoever holds the webhook secret can send one. */
  async forge(f: Forgery): Promise<void> {
    const truth = this.model!.record;
    const lifecycle = { ...truth.lifecycle };
    for (const [k, d] of Object.entries(f.days))
      lifecycle[k as keyof typeof lifecycle] =
        d === null ? null : new Date(this.createdAtMs + d * 24 * HOUR).toISOString();
    const forged = {
      ...truth,
      status: f.status,
      lifecycle,
      error: f.code ? { code: f.code, message: 'forged' } : null,
      source: { ...truth.source, amount: f.amount },
    } as Payment;
    this.log.push(`forge ${JSON.stringify(f)}`);
    await deliverPaymentEvent(
      this.bed.env,
      this.bed.taskQueue,
      forged,
      `forged_${this.paymentKey}_${this.seq++}`,
    );
    await this.quiet();
  }

  async passTime(ms: number): Promise<void> {
    await this.bed.env.sleep(ms);
    this.expireIfDue(await this.now());
    await this.quiet();
  }

  /** A caller's cancel: accepted only before funds (refused only on funds a read showed). */
  async cancel(): Promise<void> {
    try {
      await this.handle!.executeUpdate(cancelUpdate, { args: [{ reason: 'simulation' }] });
      this.cancelAccepted = true;
      this.log.push('cancel accepted');
    } catch (err) {
      if (!(err instanceof WorkflowUpdateFailedError)) {
        this.log.push(`cancel not delivered: ${(err as Error).name}`); // the payment has closed
        return;
      }
      const type = (err.cause as { type?: string } | undefined)?.type;
      if (type !== 'CANCEL_REFUSED') throw err;
      this.cancelRefused++;
      // every refusal but one decided by the handler after funds arrived (its update is in the history) is the validator's
      if (
        !/funds arrived before the cancel was applied/.test((err.cause as Error | undefined)?.message ?? '')
      )
        this.refusedByValidator = true;
      const why = (err.cause as Error | undefined)?.message ?? '';
      this.log.push(`cancel refused: ${why}`);
      // other refusals (already cancelled, ended, expired: workflows/payment/state.ts, validateCancel) claim no funds
      if (/funds (are in|arrived)/.test(why) && !this.fundedRead)
        throw new Violation(
          'NOTHING FROM A PUSH ALONE',
          'a cancel was refused ("funds are in") while no read showed funds',
        );
    }
    await this.quiet();
  }

  /** The caller asks again with the same key (startPayment after no answer): the same provider payment, never a second. */
  async retryStart(): Promise<void> {
    const again = await startPayment(this.bed.env.client, this.input, { taskQueue: this.bed.taskQueue });
    this.retries++;
    this.log.push(`same-key start: ${again.created.outcome}`);
    if (again.created.outcome === 'CREATED' && again.created.providerPaymentId !== this.providerPaymentId)
      throw new Violation(
        'ONE PROVIDER PAYMENT PER KEY',
        `a retry with the same key answered ${again.created.providerPaymentId}, the first ${this.providerPaymentId}`,
      );
    this.checkOnePaymentPerKey();
    await this.quiet();
  }

  /**
   * A worker dies after its next call to the service: the call took effect (a GET read, nothing more), its answer
   * is lost, and the activity is retried (a crash's money-relevant half; the other, a new worker replaying the
   * histories with no cache, is checked in `settle`).
   */
  loseNextAnswer(): void {
    this.answersToLose++;
    this.log.push('the worker will die after its next provider call');
  }

  // ---- invariants

  private checkOnePaymentPerKey(): void {
    const keys = new Set(this.bed.fake.callsOf('createPayment').map((c) => c.args[1]));
    if (this.bed.fake.payments.size !== 1 || keys.size !== 1)
      throw new Violation(
        'ONE PROVIDER PAYMENT PER KEY',
        `${this.bed.fake.payments.size} provider payments under ${keys.size} idempotency keys`,
      );
  }

  private async entitySnapshot() {
    const handle = this.bed.env.client.workflow.getHandle(providerPaymentWorkflowId(this.providerPaymentId!));
    const { status } = await handle.describe();
    return status.name === 'RUNNING' ? handle.query(providerPaymentSnapshotQuery) : null;
  }

  private backendEvents(): XborderEvent[] {
    return backendEventsOf(this.bed.worker.deliveredEvents, this.paymentKey);
  }

  /** Checked after every command: what the entity holds, the outcome and what the backend was told. */
  async checkStep(): Promise<PaymentState> {
    this.checkOnePaymentPerKey();
    const snap = await this.entitySnapshot();
    if (snap?.payment && !this.wasRead(snap.payment))
      throw new Violation(
        'NOTHING FROM A PUSH ALONE',
        `the entity came to hold ${moveKey(snap.payment)} that no read returned: ${JSON.stringify(snap.payment.lifecycle)}`,
      );
    const state = await this.handle!.query(paymentStateQuery);
    const o = state.outcome;
    if (o && o.payment) {
      if (!this.wasRead(o.payment))
        throw new Violation(
          'NOTHING FROM A PUSH ALONE',
          `the payment decided ${o.outcome} on a state no read returned`,
        );
      const truthKeys = this.model!.history.map(moveKey);
      if (!truthKeys.includes(moveKey(o.payment)))
        throw new Violation(
          'OUTCOME MATCHES THE SERVICE',
          `decided on ${moveKey(o.payment)}; the service went ${truthKeys.join(' → ')}`,
        );
      const implied = outcomeOf(o.payment)?.outcome;
      if (o.outcome !== implied && !(o.outcome === 'CANCELLED' && this.cancelAccepted))
        throw new Violation(
          'OUTCOME MATCHES THE SERVICE',
          `decided ${o.outcome} on a record that implies ${implied}`,
        );
    }
    this.checkTold();
    return state;
  }

  private checkTold(): void {
    checkTold(this.backendEvents(), this.model!.history.map(moveKey), this.readKeys);
  }

  /**
   * The end of a history: every promised push is delivered, then the bound passes (SETTLE_BOUND_MS). Then the
   * payment has decided if the service's record has an outcome (or it is flagged NEEDS_ATTENTION), no push is held
   * unjudged, and the backend last heard the service's final record.
   */
  async settle(): Promise<{ state: PaymentState }> {
    for (const push of [...this.inFlight])
      if (this.mustDeliver.has(push.eventId)) await this.deliver(this.inFlight.indexOf(push), 'once');
    // the Schedule's ticks within the bound, each a run of the sweep
    for (let waited = 0; waited < SETTLE_BOUND_MS; waited += SWEEP_EVERY_MS) {
      await this.bed.env.sleep(SWEEP_EVERY_MS);
      await this.sweep();
    }
    const state = await this.checkStep();
    await this.replaysOnANewWorker();
    const snap = await this.entitySnapshot();
    if ((snap?.unconfirmed?.length ?? 0) > 0)
      throw new Violation(
        'ENDS OR IS FLAGGED WITHIN THE BOUND',
        `${snap!.unconfirmed!.length} push(es) still held, never judged by a read`,
      );
    const truth = this.model!.record;
    if (!outcomeOf(truth)) return { state };
    if (!state.outcome) {
      if (state.phase === 'NEEDS_ATTENTION') return { state }; // flagged to an operator
      throw new Violation(
        'ENDS WITHIN THE BOUND',
        `the service says ${moveKey(truth)} and the payment has not decided (phase ${state.phase})`,
      );
    }
    if (state.outcome.outcome === 'CANCELLED' && !state.outcome.payment) return { state };
    const last = lastToldKey(this.backendEvents());
    if (last !== moveKey(truth))
      throw new Violation(
        'EVERY MOVE AFTER THE OUTCOME TOLD',
        `the backend last heard ${last ?? 'nothing'}; the service says ${moveKey(truth)} (went ${this.model!.history.map(moveKey).join(' → ')})`,
      );
    return { state };
  }

  /**
   * One run of the reconcile sweep (activities/reconcile-activities.ts, onListed) over this payment: it lists the
   * record (a read) and tells the entity what sweep-decision.ts decides. Visibility is read from the workflows as a
   * real server indexes them: the entity running without a final status, the payment running in a waiting phase.
   */
  private async sweep(): Promise<void> {
    this.expireIfDue(await this.now());
    const snap = await this.entitySnapshot(); // null: not running
    const entityNotFinal = snap !== null && !FINAL_PAYMENT_STATUSES.includes(snap.payment?.status ?? '');
    const payment = await this.handle!.describe();
    const awaitsFunds =
      payment.status.name === 'RUNNING' &&
      AWAITING_FUNDS_PHASES.includes((await this.handle!.query(paymentStateQuery)).phase);
    const listed = this.read(this.model!.record);
    const now = await this.now();
    const tell = sweepTellOf(listed, entityNotFinal, now - SWEEP_WINDOW_MS, awaitsFunds);
    if (tell === null) return;
    this.log.push(`sweep tells ${tell} ${moveKey(listed)}`);
    await signalWithStartProviderPayment(this.bed.env.client, {
      taskQueue: this.bed.taskQueue,
      input: { providerPaymentId: listed.id },
      event: {
        eventId: sweepEventId(listed),
        type: 'payment.reconciled',
        payment: listed,
        from: RECONCILE_SWEEP_READER,
      },
    });
    await this.quiet();
  }

  /** Every workflow the history started replays on a new worker (replay-check.ts), as after a crash. */
  private async replaysOnANewWorker(): Promise<void> {
    // The time-skipping server writes the workflow task of an update its validator refused into the history (a real
    // server drops that speculative task: nothing is written). The SDK replays such an empty task, when it follows
    // another empty one, as part of it, so the workflow sees a later clock than it saw live (by the time between
    // them): the payment's "nothing heard for 6 h" read, due to the millisecond, is then a timer on replay. Not a
    // history a real server writes: the payment's replay is not checked after such a refusal (the others are).
    const payment = this.handle!.workflowId;
    const ids = [...this.bed.worker.started].filter((id) => !(this.refusedByValidator && id === payment));
    if (this.refusedByValidator)
      this.log.push('payment history not replayed: an update refused by its validator');
    await replaysOnANewWorker(this.bed.env.client, ids);
  }

  /** Terminates what the history started, so the next history's time skipping is not held by its timers. */
  async cleanup(): Promise<void> {
    await this.bed.worker.cleanup();
  }
}
