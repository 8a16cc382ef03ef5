// Billable Temporal actions of one workflow run, counted from its event history: the unit Temporal Cloud bills
// (about $25–50 per million) and the work a self-hosted cluster pays in database writes. Pure: no I/O.
//
// The mapping follows Temporal's "Temporal Cloud Actions" page (docs.temporal.io/cloud/actions), event by event:
//   start          WorkflowExecutionStarted — a client start, a signal-with-start or update-with-start that
//                  started the run, a continue-as-new run, a child start. Counted in the started run's own
//                  history, so a parent's StartChildWorkflowExecutionInitiated is not counted again (a child
//                  start that failed because the workflow already ran bills no start at all).
//   signal         WorkflowExecutionSignaled — from a client, a signal-with-start, or another workflow. Counted
//                  where it lands: the sender's SignalExternalWorkflowExecutionInitiated is the same signal.
//   update         WorkflowExecutionUpdateAccepted (update-with-start included).
//   activity       ActivityTaskScheduled, plus one per retry: ActivityTaskStarted.attempt − 1 (the server writes
//                  only the last attempt's Started event, with its attempt number).
//   localActivity  MarkerRecorded 'core_local_activity', one per workflow task that recorded any: "All Local
//                  Activities associated with one Workflow Task count as a single Action"
//                  (docs.temporal.io/evaluate/cloud/actions). The markers themselves are listed as `localMarkers`.
//   timer          TimerStarted — `sleep` and every `condition(fn, timeout)` alike.
//   upsert         UpsertWorkflowSearchAttributes, except one that only sets TemporalChangeVersion (the SDK
//                  writes it with a patch marker; Cloud does not bill it).
// Listed, not billed here:
//   memo           WorkflowPropertiesModified (upsertMemo): shown apart, since its billing is not stated with
//                  the rest; add it to `billed` if your plan bills it.
//   marker         MarkerRecorded other than local activities (patches: 'core_patch'). Workflow state, not billed.
//   changeVersion  the TemporalChangeVersion-only upserts left out above.
//   localMarkers   every local activity's marker (several in one workflow task bill once, above).
// What a history cannot show, and so is not in these counts (count or state it apart):
//   - queries (billed per query; a client's `describe` is not a query),
//   - updates rejected by a validator (billed, never written to history),
//   - activity heartbeats (billed when recorded; the history keeps none),
//   - schedule actions (each scheduled start is billed on the schedule, besides the started run's own start),
//   - local-activity retries inside one marker, signals to a workflow that was already closed (the sender's
//     SignalExternalWorkflowExecutionFailed), export, Nexus.
import { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const EventType = temporal.api.enums.v1.EventType;

export const BILLED_KINDS = [
  'start',
  'signal',
  'update',
  'activity',
  'localActivity',
  'timer',
  'upsert',
] as const;
export const LISTED_KINDS = ['memo', 'marker', 'changeVersion', 'localMarkers'] as const;
export type BilledKind = (typeof BILLED_KINDS)[number];
export type ListedKind = (typeof LISTED_KINDS)[number];

export interface ActionCount {
  /** billable actions by kind; `activity` includes retries */
  readonly billed: Record<BilledKind, number>;
  /** activity attempts beyond the first (already inside `billed.activity`) */
  readonly activityRetries: number;
  /** the sum of `billed` */
  readonly total: number;
  /** shown, not billed (see the mapping above) */
  readonly listed: Record<ListedKind, number>;
}

const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
const CHANGE_VERSION_KEY = 'TemporalChangeVersion';

/**
 * The event type of an event as `fetchHistory()` gives it (the enum number) or as a history JSON file holds it
 * ('EVENT_TYPE_TIMER_STARTED', or the short form 'TimerStarted').
 */
function typeOf(event: HistoryEvent): number | undefined {
  const raw = event.eventType as unknown;
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return undefined;
  const long = raw.startsWith('EVENT_TYPE_')
    ? raw
    : `EVENT_TYPE_${raw.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
  return (EventType as unknown as Record<string, number | undefined>)[long];
}

function isChangeVersionOnly(event: HistoryEvent): boolean {
  const keys = Object.keys(
    event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {},
  );
  return keys.length > 0 && keys.every((k) => k === CHANGE_VERSION_KEY);
}

export function emptyCount(): ActionCount {
  return {
    billed: { start: 0, signal: 0, update: 0, activity: 0, localActivity: 0, timer: 0, upsert: 0 },
    activityRetries: 0,
    total: 0,
    listed: { memo: 0, marker: 0, changeVersion: 0, localMarkers: 0 },
  };
}

/** The actions of one run's history (a continue-as-new chain: count each run and `addCounts`). */
export function countActions(events: readonly HistoryEvent[]): ActionCount {
  const billed = { ...emptyCount().billed };
  const listed = { ...emptyCount().listed };
  let activityRetries = 0;
  // the workflow tasks whose completion recorded a local activity's marker: one billed action each
  const localActivityTasks = new Set<string>();
  for (const event of events) {
    switch (typeOf(event)) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        billed.start++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        billed.signal++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
        billed.update++;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
        billed.activity++;
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const retries = Math.max(0, Number(event.activityTaskStartedEventAttributes?.attempt ?? 1) - 1);
        billed.activity += retries;
        activityRetries += retries;
        break;
      }
      case EventType.EVENT_TYPE_TIMER_STARTED:
        billed.timer++;
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED:
        if (event.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER) {
          listed.localMarkers++;
          // a marker that does not name its task (not written by a server) bills on its own
          const completedBy = event.markerRecordedEventAttributes.workflowTaskCompletedEventId;
          const task = completedBy == null ? `marker ${listed.localMarkers}` : String(completedBy);
          if (!localActivityTasks.has(task)) {
            localActivityTasks.add(task);
            billed.localActivity++;
          }
        } else listed.marker++;
        break;
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        if (isChangeVersionOnly(event)) listed.changeVersion++;
        else billed.upsert++;
        break;
      case EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED:
        listed.memo++;
        break;
      default:
        break;
    }
  }
  return { billed, activityRetries, total: sum(billed), listed };
}

/** The sum of several counts (the workflows of one payment, or the runs of one continue-as-new chain). */
export function addCounts(...counts: readonly ActionCount[]): ActionCount {
  const out = emptyCount();
  const billed = { ...out.billed };
  const listed = { ...out.listed };
  let activityRetries = 0;
  for (const c of counts) {
    for (const k of BILLED_KINDS) billed[k] += c.billed[k];
    for (const k of LISTED_KINDS) listed[k] += c.listed[k];
    activityRetries += c.activityRetries;
  }
  return { billed, activityRetries, total: sum(billed), listed };
}

function sum(billed: Record<BilledKind, number>): number {
  return BILLED_KINDS.reduce((n, k) => n + billed[k], 0);
}

/** 'start 1, signal 3, activity 2, timer 4, upsert 2' — the kinds that occur, for tables and messages. */
export function describeCount(c: ActionCount): string {
  const parts = BILLED_KINDS.filter((k) => c.billed[k] > 0).map((k) => `${k} ${c.billed[k]}`);
  const listed = LISTED_KINDS.filter((k) => c.listed[k] > 0).map((k) => `${k} ${c.listed[k]}`);
  return parts.join(', ') + (listed.length > 0 ? `; not billed: ${listed.join(', ')}` : '');
}
