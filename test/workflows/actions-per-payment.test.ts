// The billable Temporal actions a payment costs, per path, held as a budget. An action count is exact (it depends
// on the workflow code and the events given, not on timing), so it may be a test: a change that adds actions
// fails here until its budget is raised ON PURPOSE, in the same commit, with the reason in that commit's message
// (and docs/performance.md "Actions per payment" updated). A change that saves actions lowers the budget, so the
// saving is kept.
//
// Each path is driven to the end of every workflow it involves (test/workflows/support/payment-paths.ts says how,
// and why the counts are repeatable); actions are counted from the histories by Temporal Cloud's mapping
// (src/telemetry/temporal-actions.ts: what is billed, what a history cannot show).
import { describeCount, type ActionCount } from '../../src/telemetry/temporal-actions';
import {
  runPath,
  runSkeleton,
  startSkeletonWorker,
  type PathName,
  type SkeletonName,
} from './support/payment-paths';
import { useTestBed } from './support/test-bed';

/**
 * Lowered (no quiet-read ladder while a payment subscribes; old budget → new): payout 25 → 24, with events 38 → 37,
 * pull 20 → 19, requote 44 → 37, cancelled 23 → 17, expired 23 → 17, refunded 22 → 17, failed 22 → 21; PAYIN 5
 * unchanged. The entity, behind entity-no-ladder-while-subscribed (one more marker and TemporalChangeVersion upsert
 * per run, not billed), starts no ladder timer and takes no ladder read (1, 5, 15 min) while a payment subscribes: every
 * push is confirmed by its own GET, never by the ladder; the payment reads at its deadlines; the sweep finds a lost
 * funding or final webhook within 15 minutes. A lost status on the way is read past at the next push's read.
 * Raised on purpose:
 * - +1 on every path whose entity hears a final status by push (payout, pull, requote, cancelled, expired,
 *   refunded, failed): the entity confirms a pushed final status with one GET (a local activity) before it
 *   forwards it (workflows/provider-payment/push-confirmation.ts: an outcome is never decided on a pushed event alone);
 * - +1 more on "cancelled before funds": the payment shows phase CANCELLING (one upsert) until the provider
 *   confirms the payment can no longer be funded, then CANCELLED;
 * - +1 on every path with a payment: the payment (workflows/payment/) checks the request's contract rules in a
 *   local activity (validatePaymentRequest: the request shapes stay out of the workflow bundle, and the payment,
 *   PINNED, has no patched()); its patch marker and TemporalChangeVersion upsert (not billed) are gone.
 * - +2 or +3 on every path whose entity hears statuses on the way by push (payout 23 → 26, with events 36 → 39, pull
 *   20 → 22, requote 47 → 50, failed 21 → 23): every push that would change what the entity holds waits for the
 *   entity's GET, not only a final one (workflows/provider-payment/knowledge.ts; patch entity-confirms-every-push,
 *   one more marker and TemporalChangeVersion upsert per run, not billed): a signed PENDING or a refundedAt the
 *   service does not bear out must not reach a backend or decide. One GET judges every push held before it
 *   started, so a burst for one payment costs one read; a push that changes nothing costs none.
 * - −2 on "cancelled before funds" and "expired" (53 → 51): the EXPIRED the payment read itself and told its entity
 *   is a read (knowledge.ts, sourceOf; patch entity-takes-final-reads), taken as it comes: no second GET by the
 *   entity (−1 localActivity) and no echo of it back to the payment (−1 signal).
 * Counted as billed (−1 on every path with a payment): "All Local Activities associated with one Workflow Task count
 *   as a single Action" (docs.temporal.io/evaluate/cloud/actions). The payment's contract check and rate run in one
 *   workflow task: one action, not two (payout 26 → 25, with events 39 → 38, pull 22 → 21, requote 50 → 49, cancelled
 *   and expired 51 → 50, refunded 23 → 22, failed 23 → 22). No code changed; the markers are listed (`localMarkers`).
 * Lowered (the waiting paths read only at their decision points; old budget → new): pull 21 → 20, requote 49 → 44,
 * cancelled 50 → 23, expired 50 → 23; payout 25, with events 38, PAYIN 5, refunded 22 and failed 22 unchanged. The
 * payment (PINNED, a new build) no longer reads every 6 h by default (`reconcileEveryMs` is the caller's opt-in): it
 * reads at the quote's expiry, the funding deadline and a cancel's confirmation; the entity, behind
 * entity-leaves-periodic-reads-to-sweep (one more marker and TemporalChangeVersion upsert where asked, not billed),
 * no longer reads daily (subscribed) or hourly past its quiet-read ladder. The periodic "did we miss a webhook" read is
 * the reconcile Schedule's sweep (activities/reconcile-activities.ts: a lost funding or final webhook is told to the
 * entity within one 15-minute interval); the requote path's abandoned provider payment is expired by the service and
 * its entity told so by one sweep signal (+1 signal), not found by daily reads.
 * Raised on purpose, after the waiting paths left their periodic reads to the reconcile sweep: the payment keeps a
 *   daily safety read by default (reconcileEveryMs 24 h: a deployment without the Schedule, or a listing cut at its
 *   cap, must still see every payment end within a day) — pull 19 → 20 (its one timer), cancelled 17 → 21 and expired
 *   17 → 21 (two daily reads and their timers over the 3 business days); and it reads every other tracked payment
 *   not known to have ended once before an outcome (a requote's abandoned payment funded with its webhooks lost):
 *   requote 37 → 38.
 * Lowered (build 0.3.0; old budget → new; docs/performance.md "Actions per payment", before/after):
 * payout 34 → 23, with events 47 → 36, pull 28 → 20, requote 196 → 47, cancelled 192 → 53, expired 191 → 53,
 * failed 28 → 21; PAYIN 5 and refunded 23 unchanged. The payment keeps one timer across its waits (workflows/waiter.ts)
 * and upserts on phase changes only; the entity, behind entity-fewer-actions (one more patch marker and
 * TemporalChangeVersion upsert per run, not billed), keeps one timer too, upserts only the statuses operators query,
 * and reads once a day instead of hourly while a payment subscribes (the payment reads every 6 h and tells it).
 */
/**
 * The budget: one line per path. `payment` and `entity` are the kinds as `describeCount` prints them (the
 * entities of a path summed: a requote has two); `total` is payment + entity.
 */
const BUDGET: Record<PathName, { total: number; payment: string; entity: string; events?: string }> = {
  'payout completed': {
    total: 24,
    payment:
      'start 1, signal 4, update 1, activity 1, localActivity 1, timer 1, upsert 3; not billed: localMarkers 2',
    entity:
      'start 1, signal 5, localActivity 4, timer 1, upsert 1; not billed: marker 5, changeVersion 5, localMarkers 4',
  },
  // outbound events (docs/outbound-events.md): 'payout completed' + the payment's three hand-overs and the
  // delivery workflow ('events' below)
  // +13 on 'payout completed': payment +3 localActivity (one hand-over per event); the delivery workflow 10 (start 1,
  // signal 3, activity 3, timer 3: after each delivery it waits for the next event, at most a day)
  'payout completed, with events': {
    total: 37,
    payment:
      'start 1, signal 4, update 1, activity 1, localActivity 4, timer 1, upsert 3; not billed: localMarkers 5',
    entity:
      'start 1, signal 5, localActivity 4, timer 1, upsert 1; not billed: marker 5, changeVersion 5, localMarkers 4',
    events: 'start 1, signal 3, activity 3, timer 3',
  },
  'pull payment completed': {
    total: 20,
    payment:
      'start 1, signal 3, update 1, activity 1, localActivity 1, timer 1, upsert 2; not billed: localMarkers 2',
    entity:
      'start 1, signal 4, localActivity 3, timer 1, upsert 1; not billed: marker 5, changeVersion 5, localMarkers 3',
  },
  PAYIN: {
    total: 5,
    payment: '',
    entity: 'start 1, signal 1, activity 1, timer 1, upsert 1; not billed: memo 1, marker 3, changeVersion 3',
  },
  'requote then completed': {
    total: 38,
    payment:
      'start 1, signal 4, update 2, activity 4, localActivity 2, timer 3, upsert 5; not billed: localMarkers 3',
    entity:
      'start 2, signal 7, localActivity 4, timer 2, upsert 2; not billed: marker 9, changeVersion 9, localMarkers 4',
  },
  'cancelled before funds': {
    total: 21,
    payment: 'start 1, update 2, activity 4, localActivity 1, timer 5, upsert 3; not billed: localMarkers 2',
    entity: 'start 1, signal 2, timer 1, upsert 1; not billed: marker 4, changeVersion 4',
  },
  expired: {
    total: 21,
    payment: 'start 1, update 1, activity 5, localActivity 1, timer 5, upsert 3; not billed: localMarkers 2',
    entity: 'start 1, signal 2, timer 1, upsert 1; not billed: marker 4, changeVersion 4',
  },
  'refunded after late funds': {
    total: 17,
    payment:
      'start 1, signal 1, update 1, activity 2, localActivity 1, timer 2, upsert 3; not billed: localMarkers 2',
    entity:
      'start 1, signal 2, localActivity 1, timer 1, upsert 1; not billed: marker 4, changeVersion 4, localMarkers 1',
  },
  failed: {
    total: 21,
    payment:
      'start 1, signal 3, update 1, activity 1, localActivity 1, timer 1, upsert 3; not billed: localMarkers 2',
    entity:
      'start 1, signal 4, localActivity 3, timer 1, upsert 1; not billed: marker 5, changeVersion 5, localMarkers 3',
  },
};

/** The floor the budget is read against (scripts/bench/skeleton, driven as the bench's P1 drives it). */
const FLOOR: Record<SkeletonName, { total: number; first: string; second: string }> = {
  skeleton: { total: 5, first: 'start 1, signal 1, update 1, activity 2', second: '' },
  'two-workflow skeleton': {
    total: 7,
    first: 'start 1, signal 1, update 1, activity 2',
    second: 'start 1, signal 1',
  },
};

const bed = useTestBed();
const kinds = (c: ActionCount | undefined): string => (c ? describeCount(c) : '');
// days of timers pass in seconds, but each of an entity's hourly reads is a workflow task and an activity
const PATH_TIMEOUT_MS = 240_000;

describe('Temporal actions per payment, held as a budget', () => {
  it.each(Object.keys(BUDGET) as PathName[])(
    '%s',
    async (path) => {
      const count = await runPath(bed, path);
      const events = count.byRole.events ? { events: kinds(count.byRole.events) } : {};
      expect({
        total: count.total.total,
        payment: kinds(count.byRole.payment),
        entity: kinds(count.byRole.entity),
        ...events,
      }).toEqual(BUDGET[path]);
    },
    PATH_TIMEOUT_MS,
  );

  it.each(Object.keys(FLOOR) as SkeletonName[])('floor: %s', async (name) => {
    const skeleton = await startSkeletonWorker(bed.env);
    try {
      const count = await runSkeleton(bed.env, skeleton.taskQueue, name);
      expect({
        total: count.total.total,
        first: kinds(count.byRole.skeleton),
        second: kinds(count.byRole.skeletonEntity),
      }).toEqual(FLOOR[name]);
    } finally {
      await skeleton.stop();
    }
  });
});
