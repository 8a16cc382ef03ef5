// A provider 401/403 is a configuration fault of ours (a rotated key, a node outside the key's IP allowlist: spec:
// Authentication 5), never the caller's: the activities retry it minutes apart (capped), so a payment being quoted or
// created waits for the fix instead of ending REJECTED. The real client's errors, through the real activities.
import { ApplicationFailure } from '@temporalio/common';
import { createPaymentActivities } from '../../../activities/payment-activities';
import {
  AUTH_RETRY_INITIAL_MS,
  AUTH_RETRY_MAX_MS,
  authRetryDelayMs,
  toApplicationFailure,
} from '../../../activities/errors';
import { errorFromResponse } from '../../../src/provider/error-mapping';

const refused = (status: 401 | 403, method = 'GET', path = '/v1/payments/rate') =>
  errorFromResponse(
    { method, path, status, isCreatingCall: method === 'POST' },
    { code: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN' },
  );

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('a provider 401/403 is a configuration fault, retried with a long backoff', () => {
  it.each([401, 403] as const)('%i: retryable AuthError, the first retry a minute or more away', (status) => {
    const f = toApplicationFailure(refused(status), 1);
    expect(f.type).toBe('AuthError');
    expect(f.nonRetryable).toBe(false);
    expect(f.nextRetryDelay).toBeGreaterThanOrEqual(AUTH_RETRY_INITIAL_MS);
    expect(f.nextRetryDelay).toBeLessThanOrEqual(AUTH_RETRY_INITIAL_MS * 1.2);
  });

  it('the waits double, minutes apart, and stop growing at the cap (with up to 20 % jitter)', () => {
    const at = (attempt: number) => authRetryDelayMs(attempt, () => 0);
    expect([1, 2, 3, 4, 5, 6, 50].map(at)).toEqual([
      60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000,
    ]);
    expect(authRetryDelayMs(50, () => 1)).toBe(AUTH_RETRY_MAX_MS * 1.2);
  });

  it('getRate refused for our key fails retryably (the payment keeps quoting), not as a refusal of the request', async () => {
    const activities = createPaymentActivities({
      provider: { rates: { get: () => Promise.reject(refused(401)) } } as never,
    });
    const f = await failureOf(
      activities.getRate({
        sourceCurrency: 'USDC',
        destinationCurrency: 'EUR',
        sourceRail: 'POLYGON',
        destinationRail: 'SEPA',
        sourceAmount: 100,
      }),
    );
    expect({ type: f.type, nonRetryable: f.nonRetryable }).toEqual({
      type: 'AuthError',
      nonRetryable: false,
    });
  });

  it('POST /payments refused for our key on the first attempt fails retryably (never REJECTED with a violation)', async () => {
    const activities = createPaymentActivities({
      provider: { payments: { create: () => Promise.reject(refused(403, 'POST', '/v1/payments')) } } as never,
      attempt: () => 1,
    });
    const f = await failureOf(activities.createPayment({} as never, 'payment:k:create:0'));
    expect({ type: f.type, nonRetryable: f.nonRetryable }).toEqual({
      type: 'AuthError',
      nonRetryable: false,
    });
    expect(f.nextRetryDelay).toBeGreaterThanOrEqual(AUTH_RETRY_INITIAL_MS);
  });
});
