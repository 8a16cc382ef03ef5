// The caller's workflow, as the request's inbound link names it: the caller's server links each Nexus request to the
// NexusOperationScheduled event of the workflow that made it. Used to bind the answer to that workflow (the codec),
// never as identity: a link is written by whoever sends the request (./caller.ts).
import type { Link } from 'nexus-rpc';
import { convertNexusLinkToWorkflowEventLink } from '@temporalio/nexus/lib/link-converter';

const WORKFLOW_EVENT_LINK = 'temporal.api.common.v1.Link.WorkflowEvent';

/** The namespace and workflow ID of the first workflow-event link, or undefined (a caller that is no workflow). */
export function callerWorkflowOf(
  links: readonly Link[] | undefined,
): { namespace: string; workflowId: string } | undefined {
  for (const link of links ?? []) {
    if (link.type !== WORKFLOW_EVENT_LINK) continue;
    try {
      const event = convertNexusLinkToWorkflowEventLink(link);
      if (event.namespace && event.workflowId)
        return { namespace: event.namespace, workflowId: event.workflowId };
    } catch {
      // a malformed link names nobody: the answer is left unbound, as without links
    }
  }
  return undefined;
}
