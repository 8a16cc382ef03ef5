// workers/config.ts: the provider key's rate budget is on by default, per HTTP call, and each process takes its share
// (docs/deployment.md "Provider rate budget"): N processes together stay within budget × W + max(N, budget) calls.
import { processShare, workerConfigFromEnv } from '../../workers/config';
import { generatedApiKey } from '../support/secrets';

const base = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010', XBORDER_PROVIDER_API_KEY: generatedApiKey() };

it('is on by default: 8 calls per second for one process', () => {
  expect(workerConfigFromEnv(base).provider.rateBudget).toEqual({ callsPerSecond: 8, burst: 8 });
});

it('splits the key budget between the processes that share the key', () => {
  const config = workerConfigFromEnv({
    ...base,
    XBORDER_PROVIDER_CALLS_PER_SECOND: '20',
    XBORDER_PROVIDER_PROCESSES: '4',
  });
  expect(config.provider.rateBudget).toEqual({ callsPerSecond: 5, burst: 5 });
  expect(processShare(2, 8)).toEqual({ callsPerSecond: 0.25, burst: 1 });
  expect(() => workerConfigFromEnv({ ...base, XBORDER_PROVIDER_PROCESSES: '0' })).toThrow(
    /XBORDER_PROVIDER_PROCESSES/,
  );
});

it('the shares of N processes add up to the budget, bursts to at most max(N, budget)', () => {
  for (const [budget, n] of [
    [8, 1],
    [8, 3],
    [20, 4],
    [2, 8],
    [100, 7],
  ] as const) {
    const share = processShare(budget, n);
    expect(share.callsPerSecond * n).toBeCloseTo(budget, 9);
    expect(share.burst * n).toBeLessThanOrEqual(Math.max(n, budget));
  }
});
