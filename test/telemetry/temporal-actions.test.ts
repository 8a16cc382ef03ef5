// Billable Temporal actions counted from a history: the mapping on small synthetic event lists, and the counts of
// two recorded histories (the demo payment and its provider-payment entity).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import Long from 'long';
import { addCounts, countActions } from '../../src/telemetry/temporal-actions';

const T = temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const ev = (eventType: number, attrs: Partial<HistoryEvent> = {}): HistoryEvent => ({ eventType, ...attrs });
const upsert = (...keys: string[]): HistoryEvent =>
  ev(T.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES, {
    upsertWorkflowSearchAttributesEventAttributes: {
      searchAttributes: {
        indexedFields: Object.fromEntries(keys.map((k) => [k, { data: new Uint8Array() }])),
      },
    },
  });
const marker = (markerName: string): HistoryEvent =>
  ev(T.EVENT_TYPE_MARKER_RECORDED, { markerRecordedEventAttributes: { markerName } });
const workflowTask = [
  T.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  T.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
].map((t) => ev(t));

/** A recorded history: the current build's (test/replay/histories) or an archived build's (test/replay/archive/<build>). */
function recorded(name: string, build?: string): HistoryEvent[] {
  const file = build
    ? path.join(__dirname, '..', 'replay', 'archive', build, `${name}.json`)
    : path.join(__dirname, '..', 'replay', 'histories', `${name}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { events: HistoryEvent[] }).events;
}

describe('Temporal actions counted from a history', () => {
  it('bills a start, signals, an accepted update, timers and activities; workflow tasks cost nothing', () => {
    const c = countActions([
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED),
      ...workflowTask,
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED),
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED),
      ev(T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
      ev(T.EVENT_TYPE_ACTIVITY_TASK_STARTED, { activityTaskStartedEventAttributes: { attempt: 1 } }),
      ev(T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED),
      ev(T.EVENT_TYPE_TIMER_STARTED),
      ev(T.EVENT_TYPE_TIMER_CANCELED),
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
      ...workflowTask,
      ev(T.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED),
    ]);
    expect(c.billed).toEqual({
      start: 1,
      signal: 2,
      update: 1,
      activity: 1,
      localActivity: 0,
      timer: 1,
      upsert: 0,
    });
    expect(c.total).toBe(6);
  });

  it('bills each activity retry seen on the Started event, and each workflow task that recorded local activities', () => {
    const c = countActions([
      ev(T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED),
      ev(T.EVENT_TYPE_ACTIVITY_TASK_STARTED, { activityTaskStartedEventAttributes: { attempt: 3 } }),
      ev(T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED), // cancelled before it started: still one action
      marker('core_local_activity'),
      marker('core_local_activity'),
    ]);
    expect(c.billed).toMatchObject({ activity: 4, localActivity: 2 });
    expect(c.listed.localMarkers).toBe(2);
    expect(c.activityRetries).toBe(2);
    expect(c.total).toBe(6);
  });

  it('bills the local activities of one workflow task once ("All Local Activities associated with one Workflow Task count as a single Action")', () => {
    const inTask = (completedBy: number): HistoryEvent =>
      ev(T.EVENT_TYPE_MARKER_RECORDED, {
        markerRecordedEventAttributes: {
          markerName: 'core_local_activity',
          // an int64, as the server writes it
          workflowTaskCompletedEventId: Long.fromNumber(completedBy),
        },
      });
    const c = countActions([inTask(4), inTask(4), inTask(9)]);
    expect(c.billed.localActivity).toBe(2);
    expect(c.listed.localMarkers).toBe(3);
    expect(c.total).toBe(2);
  });

  it('lists patch markers, memo upserts and TemporalChangeVersion-only upserts without billing them', () => {
    const c = countActions([
      marker('core_patch'),
      upsert('TemporalChangeVersion'),
      upsert('TemporalChangeVersion', 'PaymentPhase'), // sets something besides: billed
      upsert('PaymentPhase'),
      ev(T.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED),
      ev(T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED), // billed where it lands
      ev(T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED), // billed in the child's history
    ]);
    expect(c.billed.upsert).toBe(2);
    expect(c.listed).toEqual({ memo: 1, marker: 1, changeVersion: 1, localMarkers: 0 });
    expect(c.total).toBe(2);
  });

  it('reads event types as history JSON files spell them', () => {
    const c = countActions([
      { eventType: 'EVENT_TYPE_TIMER_STARTED' as never },
      { eventType: 'TimerStarted' as never },
      { eventType: 'WorkflowExecutionSignaled' as never },
    ]);
    expect(c.billed).toMatchObject({ timer: 2, signal: 1 });
  });

  it('counts the recorded demo payment and its provider-payment entity (62 + 72 events)', () => {
    const payment = countActions(recorded('demo--payment', '0.1.0'));
    const entity = countActions(recorded('demo--providerPayment'));
    // payment: its start, 5 signals from the entity, getRate + createPayment, 4 timers, 7 phase upserts (the
    // child start failed: the webhook had started the entity first, so that start is billed in the entity)
    expect(payment.billed).toEqual({
      start: 1,
      signal: 5,
      update: 0,
      activity: 2,
      localActivity: 0,
      timer: 4,
      upsert: 7,
    });
    expect(payment.total).toBe(19);
    // entity: its start (by signal-with-start), 6 signals (webhooks and the subscribe), one read, 5 timers, 5 upserts
    expect(entity.billed).toEqual({
      start: 1,
      signal: 6,
      update: 0,
      activity: 1,
      localActivity: 0,
      timer: 5,
      upsert: 5,
    });
    expect(entity.listed).toEqual({ memo: 2, marker: 0, changeVersion: 0, localMarkers: 0 });
    expect(entity.total).toBe(18);
    expect(addCounts(payment, entity).total).toBe(37);
  });
});
