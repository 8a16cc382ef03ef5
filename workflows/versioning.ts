// Worker Deployment Versioning (docs/deployment.md, "Safe deploys with Worker Versioning"): the
// versioning behaviour of every workflow the worker registers. Every worker is versioned (the time-skipping test
// server, which has no versioning, aside). The server refuses a behaviour sent by an unversioned
// worker ("versioning behavior cannot be specified without deployment options being set with versioned mode"),
// which SDK 1.24 does not filter out: so it is declared only when the run's first workflow task is on a Worker
// Deployment Version (workflowInfo().currentDeploymentVersion, deterministic: replay reads it from the history).
//
// PINNED: a run stays on the Worker Deployment Version (build) that started it, to its end. The money workflows
// live for days (three business days of funding, returns after completion): a running payment finishes on the
// code that started it, so a deploy never replays its history on new code. Their children (onboardCustomer,
// registerAccount, payment under transfer) start on the parent's version.
//
// AUTO_UPGRADE: a run moves to the deployment's Current Version at its next workflow task, and a continue-as-new
// starts the next run on the Current Version. The long-lived entities (providerPayment, providerCustomer,
// rateBoard) never end, so pinning them would keep an old build alive forever; the scheduled short runs
// (refreshQuotes, reconcilePayments) move no money and must not keep a drained build alive either. Their code
// changes therefore still go behind patched() (the house rule). PINNED workflows have no patched() branches: a
// change to them ships as a new build, and histories of older builds move to test/replay/archive/<build>/.
import type { VersioningBehavior, WorkflowDefinitionOptions } from '@temporalio/common';
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { ONBOARD_CUSTOMER_WORKFLOW_TYPE } from './onboard-customer/api';
import { onboardCustomer } from './onboard-customer/workflow';
import { payment } from './payment/workflow';
import { PAYMENT_WORKFLOW_TYPE } from './payment/api';
import { PROVIDER_CUSTOMER_WORKFLOW_TYPE } from './provider-customer/api';
import { providerCustomer } from './provider-customer/workflow';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE } from './provider-payment/api';
import { providerPayment } from './provider-payment/workflow';
import { RATE_BOARD_WORKFLOW_TYPE } from './rate-board/api';
import { rateBoard } from './rate-board/workflow';
import { RECONCILE_PAYMENTS_WORKFLOW_TYPE } from './reconcile-payments/api';
import { reconcilePayments } from './reconcile-payments/workflow';
import { REFRESH_QUOTES_WORKFLOW_TYPE } from './refresh-quotes/api';
import { refreshQuotes } from './refresh-quotes/workflow';
import { REGISTER_ACCOUNT_WORKFLOW_TYPE } from './register-account/api';
import { registerAccount } from './register-account/workflow';
import { TRANSFER_WORKFLOW_TYPE } from './transfer/api';
import { transfer } from './transfer/workflow';
import { paymentEvents } from './payment-events/workflow';
import { PAYMENT_EVENTS_WORKFLOW_TYPE } from './payment-events/api';
import { RECONCILIATION_REPORT_WORKFLOW_TYPE } from './reconciliation-report/api';
import { reconciliationReport } from './reconciliation-report/workflow';
import { NEXUS_OUTCOME_WORKFLOW_TYPE } from './nexus-outcome/api';
import { nexusOutcome } from './nexus-outcome/workflow';

/**
 * Workflow type → behaviour: every workflow workflows/index.ts registers (test/unit/worker-versioning.test.ts fails
 * to compile when one is missing; the check lives there so that this module, which index.ts loads, does not import
 * index.ts back).
 */
export const WORKFLOW_VERSIONING_BEHAVIORS = {
  [PAYMENT_WORKFLOW_TYPE]: 'PINNED',
  [TRANSFER_WORKFLOW_TYPE]: 'PINNED',
  [ONBOARD_CUSTOMER_WORKFLOW_TYPE]: 'PINNED',
  [REGISTER_ACCOUNT_WORKFLOW_TYPE]: 'PINNED',
  [PROVIDER_PAYMENT_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  [PROVIDER_CUSTOMER_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  [RATE_BOARD_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  [REFRESH_QUOTES_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  [RECONCILE_PAYMENTS_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  // lives as long as a payment's events keep coming; moves no money (docs/outbound-events.md)
  [PAYMENT_EVENTS_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  // a daily scheduled run that writes files and moves no money: must not keep a drained build alive
  [RECONCILIATION_REPORT_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
  // relays a payment's outcome to a Nexus caller for as long as the payment runs (days); moves no money
  [NEXUS_OUTCOME_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
} as const satisfies Record<string, VersioningBehavior>;

/**
 * The behaviour, on a versioned worker only. A run whose first task was on an unversioned worker (started before
 * the switch to versioned workers) declares none and gets the worker's default, AUTO_UPGRADE: it was never pinned.
 */
function onVersionedWorker(versioningBehavior: VersioningBehavior): () => WorkflowDefinitionOptions {
  return () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior } : {});
}

const behaviors = WORKFLOW_VERSIONING_BEHAVIORS;
setWorkflowOptions(onVersionedWorker(behaviors[PAYMENT_WORKFLOW_TYPE]), payment);
setWorkflowOptions(onVersionedWorker(behaviors[TRANSFER_WORKFLOW_TYPE]), transfer);
setWorkflowOptions(onVersionedWorker(behaviors[ONBOARD_CUSTOMER_WORKFLOW_TYPE]), onboardCustomer);
setWorkflowOptions(onVersionedWorker(behaviors[REGISTER_ACCOUNT_WORKFLOW_TYPE]), registerAccount);
setWorkflowOptions(onVersionedWorker(behaviors[PROVIDER_PAYMENT_WORKFLOW_TYPE]), providerPayment);
setWorkflowOptions(onVersionedWorker(behaviors[PROVIDER_CUSTOMER_WORKFLOW_TYPE]), providerCustomer);
setWorkflowOptions(onVersionedWorker(behaviors[RATE_BOARD_WORKFLOW_TYPE]), rateBoard);
setWorkflowOptions(onVersionedWorker(behaviors[REFRESH_QUOTES_WORKFLOW_TYPE]), refreshQuotes);
setWorkflowOptions(onVersionedWorker(behaviors[RECONCILE_PAYMENTS_WORKFLOW_TYPE]), reconcilePayments);
setWorkflowOptions(onVersionedWorker(behaviors[PAYMENT_EVENTS_WORKFLOW_TYPE]), paymentEvents);
setWorkflowOptions(onVersionedWorker(behaviors[RECONCILIATION_REPORT_WORKFLOW_TYPE]), reconciliationReport);
setWorkflowOptions(onVersionedWorker(behaviors[NEXUS_OUTCOME_WORKFLOW_TYPE]), nexusOutcome);
