// The `payment-reconcile` Schedule at the end of a chaos scenario: the chaos stacks run without the
// worker's Schedules (schedules: false: one namespace serves every scenario's task queue), so each scenario
// creates its own copy of the production Schedule (src/client/reconcile-schedule.ts) on its task queue,
// triggers it once, as its 15-minute interval would, waits for the reconcilePayments run and deletes it.
import type { LocalStack } from '../../src/cli/stack';
import { ensureReconcileSchedule } from '../../src/client/reconcile-schedule';
import type { ReconcileRecentPaymentsResult } from '../../activities/reconcile-activities';

const DAY = 24 * 60 * 60_000;

export async function triggerReconcileSchedule(
  stack: LocalStack,
  scheduleId: string,
  timeoutMs = 120_000,
): Promise<ReconcileRecentPaymentsResult & { workflowId: string }> {
  // An interval that never comes during the run: only the trigger starts the workflow.
  await ensureReconcileSchedule(stack.client, {
    taskQueue: stack.taskQueue,
    scheduleId,
    everyMs: DAY,
    windowMs: 6 * 60 * 60_000,
  });
  const schedule = stack.client.schedule.getHandle(scheduleId);
  try {
    await schedule.trigger();
    const deadline = Date.now() + timeoutMs;
    let workflowId: string | undefined;
    while (!workflowId) {
      const described = await schedule.describe();
      const action = [
        ...described.info.recentActions.map((r) => r.action),
        ...described.info.runningActions,
      ][0];
      workflowId = action?.type === 'startWorkflow' ? action.workflow.workflowId : undefined;
      if (workflowId) break;
      if (Date.now() > deadline)
        throw new Error(`schedule ${scheduleId}: no run started within ${timeoutMs} ms of the trigger`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const result = (await stack.client.workflow
      .getHandle(workflowId)
      .result()) as ReconcileRecentPaymentsResult;
    return { ...result, workflowId };
  } finally {
    await schedule.delete().catch(() => undefined);
  }
}
