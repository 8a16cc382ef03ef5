// The paths a payment takes, each driven to the END of every workflow it involves (the payment and each
// provider-payment entity, which lingers 7 days after a final status for a late refund: spec, States and
// transitions, rows 4–5), on the time-skipping server with the fake provider. Shared by the actions budget test
// and `npm run bench -- --only actions`, so both count the same runs. No jest in here.
//
// What makes the counts exact and repeatable:
// - every path starts on a Monday 09:00 UTC of the server's clock (the funding deadline is 3 business days, so
//   the number of hourly reads before it depends on the weekday otherwise);
// - production defaults throughout (payment: expired linger 24 h, reads at its decision points only; entity: quiet
//   reads after 1, 5, 15 min, then none of its own (entity-leaves-periodic-reads-to-sweep), linger 7 days); the
//   reconcile Schedule's sweep is run by a path only where it needs it (sweepOnce);
// - webhooks are delivered one at a time, each once the payment (or the entity) has taken the previous one in,
//   and back to back: no quiet time passes between them. Each quiet hour in real life adds entity reads.
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { Client, WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { startPayment } from '../../../src/client/payments';
import {
  addCounts,
  countActions,
  emptyCount,
  type ActionCount,
} from '../../../src/telemetry/temporal-actions';
import type { Payment } from '../../../src/contract';
import {
  cancelUpdate,
  type PaymentState,
  paymentStateQuery,
  requoteUpdate,
} from '../../../workflows/payment/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
  RECONCILE_SWEEP_READER,
  signalWithStartProviderPayment,
} from '../../../workflows/provider-payment/api';
import { sweepEventId, sweepTellOf } from '../../../workflows/provider-payment/sweep-decision';
import { createSkeletonActivities } from '../../../scripts/bench/skeleton/activities';
import {
  SKELETON_PAIR_WORKFLOW_TYPE,
  SKELETON_WORKFLOW_TYPE,
  skeletonCreatedUpdate,
  skeletonFundSignal,
} from '../../../scripts/bench/skeleton/messages';
import { WithStartWorkflowOperation, WorkflowIdConflictPolicy } from '@temporalio/client';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { uniqueTaskQueue, uniqueWorkflowId, workflowBundle } from '../../support/temporal';
import { FakeProvider, QUOTE_VALIDITY_MS } from './fake-provider';
import { createWorkflowTestEnv, deliverPaymentEvent, eventually, SharedWorker } from './harness';
import { paymentRequest } from './payment-request';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** the entity's linger after a final status (workflows/provider-payment/workflow.ts default) */
const ENTITY_LINGER_MS = 7 * DAY;
/** the payment's linger after EXPIRED (workflows/payment.ts default) */
const PAYMENT_EXPIRED_LINGER_MS = DAY;

export type Role = 'payment' | 'entity' | 'events' | 'skeleton' | 'skeletonEntity';

/** What a path driver needs: the test bed of a workflows test, or `createPathBed` outside jest. */
export interface PathBed {
  readonly env: TestWorkflowEnvironment;
  readonly worker: SharedWorker;
  readonly taskQueue: string;
  readonly fake: FakeProvider;
  newFake(): FakeProvider;
}

export interface PathRun {
  /** every workflow the path involved, each closed (or at the stated point for a skeleton entity) */
  readonly workflows: { role: Role; workflowId: string }[];
}

export interface PathCount {
  readonly byRole: Partial<Record<Role, ActionCount>>;
  readonly total: ActionCount;
  /** workflows per role (a requote has two entities) */
  readonly workflows: Partial<Record<Role, number>>;
}

type Driver = (bed: PathBed) => Promise<PathRun>;

/** The paths a payment takes (spec: States and transitions), in the order the tables show them. */
export const PATHS = {
  'payout completed': payoutCompleted,
  'payout completed, with events': payoutCompletedWithEvents,
  'pull payment completed': pullCompleted,
  PAYIN: payin,
  'requote then completed': requoteCompleted,
  'cancelled before funds': cancelledBeforeFunds,
  expired,
  'refunded after late funds': refundedAfterLateFunds,
  failed,
} satisfies Record<string, Driver>;
export type PathName = keyof typeof PATHS;
export const PATH_NAMES = Object.keys(PATHS) as PathName[];

/** Drives one path and counts the actions of every workflow it involved, once all have closed. */
export async function runPath(bed: PathBed, name: PathName): Promise<PathCount> {
  bed.newFake();
  await toMondayMorning(bed.env);
  const run = await PATHS[name](bed);
  return countRun(bed.env.client, run);
}

export async function countRun(client: Client, run: PathRun): Promise<PathCount> {
  const byRole: Partial<Record<Role, ActionCount>> = {};
  const workflows: Partial<Record<Role, number>> = {};
  for (const { role, workflowId } of run.workflows) {
    const c = await countWorkflow(client, workflowId);
    byRole[role] = addCounts(byRole[role] ?? emptyCount(), c);
    workflows[role] = (workflows[role] ?? 0) + 1;
  }
  return { byRole, workflows, total: addCounts(...Object.values(byRole)) };
}

/** Every run of a workflow ID (a continue-as-new chain is followed back to its first run). */
async function countWorkflow(client: Client, workflowId: string): Promise<ActionCount> {
  const counts: ActionCount[] = [];
  let runId: string | undefined;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    counts.push(countActions(events));
    const previous = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return addCounts(...counts);
    runId = previous;
  }
}

/** Moves the server's clock to the next Monday 09:00 UTC (nothing else runs then: afterEach cleaned up). */
async function toMondayMorning(env: TestWorkflowEnvironment): Promise<void> {
  const now = await env.currentTimeMs();
  const d = new Date(now);
  const days = (8 - d.getUTCDay()) % 7 || 7;
  const target = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days, 9, 0, 0);
  await env.sleep(target - now);
}

async function closed(handle: WorkflowHandle, what: string): Promise<void> {
  await eventually(
    () => handle.describe().then((d) => d.status.name),
    (status) => status !== 'RUNNING',
    20_000,
  ).catch((err: unknown) => {
    throw new Error(`${what} did not close: ${String(err)}`);
  });
}

/** The payment as the service's client starts it (update-with-start, search attributes given at start). */
async function start(bed: PathBed, request = paymentRequest(), withEvents = false) {
  const key = uniqueWorkflowId('actions');
  const input = { paymentKey: key, request, ...(withEvents ? { events: {} } : {}) };
  const started = await startPayment(bed.env.client, input, { taskQueue: bed.taskQueue });
  bed.worker.started.add(started.workflowId);
  if (started.created.outcome !== 'CREATED')
    throw new Error(`not created: ${JSON.stringify(started.created)}`);
  const providerPaymentId = started.created.providerPaymentId;
  bed.worker.started.add(providerPaymentWorkflowId(providerPaymentId));
  await atRest(bed, [started.workflowId, providerPaymentWorkflowId(providerPaymentId)]);
  return { handle: bed.env.client.workflow.getHandle(started.workflowId), providerPaymentId, key };
}

const EventType = temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const ofType = (events: HistoryEvent[], ...types: number[]) =>
  events.filter((e) => types.includes(e.eventType ?? -1)).length;

/**
 * At rest: no workflow task to run and nothing the workflow waits on but its timer or a message (every signal it
 * sent has landed, every activity has ended).
 */
function isAtRest(events: HistoryEvent[]): boolean {
  const last = events.at(-1)?.eventType;
  if (
    last === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED ||
    last === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED
  )
    return false;
  const signalsSent = ofType(events, EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED);
  const signalsLanded = ofType(
    events,
    EventType.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED,
    EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED,
  );
  const activities = ofType(events, EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED);
  const ended = ofType(
    events,
    EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED,
    EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT,
    EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
  );
  return signalsSent === signalsLanded && activities === ended;
}

/**
 * Both workflows at rest before the next webhook: one that lands while the entity's signal to the payment is
 * still in flight would share its workflow task (one timer fewer), and the counts would depend on timing.
 */
async function atRest(bed: PathBed, workflowIds: string[]): Promise<void> {
  for (const id of workflowIds)
    await eventually(
      () =>
        bed.env.client.workflow
          .getHandle(id)
          .fetchHistory()
          .then((h) => h.events ?? []),
      isAtRest,
    );
}

/** One webhook, taken in by the payment (and both workflows at rest) before the next comes. */
async function webhook(
  bed: PathBed,
  handle: WorkflowHandle,
  p: Payment,
  absorbed: (s: PaymentState) => boolean,
) {
  await deliverPaymentEvent(bed.env, bed.taskQueue, p);
  await eventually(() => handle.query(paymentStateQuery), absorbed);
  await atRest(bed, [handle.workflowId, providerPaymentWorkflowId(p.id)]);
}

const hasStatus = (status: string) => (s: PaymentState) => s.providerStatus === status;

/** Both workflows closed: the payment at its outcome, then the entity after its linger. */
async function endOf(
  bed: PathBed,
  handle: WorkflowHandle,
  entityIds: string[],
  lingerFromNowMs = ENTITY_LINGER_MS,
) {
  await closed(handle, 'the payment');
  await bed.env.sleep(lingerFromNowMs + MIN);
  for (const id of entityIds) await closed(bed.env.client.workflow.getHandle(id), `entity ${id}`);
  return {
    workflows: [
      { role: 'payment' as const, workflowId: handle.workflowId },
      ...entityIds.map((workflowId) => ({ role: 'entity' as const, workflowId })),
    ],
  };
}

/**
 * One run of the reconcile Schedule's sweep over the running, not final entities `ids`, telling each what
 * activities/reconcile-activities.ts would (sweep-decision.ts; the time-skipping server answers no visibility query,
 * so the entities are named here). It is the periodic read the payment and its entity leave to it: its signal is
 * counted on the entity it tells.
 */
async function sweepOnce(bed: PathBed, ids: string[]): Promise<void> {
  for (const id of ids) {
    await bed.fake.applyTime(id);
    const listed = bed.fake.set(id, {});
    if (sweepTellOf(listed, true, 0) === null) continue;
    await signalWithStartProviderPayment(bed.env.client, {
      taskQueue: bed.taskQueue,
      input: { providerPaymentId: id },
      event: {
        eventId: sweepEventId(listed),
        type: 'payment.reconciled',
        payment: listed,
        from: RECONCILE_SWEEP_READER,
      },
    });
  }
}

async function sleepPastDeadline(bed: PathBed, handle: WorkflowHandle, marginMs: number): Promise<void> {
  const { fundingDeadline } = await handle.query(paymentStateQuery);
  if (!fundingDeadline) throw new Error('the payment has no funding deadline');
  await bed.env.sleep(Math.max(0, Date.parse(fundingDeadline) - (await bed.env.currentTimeMs())) + marginMs);
}

/** A payout funded by the customer: AWAITING_FUNDS → PENDING → PROCESSING → SENT → COMPLETED, 4 webhooks. */
async function payoutCompleted(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id } = await start(bed);
  await webhook(bed, handle, await bed.fake.fund(id, await bed.env.currentTimeMs()), hasStatus('PENDING'));
  for (const s of ['PROCESSING', 'SENT'] as const)
    await webhook(bed, handle, await bed.fake.advance(id, s), hasStatus(s));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

/**
 * The same payout started with `events: {}`: its three events (created, funds_received, completed) go to a
 * receiver that accepts each at once; the delivery workflow ends a day after the last (its idle close).
 */
async function payoutCompletedWithEvents(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id, key } = await start(bed, paymentRequest(), true);
  const eventsId = paymentEventsWorkflowId(key);
  bed.worker.started.add(eventsId);
  await atRest(bed, [eventsId]);
  await webhook(bed, handle, await bed.fake.fund(id, await bed.env.currentTimeMs()), hasStatus('PENDING'));
  await atRest(bed, [eventsId]);
  for (const s of ['PROCESSING', 'SENT'] as const)
    await webhook(bed, handle, await bed.fake.advance(id, s), hasStatus(s));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
  const run = await endOf(bed, handle, [providerPaymentWorkflowId(id)]);
  await closed(bed.env.client.workflow.getHandle(eventsId), 'the delivery workflow');
  return { workflows: [...run.workflows, { role: 'events', workflowId: eventsId }] };
}

/** Pulled from the customer's account: PENDING at creation, then PROCESSING → SENT → COMPLETED, 3 webhooks. */
async function pullCompleted(bed: PathBed): Promise<PathRun> {
  const request = paymentRequest({
    source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
  });
  const { handle, providerPaymentId: id } = await start(bed, request);
  for (const s of ['PROCESSING', 'SENT'] as const)
    await webhook(bed, handle, await bed.fake.advance(id, s), hasStatus(s));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

/**
 * A deposit to a virtual account: the provider makes a PAYIN, COMPLETED at once (as the sandbox does), and its
 * one webhook starts the entity (signal-with-start, as the ingress does). No payment workflow. The schedule that
 * hands recent PAYINs to their entities (reconcilePayments) runs for all payments at once: not counted here.
 */
async function payin(bed: PathBed): Promise<PathRun> {
  const created = await bed.fake
    .activities()
    .createPayment(paymentRequest() as never, `payin:${Math.random()}`);
  const now = new Date(await bed.env.currentTimeMs()).toISOString();
  const p = bed.fake.set(created.id, {
    type: 'PAYIN',
    status: 'COMPLETED',
    destination: { ...created.destination, accountId: 'acc_virtual_1' },
    lifecycle: { ...created.lifecycle, sentAt: now, completedAt: now },
  });
  const workflowId = providerPaymentWorkflowId(p.id);
  bed.worker.started.add(workflowId);
  await bed.env.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
    workflowId,
    taskQueue: bed.taskQueue,
    args: [{ providerPaymentId: p.id }],
    signal: providerPaymentEventSignal,
    signalArgs: [{ eventId: `evt_payin_${p.id}`, type: 'payment.created', payment: p }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const entity = bed.env.client.workflow.getHandle(workflowId);
  await eventually(
    () => entity.query(providerPaymentSnapshotQuery),
    (s) => s.payment?.status === 'COMPLETED',
  );
  await bed.env.sleep(ENTITY_LINGER_MS + MIN);
  await closed(entity, 'the PAYIN entity');
  return { workflows: [{ role: 'entity', workflowId }] };
}

/**
 * The quote expires unfunded (16 quiet minutes), the customer asks for a new quote, funds the new payment and it
 * completes (4 webhooks, as a payout). The first payment is followed until the provider expires it (its entity
 * reads it hourly until the funding deadline), then lingers: two entities.
 */
async function requoteCompleted(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: first } = await start(bed);
  await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'QUOTE_EXPIRED',
  );
  await atRest(bed, [handle.workflowId, providerPaymentWorkflowId(first)]);
  const second = await handle.executeUpdate(requoteUpdate);
  if (second.outcome !== 'CREATED') throw new Error(`requote not created: ${JSON.stringify(second)}`);
  const id = second.providerPaymentId;
  bed.worker.started.add(providerPaymentWorkflowId(id));
  await atRest(bed, [handle.workflowId, providerPaymentWorkflowId(id)]);
  await webhook(bed, handle, await bed.fake.fund(id, await bed.env.currentTimeMs()), hasStatus('PENDING'));
  for (const s of ['PROCESSING', 'SENT'] as const)
    await webhook(bed, handle, await bed.fake.advance(id, s), hasStatus(s));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
  await closed(handle, 'the payment');
  // past the funding deadlines (the second's is the later): the first, abandoned, is EXPIRED by the service; no
  // workflow reads it periodically any more, so the reconcile sweep's next run tells its entity (one signal)
  await sleepPastDeadline(bed, handle, 2 * 60 * MIN);
  await sweepOnce(bed, [first]);
  return endOf(bed, handle, [providerPaymentWorkflowId(first), providerPaymentWorkflowId(id)]);
}

/**
 * Cancelled before funds: the payment listens until nothing can fund it (the funding deadline + its linger);
 * the entity reads hourly until the provider expires the payment, then lingers.
 */
async function cancelledBeforeFunds(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id } = await start(bed);
  await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'customer changed their mind' }] });
  await sleepPastDeadline(bed, handle, PAYMENT_EXPIRED_LINGER_MS + 2 * 60 * MIN);
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

/** Never funded: quote expiry, then the provider's EXPIRED at the funding deadline, then each linger. */
async function expired(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id } = await start(bed);
  await sleepPastDeadline(bed, handle, PAYMENT_EXPIRED_LINGER_MS + 2 * 60 * MIN);
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

/** Funds sent after the quote expired (spec row 4): the provider refunds them, REFUNDED, one webhook. */
async function refundedAfterLateFunds(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id } = await start(bed);
  await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'QUOTE_EXPIRED',
  );
  await atRest(bed, [handle.workflowId, providerPaymentWorkflowId(id)]);
  await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.fund(id, await bed.env.currentTimeMs()));
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

/** Funded, then the payout fails at the receiving bank: PENDING → PROCESSING → FAILED, 3 webhooks. */
async function failed(bed: PathBed): Promise<PathRun> {
  const { handle, providerPaymentId: id } = await start(bed);
  await webhook(bed, handle, await bed.fake.fund(id, await bed.env.currentTimeMs()), hasStatus('PENDING'));
  await webhook(bed, handle, await bed.fake.advance(id, 'PROCESSING'), hasStatus('PROCESSING'));
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await bed.fake.advance(id, 'FAILED', 'INVALID_EXTERNAL_ACCOUNT_NUMBER'),
  );
  return endOf(bed, handle, [providerPaymentWorkflowId(id)]);
}

// ---- the floor: the bench's skeletons (scripts/bench/skeleton), driven as P1 drives them ----

export type SkeletonName = 'skeleton' | 'two-workflow skeleton';
export const SKELETON_NAMES: SkeletonName[] = ['skeleton', 'two-workflow skeleton'];

/** A worker of the skeleton bundle on the same server (its pair activity signals-with-start the entity). */
export async function startSkeletonWorker(env: TestWorkflowEnvironment) {
  const taskQueue = uniqueTaskQueue('skeleton');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(require.resolve('../../../scripts/bench/skeleton/workflows')),
    activities: createSkeletonActivities({ client: env.client, taskQueue }),
  });
  const running = worker.run();
  return {
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}

/**
 * As P1 runs it: update-with-start returns after the create, then one `fund` signal and the skeleton completes.
 * The pair's entity takes its subscribe signal and waits: P1 never ends it, so it is counted parked, after the
 * subscribe (ending it would take one more signal), and then terminated.
 */
export async function runSkeleton(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  name: SkeletonName,
): Promise<PathCount> {
  const key = uniqueWorkflowId('floor');
  const type = name === 'skeleton' ? SKELETON_WORKFLOW_TYPE : SKELETON_PAIR_WORKFLOW_TYPE;
  const workflowId = `${type}:${key}`;
  await env.client.workflow.executeUpdateWithStart(skeletonCreatedUpdate, {
    startWorkflowOperation: new WithStartWorkflowOperation(type, {
      workflowId,
      taskQueue,
      args: [key],
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    }),
  });
  const handle = env.client.workflow.getHandle(workflowId);
  await handle.signal(skeletonFundSignal);
  await closed(handle, name);
  const workflows: PathRun['workflows'] = [{ role: 'skeleton', workflowId }];
  if (name === 'two-workflow skeleton') {
    const entityId = `skeleton-entity:${key}`;
    const entity = env.client.workflow.getHandle(entityId);
    await eventually(
      () => entity.fetchHistory().then((h) => h.events ?? []),
      (events) => events.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
    );
    workflows.push({ role: 'skeletonEntity', workflowId: entityId });
    const count = await countRun(env.client, { workflows });
    await entity.terminate('counted parked, as P1 leaves it');
    return count;
  }
  return countRun(env.client, { workflows });
}

/** A bed outside jest (the bench): a time-skipping server, one shared worker, a fake provider. */
export async function createPathBed(): Promise<PathBed & { stop(): Promise<void> }> {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') }); // the bench's output: no worker state changes
  } catch {
    // installed already (a test's setup, or an earlier bed): keep that one
  }
  const env = await createWorkflowTestEnv();
  let fake = new FakeProvider({ now: () => env.currentTimeMs() });
  const worker = new SharedWorker(env, () => fake.activities());
  await worker.start();
  return {
    env,
    worker,
    taskQueue: worker.taskQueue,
    get fake() {
      return fake;
    },
    newFake() {
      fake = new FakeProvider({ now: () => env.currentTimeMs() });
      return fake;
    },
    async stop() {
      await worker.stop();
      await env.teardown();
    },
  };
}
