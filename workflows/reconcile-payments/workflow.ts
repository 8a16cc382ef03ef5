// reconcilePayments: run by the Schedule `payment-reconcile` (src/client/reconcile-schedule.ts). Hands every
// recent PAYIN and automatic conversion to its providerPayment entity, so one whose webhook was lost while
// Temporal was down is still followed, and tells a followed payment's running entity a final status it missed (the
// sender gave up on its webhooks: docs/spec-gaps.md "Ingress"). Its input is parsed where the Schedule is
// made (zod at the edge). AUTO_UPGRADE (workflows/versioning.ts): its commands change only behind patched().
import type { ReconcileRecentPaymentsResult } from '../../activities/reconcile-activities';
import { reconcileActivities } from '../activity-options';
import type { ReconcilePaymentsInput } from './api';

const HOUR = 60 * 60 * 1000;

export async function reconcilePayments(
  input: ReconcilePaymentsInput = {},
): Promise<ReconcileRecentPaymentsResult> {
  const since = new Date(Date.now() - (input.windowMs ?? 6 * HOUR)).toISOString();
  return reconcileActivities.reconcileRecentPayments({ since });
}
