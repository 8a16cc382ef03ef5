// Reconciliation of payments whose webhooks were lost. Webhook delivery and retries are not shown (spec: Events 5),
// so neither path relies on the sender retrying for long enough.
// - A PAYIN (or its automatic conversion, spec: Payment rule 2) is only known from its webhook. If Temporal was down
//   for longer than the sender retried, that webhook is gone; this activity lists recent payments (GET /payments)
//   and signalWithStarts the entity of each one, as the ingress would have.
// - A payment we follow (a payout, a pull: its providerPayment entity runs) whose final status never reached its
//   entity (a burst the ingress shed and the sender gave up on: docs/performance.md, "10,000 payments on PostgreSQL")
//   would wait for the entity's daily read. Its entity is told only when the listing shows a final status that the
//   entity's indexed PaymentStatus lacks (one visibility list per run, not a signal per listed payment: signals are
//   billed actions, docs/performance.md "Actions per payment").
// - A payment whose funding webhook was lost (the service says PENDING or later while the payment workflow still
//   waits for funds): neither the payment nor its entity reads periodically any more (they read at the payment's
//   deadlines: workflows/provider-payment/quiet-reads.ts, workflows/payment/steps/follow.ts), so the sweep is that
//   read. The payment workflows in a waiting phase are listed from visibility (their PaymentPhase and
//   ProviderPaymentId), and the entity of each whose listed status is past AWAITING_FUNDS is told it: a signal only
//   when the two differ. Bound: a lost funding or final webhook is told within one Schedule interval (15 minutes)
//   plus the run's listing.
// - A move of the money after the outcome (a refund, a return, late funds refunded on an EXPIRED payment, which keeps
//   its status and adds refundedAt: spec, States and transitions, row 4) whose webhook is lost: the entity lingers
//   terminal and no longer reads, or has ended. A listed payment whose record moved after its outcome within the run's
//   window, and whose entity is not running not final, is handed to its entity with an event id carrying the record's
//   timestamps (workflows/provider-payment/sweep-decision.ts); the entity, or the fresh run the signal starts, knows
//   what its backend was told and announces an untold move once. No per-payment query: at most one signal per listed
//   payment per run, and only for records that moved since MOVED_OVERLAP_MS (15 minutes) before the start of the last
//   completed sweep (one visibility read per run, made only when a listed record moved in the window), never before
//   the window. Bound: with the Schedule every 15 minutes and a 6-hour window, a lost after-outcome webhook is told by
//   the first COMPLETED run that lists the payment after the move (within one interval plus the run's listing, or the
//   next run's if that one fails), and is told again by at most one more run while runs complete every 15 minutes (it
//   was every run of the 6 hours: up to 24 billed signals, dropped as duplicates by the entity).
// The listing goes page by page, each GET a call of the key's rate budget (src/provider/rate-budget.ts), and records
// its place in the activity's heartbeat after every page: a retry of the activity goes on from the last recorded page,
// never from the first, and a 429 in the middle is waited out (Retry-After plus jitter, heartbeating) and the same
// page asked again.
// The entity drops a duplicate event id, holds a pushed final status until its own GET confirms it
// (workflows/provider-payment/push-confirmation.ts) and never moves anything backwards (payment-merge.ts). The listing
// is a read of ours (RECONCILE_SWEEP_READER): a fresh run the sweep's tell starts takes it as its first read, no GET of
// what was just listed (ENTITY_PATCHES.takesSweepReadFirst); a fresh run a webhook starts reads the payment first.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/contract';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
  RECONCILE_SWEEP_READER,
  signalWithStartProviderPayment,
} from '../workflows/provider-payment/api';
import {
  FINAL_PAYMENT_STATUSES,
  PaymentStatusKey,
  ProviderPaymentIdKey,
} from '../workflows/search-attributes';
import {
  AWAITING_FUNDS_PHASES,
  sweepEventId,
  sweepTellOf,
} from '../workflows/provider-payment/sweep-decision';
import { PAYMENT_WORKFLOW_TYPE } from '../workflows/payment/api';
import type { ProviderPort } from './provider-port';
import { callProvider, isProviderError } from './errors';
import { jitteredRetryAfter } from '../src/provider/rate-budget';
import { lastCompletedRunOfSchedule, scheduleOfRun } from './last-completed-sweep';
import { warnInActivity } from './activity-log';

export interface ReconcileRecentPaymentsInput {
  /** PAYINs and conversions created at or after this instant (ISO 8601) are signalled */
  since: string;
  /** stop after this many payments listed (the list's order is not shown: a bound, not a filter) */
  maxListed?: number;
  /** stop after this many running entities read from visibility (the followed-payment path) */
  maxEntities?: number;
}

export interface ReconcileRecentPaymentsResult {
  listed: number;
  /** PAYINs and conversions signalled (every one in the window, each run) */
  signalled: string[];
  /** running providerPayment entities without a final PaymentStatus, as visibility listed them (absent in older results) */
  entitiesNotFinal?: number;
  /**
   * entities told a final status the listing showed, or a funding their waiting payment lacks (sweep-decision.ts,
   * 'final' and 'funded'): what the sweep healed (absent in older results)
   */
  followedSignalled?: number;
  /**
   * payments whose record moved after their outcome within the window, handed to an entity that no longer reads
   * (running terminal, or ended): workflows/provider-payment/sweep-decision.ts (absent in older results)
   */
  movedSignalled?: number;
  /**
   * true when the run stopped at one of its bounds (maxListed payments listed, maxEntities entities read) before the
   * end: what lies past it was not seen (the reconcilePayments workflow then fails, named, so the run never counts as
   * a complete one: movedSinceMs). Absent in older results.
   */
  listingCut?: boolean;
}

export interface ReconcileActivities {
  reconcileRecentPayments(input: ReconcileRecentPaymentsInput): Promise<ReconcileRecentPaymentsResult>;
}

/**
 * Defaults. A run lists at most DEFAULT_MAX_LISTED payments, LIST_PAGE_SIZE a page (the contract's largest page,
 * docs/spec-gaps.md "Paging"): 200 GETs for 20,000, enough for 10,000 payments in the 6-hour window with room for
 * their PAYINs and conversions. Visibility is read ENTITY_PAGE_SIZE entities a page, at most DEFAULT_MAX_ENTITIES.
 */
export const DEFAULT_MAX_LISTED = 20_000;
export const LIST_PAGE_SIZE = 100;
export const DEFAULT_MAX_ENTITIES = 20_000;
export const ENTITY_PAGE_SIZE = 1_000;

/** A PAYIN, or the conversion of funds that arrived at a virtual account: followed only through webhooks. */
export function isFollowedOnlyByWebhooks(p: Payment): boolean {
  if (p.type === 'PAYIN') return true;
  return (p.type === 'PAYOUT' || p.type === 'INTERNAL') && Boolean(p.source?.accountId);
}

/**
 * The running entities on this task queue that have not taken a final status (by their indexed PaymentStatus; an
 * entity that has not indexed one yet is listed too). Visibility lags: one that took its final status a moment ago
 * may still be listed (a duplicate the entity drops), and one started a moment ago is missed (the next run sees it).
 */
export function entitiesNotFinalQuery(taskQueue: string): string {
  const finals = FINAL_PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ');
  return (
    `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND TaskQueue = '${taskQueue}' ` +
    `AND (PaymentStatus IS NULL OR PaymentStatus NOT IN (${finals}))`
  );
}

/**
 * The running payment workflows on this task queue still waiting for funds (AWAITING_FUNDS_PHASES). Visibility lags:
 * one funded a moment ago may still be listed (its entity is told a status it has: one signal, absorbed as a read
 * that changes nothing). Only this task queue's, as for the entities: another deployment sharing the namespace has
 * its own sweep, and a tell from this one would start the other's entity on this task queue.
 */
export function paymentsAwaitingFundsQuery(taskQueue: string): string {
  const phases = AWAITING_FUNDS_PHASES.map((s) => `'${s}'`).join(', ');
  return (
    `WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND TaskQueue = '${taskQueue}' ` +
    `AND PaymentPhase IN (${phases})`
  );
}

/** The entity ids of the provider payments that payment workflows still wait to see funded. */
async function listEntitiesAwaitingFunds(
  client: Pick<Client, 'workflow'>,
  taskQueue: string,
  maxEntities: number,
  heartbeat: () => void,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let read = 0;
  for await (const wf of client.workflow.list({
    query: paymentsAwaitingFundsQuery(taskQueue),
    pageSize: ENTITY_PAGE_SIZE,
  })) {
    if (++read > maxEntities) break;
    const id = wf.typedSearchAttributes?.get(ProviderPaymentIdKey);
    if (id) ids.add(providerPaymentWorkflowId(id));
    if (read % ENTITY_PAGE_SIZE === 0) heartbeat();
  }
  return ids;
}

async function listEntitiesNotFinal(
  client: Pick<Client, 'workflow'>,
  taskQueue: string,
  maxEntities: number,
  heartbeat: () => void,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let read = 0;
  for await (const wf of client.workflow.list({
    query: entitiesNotFinalQuery(taskQueue),
    pageSize: ENTITY_PAGE_SIZE,
  })) {
    if (++read > maxEntities) break;
    // checked here too: the query says so, and a server (or a fake) that ignored part of it must not cost signals
    const indexed = wf.typedSearchAttributes?.get(PaymentStatusKey);
    if (indexed === undefined || !FINAL_PAYMENT_STATUSES.includes(indexed)) ids.add(wf.workflowId);
    if (read % ENTITY_PAGE_SIZE === 0) heartbeat();
  }
  return ids;
}

/** Where a run of the listing is: the heartbeat details a retry of the activity goes on from. */
export interface ReconcileProgress {
  /** the run's window (a retry of another run's input never resumes this place) */
  since: string;
  /** the cursor of the next page to read (null: the first) */
  cursor: string | null;
  /** the last page was read */
  finished: boolean;
  listed: number;
  signalled: string[];
  followedSignalled: number;
  /** absent in the heartbeats of attempts made before moves after the outcome were told (then resumed from 0) */
  movedSignalled?: number;
}

/** A 429 (or our own budget, full) in the middle of the listing is waited out this many times per page, then the activity fails (and is retried from its heartbeat). */
export const PAGE_RATE_LIMIT_WAITS = 20;
/** Longest single wait between heartbeats: well inside the workflow's heartbeat timeout (1 minute). */
const MAX_SLEEP_MS = 20_000;

function isProgress(value: unknown, since: string): value is ReconcileProgress {
  const v = value as Partial<ReconcileProgress> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.since === since &&
    (typeof v.cursor === 'string' || v.cursor === null) &&
    typeof v.finished === 'boolean' &&
    typeof v.listed === 'number' &&
    Array.isArray(v.signalled) &&
    typeof v.followedSignalled === 'number'
  );
}

type Listed = { payment: Payment } | { pageEnd: string | null };

/**
 * The listing from `cursor`, item by item, with a mark at the end of every page (only when the port reads pages: a
 * port with listAll alone streams every item without marks and is not resumable). Each page GET waits out a rate
 * limit in place instead of failing the activity.
 */
async function* listFrom(
  payments: Pick<ProviderPort, 'payments'>['payments'],
  cursor: string | null,
  readPage: <T>(read: () => Promise<T>) => Promise<T>,
): AsyncGenerator<Listed> {
  const { list, listAll } = payments;
  if (list) {
    let next: string | undefined = cursor ?? undefined;
    for (;;) {
      const at = next;
      const page = await readPage(() =>
        list.call(payments, { limit: LIST_PAGE_SIZE, ...(at !== undefined ? { cursor: at } : {}) }),
      );
      for (const p of page.data) yield { payment: p };
      yield { pageEnd: page.nextCursor };
      if (page.nextCursor === null) return;
      next = page.nextCursor;
    }
  }
  if (!listAll) return;
  for await (const p of listAll.call(payments, { limit: LIST_PAGE_SIZE })) yield { payment: p };
}

/** What the activity reads and calls; each defaults to the running activity's context. */
export interface ReconcileDeps {
  provider: Pick<ProviderPort, 'payments'>;
  client?: () => Pick<Client, 'workflow' | 'schedule'>;
  taskQueue?: () => string;
  /** records progress: always the run's ReconcileProgress, so a retry finds its place whatever it was doing */
  heartbeat?: (details: ReconcileProgress) => void;
  /** the last heartbeat details of an earlier attempt of this activity */
  lastProgress?: () => unknown;
  /** waits a rate limit out (the activity's cancellable sleep by default) */
  sleep?: (ms: number) => Promise<void>;
  /**
   * When the newest completed run of this run's Schedule started (ms), or null when none is known: the Schedule's
   * recent actions by default (last-completed-sweep.ts). Asked once per attempt, and only when a listed record moved
   * after its outcome.
   */
  lastCompletedSweepAt?: () => Promise<number | null>;
  /**
   * The Schedule this run is one of (its ID), or null for a run started by hand: by default from the run's workflow
   * ID, `schedule:<id>-<time>` (src/codec/schedule-binding.ts). Only runs of the same Schedule narrow each other's
   * look-back (they share its window); a run by hand never narrows and is never narrowed.
   */
  scheduleId?: () => string | null;
}

type Resolved = Required<Omit<ReconcileDeps, 'provider' | 'lastCompletedSweepAt'>>;

/**
 * How far before the last completed sweep's start a move is still told again: the lag between a move's lifecycle
 * timestamp (the service's clock) and the listing showing it, plus the skew between the service's clock and ours.
 * One Schedule interval (15 minutes): a move is told by at most two runs while the runs complete every 15 minutes.
 */
export const MOVED_OVERLAP_MS = 15 * 60 * 1000;

/**
 * The instant from which a move after the outcome is told (sweep-decision.ts, sweepTellOf): the run's window, narrowed
 * to MOVED_OVERLAP_MS before the start of the last completed sweep. That sweep listed every payment after it started,
 * so a move stamped before that start less the overlap was told by it (or by one before it, by the same rule): only a
 * failed or skipped run leaves a gap, and then the last COMPLETED run is older and the look-back wider. Never before
 * the window's start: past it nothing is told, as before.
 */
export function movedSinceMs(windowSinceMs: number, lastCompletedStartMs: number | null): number {
  if (lastCompletedStartMs === null) return windowSinceMs;
  return Math.max(windowSinceMs, lastCompletedStartMs - MOVED_OVERLAP_MS);
}

/** A cut listing is an operator's matter: what lies past the bound was not seen by this run. */
function warnListingCut(listed: number, maxListed: number, entities: number, maxEntities: number): void {
  warnInActivity('reconcile sweep stopped at its bound: payments past it were not seen', {
    listed: Math.min(listed, maxListed),
    maxListed,
    entitiesNotFinal: entities,
    maxEntities,
  });
}

/** The deps a caller left out, from the running activity's context. */
function withContextDefaults(deps: ReconcileDeps): Resolved {
  return {
    client: deps.client ?? (() => Context.current().client),
    taskQueue: deps.taskQueue ?? (() => Context.current().info.taskQueue),
    scheduleId:
      deps.scheduleId ??
      (() => {
        try {
          return scheduleOfRun(Context.current().info.workflowExecution?.workflowId ?? '');
        } catch {
          return null; // outside an activity (a direct call): a run by hand
        }
      }),
    heartbeat: deps.heartbeat ?? ((details: ReconcileProgress) => Context.current().heartbeat(details)),
    lastProgress:
      deps.lastProgress ??
      (() => {
        try {
          return Context.current().info.heartbeatDetails as unknown;
        } catch {
          return undefined; // outside an activity (a direct call): a first attempt
        }
      }),
    sleep: deps.sleep ?? ((ms: number) => Context.current().sleep(ms)),
  };
}

/** One page GET; a rate limit is waited out here (heartbeating), anything else fails the activity. */
async function readPageWaitingOutLimits<T>(
  read: () => Promise<T>,
  beat: () => void,
  sleep: (ms: number) => Promise<void>,
): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await read();
    } catch (err) {
      const limited =
        isProviderError(err) && (err.type === 'RateLimitedError' || err.type === 'RateBudgetError');
      if (!limited || waits >= PAGE_RATE_LIMIT_WAITS) throw err;
      // spec: Limits. Retry-After plus jitter, never exactly; no Retry-After: a second.
      let left = jitteredRetryAfter(err.retryAfterMs ?? 1000);
      while (left > 0) {
        beat();
        const step = Math.min(left, MAX_SLEEP_MS);
        await sleep(step);
        left -= step;
      }
    }
  }
}

/** An earlier attempt's place (its last heartbeat) when it was this run's; else the start of the listing. */
function startingProgress(resumed: unknown, since: string): ReconcileProgress {
  return isProgress(resumed, since)
    ? { ...resumed, signalled: [...resumed.signalled] }
    : { since, cursor: null, finished: false, listed: 0, signalled: [], followedSignalled: 0 };
}

/**
 * Hands a listed payment to its entity through the front door. A list answered to our own call is a read, not a push
 * (workflows/provider-payment/knowledge.ts, sourceOf). The event id (sweep-decision.ts, sweepEventId) is one per status,
 * and per lifecycle for a record that moved after its outcome: a second run's tell of an unchanged record is a
 * duplicate the entity drops.
 */
function tellEntityOf(client: Pick<Client, 'workflow'>, taskQueue: string, p: Payment): Promise<void> {
  return signalWithStartProviderPayment(client, {
    taskQueue,
    input: { providerPaymentId: p.id },
    event: { eventId: sweepEventId(p), type: 'payment.reconciled', payment: p, from: RECONCILE_SWEEP_READER },
  });
}

/** One run of the listing: what it knows before the first page, and what it tells as it goes. */
interface SweepRun {
  sinceMs: number;
  /** moves after the outcome are told from here (movedSinceMs): read at the first listed record that may need it */
  movedSinceMs: () => Promise<number>;
  maxListed: number;
  progress: ReconcileProgress;
  /** running entities without a final PaymentStatus (listEntitiesNotFinal); one is deleted once told */
  notFinal: Set<string>;
  /** entities whose payment workflow still waits for funds (listEntitiesAwaitingFunds); one is deleted once told */
  awaitingFunds: Set<string>;
  /** the event ids told in this attempt: a payment listed twice (a page boundary the service moved) is told once */
  told: Set<string>;
  tell: (p: Payment) => Promise<void>;
}

/**
 * One listed payment. A recent PAYIN or conversion is handed over whatever its status (only its webhooks follow it). A
 * payment with a running entity not final, whatever its age (a payout may be funded days after it was made; a PAYIN
 * older than the window), is told a final status its entity has not indexed, once per run. Any other is told a move
 * after its outcome made within the window (sweep-decision.ts, sweepTellOf): its entity lingers terminal or has ended,
 * and reads no more.
 */
async function onListed(run: SweepRun, p: Payment): Promise<void> {
  const { progress } = run;
  if (isFollowedOnlyByWebhooks(p) && Date.parse(String(p.lifecycle?.createdAt ?? '')) >= run.sinceMs) {
    await run.tell(p);
    progress.signalled.push(p.id);
    return;
  }
  const entity = providerPaymentWorkflowId(p.id);
  const notFinal = run.notFinal.has(entity);
  const awaitingFunds = run.awaitingFunds.has(entity);
  // the narrower look-back costs a visibility read: made only for a record the window would tell as a move
  const since =
    sweepTellOf(p, notFinal, run.sinceMs, awaitingFunds) === 'moved' ? await run.movedSinceMs() : run.sinceMs;
  const tell = sweepTellOf(p, notFinal, since, awaitingFunds);
  if (tell === null || run.told.has(sweepEventId(p))) return;
  run.told.add(sweepEventId(p));
  await run.tell(p);
  if (tell === 'final' || tell === 'funded') {
    run.notFinal.delete(entity);
    run.awaitingFunds.delete(entity);
    progress.followedSignalled++;
  } else progress.movedSignalled = (progress.movedSignalled ?? 0) + 1;
}

/** The listing from the run's place to its last page (or maxListed), recording the place after every page. */
async function listAndTell(
  payments: Pick<ProviderPort, 'payments'>['payments'],
  run: SweepRun,
  readPage: <T>(read: () => Promise<T>) => Promise<T>,
  beat: () => void,
): Promise<void> {
  const { progress } = run;
  await callProvider(async () => {
    for await (const item of listFrom(payments, progress.cursor, readPage)) {
      if ('pageEnd' in item) {
        progress.cursor = item.pageEnd;
        progress.finished = item.pageEnd === null;
        beat();
        continue;
      }
      if (++progress.listed > run.maxListed) break;
      await onListed(run, item.payment);
    }
  });
}

export function createReconcileActivities(deps: ReconcileDeps): ReconcileActivities {
  const { client, taskQueue, scheduleId, heartbeat, lastProgress, sleep } = withContextDefaults(deps);
  return {
    async reconcileRecentPayments({
      since,
      maxListed = DEFAULT_MAX_LISTED,
      maxEntities = DEFAULT_MAX_ENTITIES,
    }) {
      const payments = deps.provider.payments;
      if (!payments.list && !payments.listAll)
        return { listed: 0, signalled: [], entitiesNotFinal: 0, followedSignalled: 0, movedSignalled: 0 };
      const progress = startingProgress(lastProgress(), since);
      const beat = () => heartbeat(progress);
      // Read before the listing: an entity that hears its final status meanwhile is told again (dropped as a duplicate).
      // Visibility is read again on a resume: it is not the provider's budget, and a told entity drops the repeat.
      const notFinal = await listEntitiesNotFinal(client(), taskQueue(), maxEntities, beat);
      const entitiesNotFinal = notFinal.size;
      const awaitingFunds = await listEntitiesAwaitingFunds(client(), taskQueue(), maxEntities, beat);
      const sinceMs = Date.parse(since);
      let movedSince: Promise<number> | undefined;
      const lastCompleted =
        deps.lastCompletedSweepAt ??
        (() => {
          const schedule = scheduleId();
          // a run by hand (perhaps with a narrower window) is neither narrowed nor narrows: its whole window
          return schedule === null
            ? Promise.resolve(null)
            : lastCompletedRunOfSchedule(client(), taskQueue(), schedule);
        });
      const run: SweepRun = {
        sinceMs,
        movedSinceMs: () => (movedSince ??= lastCompleted().then((at) => movedSinceMs(sinceMs, at))),
        maxListed,
        progress,
        notFinal,
        awaitingFunds,
        told: new Set(),
        tell: (p) => tellEntityOf(client(), taskQueue(), p),
      };
      // a resumed run whose last page was read: nothing is left
      if (!progress.finished)
        await listAndTell(payments, run, (read) => readPageWaitingOutLimits(read, beat, sleep), beat);
      const listingCut =
        progress.listed > maxListed || entitiesNotFinal >= maxEntities || awaitingFunds.size >= maxEntities;
      if (listingCut) warnListingCut(progress.listed, maxListed, entitiesNotFinal, maxEntities);
      return {
        listed: Math.min(progress.listed, maxListed),
        signalled: progress.signalled,
        entitiesNotFinal,
        followedSignalled: progress.followedSignalled,
        movedSignalled: progress.movedSignalled ?? 0,
        ...(listingCut ? { listingCut } : {}),
      };
    },
  };
}
