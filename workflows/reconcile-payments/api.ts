// The reconcilePayments API: its type name and input. Run by the Schedule `payment-reconcile`
// (src/client/reconcile-schedule.ts). Pure: imported by the workflow and by its callers alike.
export type { ReconcilePaymentsInput } from '../inputs';

/** The workflow type (the function's name in workflows/index.ts). */
export const RECONCILE_PAYMENTS_WORKFLOW_TYPE = 'reconcilePayments';
