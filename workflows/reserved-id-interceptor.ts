// Workflow interceptor module (bundled with workflowInterceptorModules in BOTH bundles, workers/workflow-bundle.ts):
// only the nexusOutcome relay runs under a `nexus-outcome:` ID, and the relay under no other ID (docs/codec.md,
// "Nexus callers"; SECURITY.md, "Nexus"). The codec picks the keys of a payload from its workflow ID alone: a
// `nexus-outcome:<endpoint>:<key>` ID is read with that Nexus caller's own key set. So a caller holding only its key,
// with write access to Temporal, could start any other type under such an ID with an input it encrypted itself (a
// paymentEvents run with forged pending events, signed with xborder's webhook secret on delivery). The decode happens
// before the workflow runs; this makes sure nothing acts on it: the run fails at its first activation, before the
// workflow function is called, so no handler is set and no command is scheduled. One place for every type, present
// and future, rather than a check each workflow must remember. Deterministic (type and ID are in the start event),
// free of zod and patched(): no kept history runs a type under the other's IDs, so every one replays unchanged.
import { ApplicationFailure, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { NEXUS_OUTCOME_WORKFLOW_ID_PREFIX } from '../src/codec/nexus-outcome-binding';
import { NEXUS_OUTCOME_WORKFLOW_TYPE } from './nexus-outcome/api';

/** ApplicationFailure type of a run whose ID is reserved for another type. Not retryable: the ID will not change. */
export const RESERVED_WORKFLOW_ID = 'RESERVED_WORKFLOW_ID';

/** The failure for a run of `workflowType` under `workflowId`, or null when that type may run under that ID. */
export function reservedWorkflowIdRefusal(
  workflowType: string,
  workflowId: string,
): ApplicationFailure | null {
  const relayId = workflowId.startsWith(NEXUS_OUTCOME_WORKFLOW_ID_PREFIX);
  const relayType = workflowType === NEXUS_OUTCOME_WORKFLOW_TYPE;
  if (relayId === relayType) return null;
  // IDs are business keys, never personal data (src/codec/identifiers.ts): the message may name them
  return ApplicationFailure.create({
    type: RESERVED_WORKFLOW_ID,
    nonRetryable: true,
    message: relayType
      ? `refused: ${NEXUS_OUTCOME_WORKFLOW_TYPE} runs only under an ID ${NEXUS_OUTCOME_WORKFLOW_ID_PREFIX}<endpoint>:<paymentKey>, not "${workflowId}"`
      : `refused: the IDs ${NEXUS_OUTCOME_WORKFLOW_ID_PREFIX}… are reserved for ${NEXUS_OUTCOME_WORKFLOW_TYPE} (read with a Nexus caller's keys); ${workflowType} never runs under "${workflowId}"`,
  });
}

export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const { workflowType, workflowId } = workflowInfo();
        const refusal = reservedWorkflowIdRefusal(workflowType, workflowId);
        if (refusal) throw refusal;
        return next(input);
      },
    },
  ],
});
