// The workflows the worker registers (bundled from this file).
import './polyfills';

export { payment } from './payment';
export { providerPayment } from './provider-payment';
export { providerCustomer } from './provider-customer';
export { onboardCustomer } from './onboard-customer';
export { registerAccount } from './register-account';
export { transfer } from './transfer';
export { refreshQuotes } from './refresh-quotes';
export { rateBoard } from './rate-board';
export { reconcilePayments } from './reconcile-payments';
export { paymentEvents } from './payment-events/workflow';
import './versioning'; // issue 14: each workflow's versioning behaviour (PINNED / AUTO_UPGRADE)
