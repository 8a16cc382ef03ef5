// The workflows the worker registers (bundled from this file).
import './polyfills';

export { payment } from './payment/workflow';
export { providerPayment } from './provider-payment/workflow';
export { providerCustomer } from './provider-customer/workflow';
export { onboardCustomer } from './onboard-customer/workflow';
export { registerAccount } from './register-account/workflow';
export { transfer } from './transfer/workflow';
export { refreshQuotes } from './refresh-quotes/workflow';
export { rateBoard } from './rate-board/workflow';
export { reconcilePayments } from './reconcile-payments/workflow';
export { paymentEvents } from './payment-events/workflow';
export { reconciliationReport } from './reconciliation-report/workflow';
export { nexusOutcome } from './nexus-outcome/workflow';
import './versioning'; // each workflow's versioning behaviour (PINNED / AUTO_UPGRADE)
