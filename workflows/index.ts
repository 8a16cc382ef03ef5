// The workflows the worker registers (bundled from this file).
export { payment } from './payment';
export { providerPayment } from './provider-payment';
