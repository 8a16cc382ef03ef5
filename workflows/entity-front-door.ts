// The entities' front door (providerPayment, providerCustomer): one signalWithStart with the policies every
// starter of an entity uses (ingress, reconcile, a payment following its provider payment), written once. A
// message for a running entity joins it; one after the entity closed starts a new run, so a late event is never
// lost and an entity that ended after its linger period starts again (docs/architecture.md, "Entities").
// A workflow API module (.dependency-cruiser.cjs WORKFLOW_APIS): clients import it, never @temporalio/client by value.
import type { Client, WorkflowSignalWithStartOptions } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { SignalDefinition } from '@temporalio/workflow';

export type EntityStartOptions = Partial<
  Pick<WorkflowSignalWithStartOptions, 'typedSearchAttributes' | 'memo' | 'staticSummary' | 'priority'>
>;

/** signalWithStart of the entity `workflowId` (USE_EXISTING, ALLOW_DUPLICATE) with `input` and one message. */
export async function signalWithStartEntity<I, S extends unknown[]>(
  client: Pick<Client, 'workflow'>,
  workflowType: string,
  start: {
    workflowId: string;
    taskQueue: string;
    input: I;
    signal: SignalDefinition<S>;
    signalArgs: S;
  } & EntityStartOptions,
): Promise<void> {
  const { input, ...options } = start;
  await client.workflow.signalWithStart(workflowType, {
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    ...options,
    // the generic signal type S is checked at the call above; the client's overloads cannot infer it through a spread
  } as Parameters<Client['workflow']['signalWithStart']>[1]);
}
