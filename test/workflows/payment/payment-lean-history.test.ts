// Lean histories: a payment run on today's code records no patch marker (PINNED; its entity, under
// `entity-lean-history`, one), indexes once per change anyone can see, and starts its entity with
// the search attributes and memo the entity would upsert. Counted on the histories up to parked (created, the
// entity followed, both waiting on a timer). A file of its own: one time-skipping server per file.
import { temporal } from '@temporalio/proto';
import {
  WithStartWorkflowOperation,
  WorkflowIdConflictPolicy,
  type WorkflowHandle,
} from '@temporalio/client';
import { awaitCreatedUpdate, PAYMENT_WORKFLOW_TYPE, paymentWorkflowId } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import {
  CustomerIdKey,
  PAYMENT_PHASE_AT_START,
  PaymentPhaseKey,
  PaymentStatusKey,
  ProviderPaymentIdKey,
} from '../../../workflows/search-attributes';
import { uniqueWorkflowId } from '../../support/temporal';
import { recordNewHistories } from '../../support/record-new-histories';
import { eventually } from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const EventType = temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const WORKFLOW_TASK_EVENTS = [
  EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
];

/**
 * The history once the workflow waits on its first timer (parked), or, `untimed`, once its first workflow task
 * completed: an entity a payment subscribes to waits with no timer (entity-no-ladder-while-subscribed).
 */
async function parkedHistory(handle: WorkflowHandle, untimed = false): Promise<HistoryEvent[]> {
  const parkedOn = untimed
    ? EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED
    : EventType.EVENT_TYPE_TIMER_STARTED;
  return eventually(
    () => handle.fetchHistory().then((h) => h.events!),
    (events) => events.some((e) => e.eventType === parkedOn),
  );
}

function count(events: HistoryEvent[]) {
  const upserts = events.filter(
    (e) => e.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
  );
  // up to the first timer, and the update's completion when it comes after it in the same task
  const last = Math.max(
    events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED),
    events.findIndex((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED),
  );
  // no timer and no update (an untimed entity): all of it
  const parked = last < 0 ? events : events.slice(0, last + 1);
  return {
    // workflow-task events aside (counted below)
    events: parked.filter((e) => !WORKFLOW_TASK_EVENTS.includes(e.eventType!)).length,
    // A task completed with nothing to record and followed at once by the next (a local activity outlasting the
    // task's timeout on a loaded machine: the SDK's workflow-task heartbeat) is not a step of the design.
    workflowTasks: parked.filter(
      (e, i) =>
        e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED &&
        parked[i + 1]?.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
    ).length,
    patchMarkers: events.filter(
      (e) =>
        e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED &&
        e.markerRecordedEventAttributes?.markerName === 'core_patch',
    ).length,
    upserts: upserts.length,
    memoUpserts: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED)
      .length,
  };
}

it('records no patch marker on the payment (PINNED), one per patch of this build on its entity, and indexes only what changed, up to parked', async () => {
  bed.newFake();
  const key = uniqueWorkflowId('lean');
  // As startPayment starts it: update-with-start, the first phase anyone sees given with the start. The update
  // then arrives with the start, in the run's first workflow task, whatever the machine's load; an update sent
  // after the start may land in that task or in one of its own, which made the task count depend on timing.
  const startWorkflowOperation = new WithStartWorkflowOperation(PAYMENT_WORKFLOW_TYPE, {
    taskQueue: bed.taskQueue,
    workflowId: paymentWorkflowId(key),
    args: [{ paymentKey: key, request: paymentRequest(), options: { expiredLingerMs: MIN } }],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
    typedSearchAttributes: [{ key: PaymentPhaseKey, value: PAYMENT_PHASE_AT_START }],
  });
  const answer = await bed.env.client.workflow.executeUpdateWithStart(awaitCreatedUpdate, {
    startWorkflowOperation,
  });
  const handle = await startWorkflowOperation.workflowHandle();
  bed.worker.started.add(handle.workflowId);
  if (answer.outcome !== 'CREATED') throw new Error(`not created: ${JSON.stringify(answer)}`);
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(answer.providerPaymentId));
  bed.worker.started.add(entity.workflowId);

  const payment = count(await parkedHistory(handle));
  const entityCount = count(await parkedHistory(entity, true));
  // Before (main at the start of this change): the payment 21 events besides its 4 workflow tasks, 4 patch
  // markers, 7 upserts, a child start; the entity 8 besides its task, 2 markers, 3 upserts, 1 memo upsert.
  // Now: no child start (createPaymentAndFollow signals-with-start the entity), one marker each, and the
  // search attributes and memo given at start.
  // Since workflows/payment/ (PINNED: no patched()): no patch marker nor its TemporalChangeVersion upserts (2
  // events fewer), and the request's rules run in a local activity (its marker: 1 event more).
  expect(payment).toMatchObject({ events: 10, patchMarkers: 0, upserts: 1, memoUpserts: 0 });
  // Two tasks: the start with its update (the request's rules in a local activity, the create scheduled), then
  // the create's result (the phase indexed, the update answered, the timer started).
  expect(payment.workflowTasks).toBe(2);
  // The entity (AUTO_UPGRADE) reads a second patch in its first task, entity-fewer-actions (patches.ts): its marker
  // and the TemporalChangeVersion upsert the SDK writes with it are 2 events more (neither billed: docs/performance.md
  // "Actions per payment"); was events 5, patchMarkers 1, upserts 1. They go when the patch is removed.
  // A third, entity-no-ladder-while-subscribed (its marker and upsert: 2 events more), starts no timer while the
  // payment subscribes (1 event fewer, a billed timer); was events 7, patchMarkers 2, upserts 2.
  expect(entityCount).toEqual({ events: 8, workflowTasks: 1, patchMarkers: 3, upserts: 3, memoUpserts: 0 });

  // What operators filter on is all there: given at start, never lost for the lean path.
  const paymentAttributes = (await handle.describe()).typedSearchAttributes;
  expect(paymentAttributes.get(PaymentPhaseKey)).toBe('AWAITING_FUNDS');
  expect(paymentAttributes.get(ProviderPaymentIdKey)).toBe(answer.providerPaymentId);
  const described = await entity.describe();
  expect(described.typedSearchAttributes.get(ProviderPaymentIdKey)).toBe(answer.providerPaymentId);
  expect(described.typedSearchAttributes.get(PaymentStatusKey)).toBe('AWAITING_FUNDS');
  expect(described.typedSearchAttributes.get(CustomerIdKey)).toBe('cus_1');
  expect(described.memo).toEqual({ role: 'ORDERED', linkAccountId: null, type: expect.any(String) });

  // XBORDER_RECORD_HISTORIES=1: adds this scenario's histories (new files only) for the replay test
  await recordNewHistories(bed.env.client, bed.env.address, 'lean-history-parked', [
    handle.workflowId,
    entity.workflowId,
  ]);
});
