// The workflows the worker registers (bundled from this file).
import './polyfills';
export { payment } from './payment';
export { providerPayment } from './provider-payment';
export { refreshQuotes } from './refresh-quotes';
export { rateBoard } from './rate-board';
