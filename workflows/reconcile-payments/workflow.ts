// reconcilePayments: run by the Schedule `payment-reconcile` (src/client/reconcile-schedule.ts). Hands every
// recent PAYIN and automatic conversion to its providerPayment entity, so one whose webhook was lost while
// Temporal was down is still followed, and tells a followed payment's running entity a final status it missed (the
// sender gave up on its webhooks: docs/spec-gaps.md "Ingress"). Its input is parsed where the Schedule is
// made (zod at the edge). AUTO_UPGRADE (workflows/versioning.ts): its commands change only behind patched().
import { proxyActivities } from '@temporalio/workflow';
import type {
  ReconcileActivities,
  ReconcileRecentPaymentsResult,
} from '../../activities/reconcile-activities';
import type { ReconcilePaymentsInput } from './api';

const HOUR = 60 * 60 * 1000;

// One attempt reads pages for at most 5 minutes and heartbeats its place after each (activities/reconcile-activities.ts):
// a retry goes on from the last recorded page, so the whole run may take several attempts, inside the Schedule's
// 30-minute execution timeout (src/client/reconcile-schedule.ts). Only options changed here, never a command
// (replay compares an activity's type and id, not its timeouts: docs/provider-client.md "Retries and replay").
const { reconcileRecentPayments } = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '1m',
  scheduleToCloseTimeout: '25m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m' },
});

export async function reconcilePayments(
  input: ReconcilePaymentsInput = {},
): Promise<ReconcileRecentPaymentsResult> {
  const since = new Date(Date.now() - (input.windowMs ?? 6 * HOUR)).toISOString();
  return reconcileRecentPayments({ since });
}
