// Worker Deployment Versioning (issue 14; docs/deployment.md, "Safe deploys with Worker Versioning"): the
// versioning behaviour of every workflow the worker registers. It matters only on a versioned worker
// (XBORDER_WORKER_VERSIONING=true, the Lambda worker); an unversioned worker ignores it.
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
import type { VersioningBehavior } from '@temporalio/common';
import type * as registered from './index';
import { setWorkflowOptions } from '@temporalio/workflow';
import { onboardCustomer } from './onboard-customer';
import { payment } from './payment';
import { providerCustomer } from './provider-customer';
import { providerPayment } from './provider-payment';
import { rateBoard } from './rate-board';
import { reconcilePayments } from './reconcile-payments';
import { refreshQuotes } from './refresh-quotes';
import { registerAccount } from './register-account';
import { transfer } from './transfer';

/** Workflow type → behaviour: every workflow workflows/index.ts registers (tsc fails when one is missing). */
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
} as const satisfies Record<keyof typeof registered, VersioningBehavior>;

const behaviors = WORKFLOW_VERSIONING_BEHAVIORS;
setWorkflowOptions({ versioningBehavior: behaviors.payment }, payment);
setWorkflowOptions({ versioningBehavior: behaviors.transfer }, transfer);
setWorkflowOptions({ versioningBehavior: behaviors.onboardCustomer }, onboardCustomer);
setWorkflowOptions({ versioningBehavior: behaviors.registerAccount }, registerAccount);
setWorkflowOptions({ versioningBehavior: behaviors.providerPayment }, providerPayment);
setWorkflowOptions({ versioningBehavior: behaviors.providerCustomer }, providerCustomer);
setWorkflowOptions({ versioningBehavior: behaviors.rateBoard }, rateBoard);
setWorkflowOptions({ versioningBehavior: behaviors.refreshQuotes }, refreshQuotes);
setWorkflowOptions({ versioningBehavior: behaviors.reconcilePayments }, reconcilePayments);
