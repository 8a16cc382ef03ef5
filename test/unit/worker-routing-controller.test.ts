// workers/config.ts: under the Temporal Worker Controller (deploy/helm/xborder) the worker takes the version the
// controller injects and never makes itself current; elsewhere it behaves as before.
import { workerConfigFromEnv } from '../../workers/config';
import { generatedApiKey } from './../support/secrets';

const base = { XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010', XBORDER_PROVIDER_API_KEY: generatedApiKey() };

it('by default names its own version and makes the first build current', () => {
  const config = workerConfigFromEnv({
    ...base,
    XBORDER_BUILD_ID: 'b1',
    TEMPORAL_WORKER_BUILD_ID: 'ignored',
  });
  expect(config.deployment?.version).toEqual({ deploymentName: 'xborder', buildId: 'b1' });
  expect(config.makesItselfCurrent).toBe(true);
});

it('under the controller, runs the version the controller injected and leaves routing to it', () => {
  const config = workerConfigFromEnv({
    ...base,
    XBORDER_ROUTING_MANAGED_BY: 'controller',
    TEMPORAL_DEPLOYMENT_NAME: 'payments/xborder',
    TEMPORAL_WORKER_BUILD_ID: 'xborder-0.3.0-5f7c',
  });
  expect(config.deployment?.version).toEqual({
    deploymentName: 'payments/xborder',
    buildId: 'xborder-0.3.0-5f7c',
  });
  expect(config.makesItselfCurrent).toBe(false);
});

it('refuses controller routing without the injected version, naming both variables', () => {
  expect(() => workerConfigFromEnv({ ...base, XBORDER_ROUTING_MANAGED_BY: 'controller' })).toThrow(
    /TEMPORAL_DEPLOYMENT_NAME and TEMPORAL_WORKER_BUILD_ID/,
  );
});
