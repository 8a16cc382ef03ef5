// Every keyed workflow refuses an input whose key is not its own ID's (docs/codec.md, "Bound to its workflow";
// SECURITY.md). The codec already refuses a payload copied from another workflow; this is the second lock: a start
// input naming `payment:order-1` run under any other ID (a copy, a typo, a caller's bug) never acts, so one key
// never means two runs moving money. Pure and free of zod and patched(): PINNED workflows call it as it is, and
// AUTO_UPGRADE ones behind their own patch id (a run recorded before the check replays the old way).
import { ApplicationFailure } from '@temporalio/workflow';

/** ApplicationFailure type of a run whose ID is not the one its input's key names. Not retryable: the input will not change. */
export const WORKFLOW_ID_MISMATCH = 'WORKFLOW_ID_MISMATCH';

/**
 * The failure to throw when `actual` (workflowInfo().workflowId) is not `expected` (the ID the input's key names:
 * paymentWorkflowId(input.paymentKey), ...), or null when it is. Exact comparison: no prefix, suffix or case.
 * The IDs are business keys, never personal data (identifiers.ts), so the message may name them.
 */
export function workflowIdMismatch(expected: string, actual: string): ApplicationFailure | null {
  if (actual === expected) return null;
  return ApplicationFailure.create({
    type: WORKFLOW_ID_MISMATCH,
    nonRetryable: true,
    message: `refused: this run's ID "${actual}" is not "${expected}", the ID its input's key names; a workflow acts only on its own key (start it under ${JSON.stringify(expected)})`,
  });
}

/** Throws the mismatch failure, if any: the first line of a PINNED keyed workflow. */
export function refuseInputOfAnotherWorkflow(expected: string, actual: string): void {
  const mismatch = workflowIdMismatch(expected, actual);
  if (mismatch) throw mismatch;
}
