// The Lambda worker serves what the long-lived worker serves: the `xborder` Nexus service (src/nexus/handlers.ts)
// and the outbound events' delivery to the endpoint its environment names (docs/outbound-events.md). Read from the
// settings' configure(), as @temporalio/lambda-worker calls it at each cold start; nothing connects.
import { randomBytes } from 'node:crypto';
import type { LambdaWorkerConfig } from '@temporalio/lambda-worker';
import { XBORDER_NEXUS_SERVICE } from '../../src/nexus/service';
import { lambdaWorkerSettingsFromEnv } from '../../workers/lambda-worker';
import type { ProviderPort } from '../../activities';
import { generatedApiKey } from '../support/secrets';

function configured(extra: Record<string, string>): LambdaWorkerConfig {
  const settings = lambdaWorkerSettingsFromEnv(
    {
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      XBORDER_PROVIDER_URL: 'http://127.0.0.1:4010',
      XBORDER_PROVIDER_API_KEY: generatedApiKey(),
      XBORDER_BUILD_ID: 'lambda-unit-1',
      ...extra,
    },
    { provider: {} as ProviderPort, dataConverter: {}, workflowBundle: { code: '' } },
  );
  const config = {
    workerOptions: {},
    shutdownHooks: [],
    runtimeOptions: {},
  } as unknown as LambdaWorkerConfig;
  settings.configure(config);
  return config;
}

it('registers the xborder Nexus service handler', () => {
  const services =
    (configured({}).workerOptions as { nexusServices?: Array<{ definition: { name: string } }> })
      .nexusServices ?? [];
  expect(services.map((s) => s.definition.name)).toEqual([XBORDER_NEXUS_SERVICE]);
});

it('delivers outbound events to XBORDER_EVENTS_URL: a payment event is POSTed there', async () => {
  const posted: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (url: string) => {
    posted.push(String(url));
    return new Response(null, { status: 204 });
  }) as typeof fetch;
  try {
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const activities = configured({
      XBORDER_EVENTS_URL: 'https://backend.example/xborder-events',
      XBORDER_EVENTS_SECRETS: secret,
    }).workerOptions.activities as {
      deliverPaymentEvent: (url: string | null, event: unknown) => Promise<void>;
    };
    await activities.deliverPaymentEvent(null, {
      id: 'r:1',
      type: 'payment.created',
      version: 1,
      sequence: 1,
      occurredAt: '',
      paymentKey: 'k',
      data: {},
    });
    expect(posted).toEqual(['https://backend.example/xborder-events']);
  } finally {
    globalThis.fetch = realFetch;
  }
});
