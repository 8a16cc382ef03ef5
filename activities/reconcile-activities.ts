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
// The listing goes page by page, each GET a call of the key's rate budget (src/provider/rate-budget.ts), and records
// its place in the activity's heartbeat after every page: a retry of the activity goes on from the last recorded page,
// never from the first, and a 429 in the middle is waited out (Retry-After plus jitter, heartbeating) and the same
// page asked again.
// The entity drops a duplicate event id, holds a pushed final status until its own GET confirms it
// (workflows/provider-payment/push-confirmation.ts) and, on a fresh start, reads the payment itself first, so a
// reconcile never moves anything backwards and never decides an outcome on the listing alone.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/contract';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentWorkflowId,
  RECONCILE_SWEEP_READER,
  signalWithStartProviderPayment,
} from '../workflows/provider-payment/api';
import { FINAL_PAYMENT_STATUSES, PaymentStatusKey } from '../workflows/search-attributes';
import { reconcileEventId } from '../workflows/internal-event-ids';
import type { ProviderPort } from './provider-port';
import { callProvider, isProviderError } from './errors';
import { jitteredRetryAfter } from '../src/provider/rate-budget';

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
  /** of those, the ones told a final status the listing showed: what the sweep healed (absent in older results) */
  followedSignalled?: number;
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

export function createReconcileActivities(deps: {
  provider: Pick<ProviderPort, 'payments'>;
  client?: () => Pick<Client, 'workflow'>;
  taskQueue?: () => string;
  /** records progress: always the run's ReconcileProgress, so a retry finds its place whatever it was doing */
  heartbeat?: (details: ReconcileProgress) => void;
  /** the last heartbeat details of an earlier attempt of this activity */
  lastProgress?: () => unknown;
  /** waits a rate limit out (the activity's cancellable sleep by default) */
  sleep?: (ms: number) => Promise<void>;
}): ReconcileActivities {
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const heartbeat = deps.heartbeat ?? ((details: ReconcileProgress) => Context.current().heartbeat(details));
  const lastProgress =
    deps.lastProgress ??
    (() => {
      try {
        return Context.current().info.heartbeatDetails as unknown;
      } catch {
        return undefined; // outside an activity (a direct call): a first attempt
      }
    });
  const sleep = deps.sleep ?? ((ms: number) => Context.current().sleep(ms));

  /** One page GET; a rate limit is waited out here (heartbeating), anything else fails the activity. */
  async function readPage<T>(read: () => Promise<T>, beat: () => void): Promise<T> {
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

  return {
    async reconcileRecentPayments({
      since,
      maxListed = DEFAULT_MAX_LISTED,
      maxEntities = DEFAULT_MAX_ENTITIES,
    }) {
      const payments = deps.provider.payments;
      if (!payments.list && !payments.listAll)
        return { listed: 0, signalled: [], entitiesNotFinal: 0, followedSignalled: 0 };
      const sinceMs = Date.parse(since);
      // An earlier attempt's place (its last heartbeat): go on from its next page, with what it already counted.
      const resumed = lastProgress();
      const progress: ReconcileProgress = isProgress(resumed, since)
        ? { ...resumed, signalled: [...resumed.signalled] }
        : { since, cursor: null, finished: false, listed: 0, signalled: [], followedSignalled: 0 };
      const beat = () => heartbeat(progress);
      // Read before the listing: an entity that hears its final status meanwhile is told again (dropped as a duplicate).
      // Visibility is read again on a resume: it is not the provider's budget, and a told entity drops the repeat.
      const notFinal = await listEntitiesNotFinal(client(), taskQueue(), maxEntities, beat);
      const entitiesNotFinal = notFinal.size;
      const tell = (p: Payment) =>
        signalWithStartProviderPayment(client(), {
          taskQueue: taskQueue(),
          input: { providerPaymentId: p.id },
          // one id per status seen: a second reconcile of an unchanged payment is a duplicate the entity drops
          // a list answered to our own call is a read, not a push (workflows/provider-payment/knowledge.ts, sourceOf)
          event: {
            eventId: reconcileEventId(p.id, p.status),
            type: 'payment.reconciled',
            payment: p,
            from: RECONCILE_SWEEP_READER,
          },
        });
      const done = () => ({
        listed: Math.min(progress.listed, maxListed),
        signalled: progress.signalled,
        entitiesNotFinal,
        followedSignalled: progress.followedSignalled,
      });
      // a resumed run whose last page was read: nothing is left
      if (progress.finished) return done();
      await callProvider(async () => {
        for await (const item of listFrom(payments, progress.cursor, (read) => readPage(read, beat))) {
          if ('pageEnd' in item) {
            progress.cursor = item.pageEnd;
            progress.finished = item.pageEnd === null;
            beat();
            continue;
          }
          const p = item.payment;
          if (++progress.listed > maxListed) break;
          if (isFollowedOnlyByWebhooks(p) && Date.parse(String(p.lifecycle?.createdAt ?? '')) >= sinceMs) {
            await tell(p);
            progress.signalled.push(p.id);
            continue;
          }
          // A payment with a running entity, whatever its age (a payout may be funded days after it was made; a PAYIN
          // older than the window): only a final status its entity has not indexed is told, once per run (deleted
          // from the set once told).
          const entity = providerPaymentWorkflowId(p.id);
          if (!FINAL_PAYMENT_STATUSES.includes(p.status) || !notFinal.delete(entity)) continue;
          await tell(p);
          progress.followedSignalled++;
        }
      });
      return done();
    },
  };
}
