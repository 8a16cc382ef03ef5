// Start an entity workflow as an abandoned child, or subscribe to it when a webhook started it first.
import {
  ChildWorkflowCancellationType,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError, type SearchAttributePair } from '@temporalio/common';
import { subscribeSignal, type SubscribeRequest } from './provider-payment/api';

export interface FollowOptions {
  /**
   * Whether a Temporal cancel of the caller is kept from the entity (ABANDON on cancel). Every caller says so
   * explicitly: the callers are PINNED workflows, which have no patched() branches (workflows/versioning.ts), so
   * this shared module reads no patch on their behalf.
   */
  abandonOnCancel: boolean;
  /** what the entity would upsert first (given at start, it upserts nothing) */
  typedSearchAttributes?: SearchAttributePair[];
  memo?: Record<string, unknown>;
  /**
   * what the `subscribe` signal carries besides the subscriber when the entity already runs: a payment's events
   * registration, so a move after its outcome is still sent (docs/outbound-events.md, payment.moved_after_outcome)
   */
  subscribeWith?: Omit<SubscribeRequest, 'workflowId'>;
}

export async function startOrSubscribe<A>(
  workflowType: string,
  entityId: string,
  input: A,
  staticSummary: string,
  options: FollowOptions,
): Promise<void> {
  const subscriber = workflowInfo().workflowId;
  try {
    await startChild(workflowType, {
      workflowId: entityId,
      args: [input],
      // An entity follows money that may be moving: it outlives its parent (ABANDON on close) and a Temporal
      // cancel of the parent never reaches it (ABANDON on cancel: a parent's cancel never stops a payment whose
      // money moves). Other subscribers and webhooks depend on it too, and it ends by itself after its linger period.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      ...(options.abandonOnCancel ? { cancellationType: ChildWorkflowCancellationType.ABANDON } : {}),
      ...(options.typedSearchAttributes ? { typedSearchAttributes: options.typedSearchAttributes } : {}),
      ...(options.memo ? { memo: options.memo } : {}),
      staticSummary,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    try {
      await getExternalWorkflowHandle(entityId).signal(subscribeSignal, {
        workflowId: subscriber,
        ...options.subscribeWith,
      });
    } catch (signalErr) {
      // closed between the two calls: the caller's own reconciliation covers it
      log.warn('could not subscribe to the entity', { entityId, error: String(signalErr) });
    }
  }
}
