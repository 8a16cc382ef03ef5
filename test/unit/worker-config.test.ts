// workers/config.ts: the worker's cache budget (docs/performance.md) comes from the environment.
import { workerConfigFromEnv } from '../../workers/config';
import { generatedApiKey } from '../support/secrets';

const base = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010', XBORDER_PROVIDER_API_KEY: generatedApiKey() };

it('reads XBORDER_MAX_CACHED_WORKFLOWS as the worker cache size, and leaves the SDK default when unset', () => {
  expect(workerConfigFromEnv({ ...base, XBORDER_MAX_CACHED_WORKFLOWS: '1000' }).maxCachedWorkflows).toBe(
    1000,
  );
  expect(workerConfigFromEnv(base)).not.toHaveProperty('maxCachedWorkflows');
  expect(() => workerConfigFromEnv({ ...base, XBORDER_MAX_CACHED_WORKFLOWS: 'many' })).toThrow(
    /XBORDER_MAX_CACHED_WORKFLOWS/,
  );
});
