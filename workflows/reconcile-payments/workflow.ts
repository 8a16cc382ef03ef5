// reconcilePayments: run by the Schedule `payment-reconcile` (src/client/reconcile-schedule.ts). Hands every
// recent PAYIN and automatic conversion to its providerPayment entity, so one whose webhook was lost while
// Temporal was down is still followed, and tells a followed payment's running entity a final status it missed (the
// sender gave up on its webhooks: docs/spec-gaps.md "Ingress"). Its input is parsed where the Schedule is
// made (zod at the edge). AUTO_UPGRADE (workflows/versioning.ts): its commands change only behind patched().
import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { ReconcileRecentPaymentsResult } from '../../activities/reconcile-activities';
import { reconcileActivities } from '../activity-options';
import type { ReconcilePaymentsInput } from './api';

const HOUR = 60 * 60 * 1000;

export async function reconcilePayments(
  input: ReconcilePaymentsInput = {},
): Promise<ReconcileRecentPaymentsResult> {
  const since = new Date(Date.now() - (input.windowMs ?? 6 * HOUR)).toISOString();
  const result = await reconcileActivities.reconcileRecentPayments({ since });
  // A run cut at its bound saw only part of the service's payments: failed, named, it shows in the Schedule's runs and
  // never counts as a completed sweep, from whose start the next run narrows its look-back for moves after the
  // outcome (activities/reconcile-activities.ts, movedSinceMs). Asked only for a cut run (none kept in histories).
  if (result.listingCut && patched(RECONCILE_PATCHES.failsWhenListingCut)) {
    throw ApplicationFailure.nonRetryable(
      `the sweep stopped at its bound after ${result.listed} payments (entities not final: ${result.entitiesNotFinal ?? 0}); payments past it were not seen`,
      'RECONCILE_LISTING_CUT',
      result,
    );
  }
  return result;
}

/**
 * This workflow's patches (AUTO_UPGRADE): one owner, asked where the older code took the other branch.
 * | id                               | stage   | kept histories                                     |
 * | reconcile-fails-when-listing-cut | patched | new: asked only by a run whose listing was cut (none kept) |
 */
export const RECONCILE_PATCHES = {
  failsWhenListingCut: 'reconcile-fails-when-listing-cut',
} as const;
