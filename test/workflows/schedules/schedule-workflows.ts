// The workflows of the quote refresh only, bundled by the schedule tests so they do not depend on the
// payment workflows being edited in the same checkout. The worker registers the same functions from
// workflows/index.ts.
export { refreshQuotes } from '../../../workflows/refresh-quotes/workflow';
export { rateBoard } from '../../../workflows/rate-board/workflow';
