// reconcilePayments: run by the Schedule `payment-reconcile` (src/client/reconcile-schedule.ts). Hands every
// recent PAYIN and automatic conversion to its providerPayment entity, so one whose webhook was lost while
// Temporal was down is still followed (issue 9, point 9; docs/spec-gaps.md "Ingress").
import { proxyActivities } from '@temporalio/workflow';
import { number, object, optional } from '../src/contract/plain-schema';
import type {
  ReconcileActivities,
  ReconcileRecentPaymentsResult,
} from '../activities/reconcile-activities';
import { parseWorkflowInput } from './failures';

const HOUR = 60 * 60 * 1000;

export interface ReconcilePaymentsInput {
  /** look at payments created this long ago or later (default 6 hours: several runs see each payment) */
  windowMs?: number;
}
/** A plain schema, not zod: no zod in the workflow bundle (docs/performance.md). */
export const ReconcilePaymentsInputShape = object({ windowMs: optional(number({ int: true, positive: true })) });

const { reconcileRecentPayments } = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '1m',
  scheduleToCloseTimeout: '15m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export async function reconcilePayments(rawInput: ReconcilePaymentsInput = {}): Promise<ReconcileRecentPaymentsResult> {
  const input = parseWorkflowInput(ReconcilePaymentsInputShape, rawInput);
  const since = new Date(Date.now() - (input.windowMs ?? 6 * HOUR)).toISOString();
  return reconcileRecentPayments({ since });
}
