// The workflows the worker registers (bundled from this file).
import './polyfills';

export { payment } from './payment/workflow';
export { providerPayment } from './provider-payment/workflow';
export { providerCustomer } from './provider-customer/workflow';
export { onboardCustomer } from './onboard-customer';
export { registerAccount } from './register-account';
export { transfer } from './transfer';
export { refreshQuotes } from './refresh-quotes';
export { rateBoard } from './rate-board';
export { reconcilePayments } from './reconcile-payments';
import './versioning'; // issue 14: each workflow's versioning behaviour (PINNED / AUTO_UPGRADE)
