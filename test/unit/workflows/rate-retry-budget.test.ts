// A payment asks for its rate (a local activity, workflows/activity-options.ts) for as long as a create is retried:
// a 429 storm or a refused key (minutes between tries, activities/errors.ts) outlasts a 5-minute budget, and the
// payment would end REJECTED for a fault that is not the caller's. The time-skipping test of the 429 storm
// (test/workflows/payment/payment-rate-limited-ten-minutes.test.ts) cannot show this budget: core measures a local
// activity's schedule-to-close on the worker's real clock, which the test server does not skip.
import { msToNumber } from '@temporalio/common/lib/time';
import { AUTH_RETRY_MAX_MS } from '../../../activities/errors';
import { RATE_RETRY_BUDGET } from '../../../workflows/activity-options';

describe("the rate's retry budget", () => {
  it('outlasts a long 429 storm and many capped waits for a fixed key (hours, not 5 minutes)', () => {
    const budget = msToNumber(RATE_RETRY_BUDGET);
    expect(budget).toBeGreaterThanOrEqual(60 * 60_000);
    expect(budget).toBeGreaterThanOrEqual(20 * AUTH_RETRY_MAX_MS);
  });
});
