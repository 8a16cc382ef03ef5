// Which payloads a Schedule's runs share (docs/codec.md, "Bound to its workflow"). A payload is bound to exactly
// one workflow ID; the one exception is a Schedule: Temporal encodes the action's arguments once, for the action's
// workflow ID, and starts each run as `<that ID>-<nominal time>`, passing a run's result to the next
// (lastCompletionResult). So the runs of one Schedule share their payloads, and only when the action's ID has
// the reserved form `schedule:<scheduleId>`, which no other xborder workflow ID takes (each starts with its own
// type: `payment:`, `transfer:`, ...; every keyed workflow refuses an ID that is not its own,
// workflows/workflow-id-check.ts). A payment's ciphertext (bound to `payment:<key>`) therefore never decodes in
// `payment:<key>-2026-01-01T00:00:00Z`: only IDs the client encoded for a Schedule (reserved form) have runs. The form
// is exact (a Schedule ID never ends in a run's time), so no ID is at once a run and an action.
// What a Schedule's action carries must not be secret (its arguments are readable by every run of the Schedule).

/** The reserved prefix of Schedule action workflow IDs. */
export const SCHEDULE_WORKFLOW_ID_PREFIX = 'schedule:';

/**
 * A Schedule ID xborder binds payloads for: 1-200 of A-Z a-z 0-9 . _ : -, starting with a letter or digit, and never
 * ending in `-<RFC 3339 UTC time>`. So `schedule:<id>-<time>` is a run of `<id>` and never the action ID of a Schedule
 * `<id>-<time>`, and no ID belongs to two Schedules (the review found `schedule:a-<t1>-<t2>` and `schedule:a-<t1>-<t3>`
 * sharing payloads as runs of a Schedule `a-<t1>`).
 */
const SCHEDULE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
/** Temporal's Schedules append each run's nominal time, RFC 3339 UTC to the second. */
const RUN_TIME = /-\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const isScheduleId = (id: string): boolean => SCHEDULE_ID.test(id) && !RUN_TIME.test(id);

/** The action workflow ID of the Schedule `scheduleId`: its runs are `<this>-<nominal time>`. */
export function scheduleActionWorkflowId(scheduleId: string): string {
  if (!isScheduleId(scheduleId))
    throw new Error(
      `Schedule ID "${scheduleId.slice(0, 40)}" is not 1-200 of A-Z a-z 0-9 . _ : - starting with a letter or digit and not ending in -<time>: its runs would not be told apart from another Schedule's (docs/codec.md, "Bound to its workflow")`,
    );
  return `${SCHEDULE_WORKFLOW_ID_PREFIX}${scheduleId}`;
}

/**
 * The Schedule action ID whose runs `workflowId` belongs to: `workflowId` itself when it is a reserved action ID,
 * the action ID when it is `<reserved action ID>-<RFC 3339 UTC time>`, undefined for every other ID (one with
 * `schedule:` and anything but a valid Schedule ID included).
 */
export function scheduleOf(workflowId: string): string | undefined {
  if (!workflowId.startsWith(SCHEDULE_WORKFLOW_ID_PREFIX)) return undefined;
  const rest = workflowId.slice(SCHEDULE_WORKFLOW_ID_PREFIX.length);
  if (isScheduleId(rest)) return workflowId;
  const time = RUN_TIME.exec(rest);
  if (!time) return undefined;
  const scheduleId = rest.slice(0, time.index);
  return isScheduleId(scheduleId) ? `${SCHEDULE_WORKFLOW_ID_PREFIX}${scheduleId}` : undefined;
}

/**
 * Whether a payload bound to `bound` may be read in workflow `actual`: the same ID, or both of one Schedule (its
 * action and its runs). Nothing else: no prefix, suffix or pattern admits another ID.
 */
export function sameWorkflow(bound: string, actual: string): boolean {
  if (bound === actual) return true;
  const schedule = scheduleOf(actual);
  return schedule !== undefined && scheduleOf(bound) === schedule;
}
