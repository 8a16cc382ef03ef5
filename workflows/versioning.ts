// Worker Deployment Versioning (issue 14; docs/deployment.md, "Safe deploys with Worker Versioning"): the
// versioning behaviour of every workflow the worker registers. It matters only on a versioned worker
// (XBORDER_WORKER_VERSIONING=true, the Lambda worker). The server refuses a behaviour sent by an unversioned
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
// changes therefore still go behind patched() (the house rule), which PINNED workflows no longer need but keep:
// the same code runs unversioned (npm start, tests) and the replay tests replay it there.
import type { VersioningBehavior, WorkflowDefinitionOptions } from '@temporalio/common';
import { setWorkflowOptions, workflowInfo } from '@temporalio/workflow';
import { onboardCustomer } from './onboard-customer';
import { payment } from './payment';
import { providerCustomer } from './provider-customer';
import { providerPayment } from './provider-payment';
import { rateBoard } from './rate-board';
import { reconcilePayments } from './reconcile-payments';
import { paymentEvents } from './payment-events/workflow';
import { PAYMENT_EVENTS_WORKFLOW_TYPE } from './payment-events/api';
import { refreshQuotes } from './refresh-quotes';
import { registerAccount } from './register-account';
import { transfer } from './transfer';

/**
 * Workflow type → behaviour: every workflow workflows/index.ts registers (test/unit/worker-versioning.test.ts fails
 * to compile when one is missing; the check lives there so that this module, which index.ts loads, does not import
 * index.ts back).
 */
export const WORKFLOW_VERSIONING_BEHAVIORS = {
  payment: 'PINNED',
  transfer: 'PINNED',
  onboardCustomer: 'PINNED',
  registerAccount: 'PINNED',
  providerPayment: 'AUTO_UPGRADE',
  providerCustomer: 'AUTO_UPGRADE',
  rateBoard: 'AUTO_UPGRADE',
  refreshQuotes: 'AUTO_UPGRADE',
  reconcilePayments: 'AUTO_UPGRADE',
  // lives as long as a payment's events keep coming; moves no money (docs/outbound-events.md)
  [PAYMENT_EVENTS_WORKFLOW_TYPE]: 'AUTO_UPGRADE',
} as const satisfies Record<string, VersioningBehavior>;

/**
 * The behaviour, on a versioned worker only. A run whose first task was on an unversioned worker (started before
 * the switch to versioned workers) declares none and gets the worker's default, AUTO_UPGRADE: it was never pinned.
 */
function onVersionedWorker(versioningBehavior: VersioningBehavior): () => WorkflowDefinitionOptions {
  return () => (workflowInfo().currentDeploymentVersion?.deploymentName ? { versioningBehavior } : {});
}

const behaviors = WORKFLOW_VERSIONING_BEHAVIORS;
setWorkflowOptions(onVersionedWorker(behaviors.payment), payment);
setWorkflowOptions(onVersionedWorker(behaviors.transfer), transfer);
setWorkflowOptions(onVersionedWorker(behaviors.onboardCustomer), onboardCustomer);
setWorkflowOptions(onVersionedWorker(behaviors.registerAccount), registerAccount);
setWorkflowOptions(onVersionedWorker(behaviors.providerPayment), providerPayment);
setWorkflowOptions(onVersionedWorker(behaviors.providerCustomer), providerCustomer);
setWorkflowOptions(onVersionedWorker(behaviors.rateBoard), rateBoard);
setWorkflowOptions(onVersionedWorker(behaviors.refreshQuotes), refreshQuotes);
setWorkflowOptions(onVersionedWorker(behaviors.reconcilePayments), reconcilePayments);
setWorkflowOptions(onVersionedWorker(behaviors[PAYMENT_EVENTS_WORKFLOW_TYPE]), paymentEvents);
