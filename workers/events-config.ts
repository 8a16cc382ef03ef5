// The worker's outbound-event endpoints from the environment (docs/outbound-events.md, "Configuration"). Parsed
// with zod at start: an invalid URL or secret stops the worker with the variable named, never the value; a secret
// published in the repository or a placeholder is refused like every other secret (src/security/known-secrets.ts).
import { withSecretFiles } from '../src/support/secret-files';
import { z } from 'zod';
import { EventEndpointUrlSchema } from '../src/contract/outbound-events';
import { refuseKnownSecrets } from '../src/security/known-secrets';
import type { EventDeliveryConfig, EventEndpoint } from '../activities/event-delivery-activities';

/** whsec_<base64>, as the ingress's secrets (src/provider/webhook-signature.ts) */
const Secret = z.string().regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'a signing secret must be whsec_<base64>');
/** one secret, or two during a rotation (both sign; the receiver accepts either) */
const Secrets = z.array(Secret).min(1).max(2, 'at most two secrets at once (the current one and the next)');

const EventsEnvSchema = z.object({
  /** where payments started with `events: {}` send their events */
  XBORDER_EVENTS_URL: EventEndpointUrlSchema.optional(),
  /** its signing secrets, comma-separated */
  XBORDER_EVENTS_SECRETS: z.string().optional(),
  /** further endpoints a payment may name: JSON [{"url": "...", "secrets": ["whsec_..."]}] */
  XBORDER_EVENTS_ENDPOINTS: z.string().optional(),
  XBORDER_EVENTS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});
export const EVENTS_ENV_VARS = Object.keys(EventsEnvSchema.shape) as ReadonlyArray<
  keyof typeof EventsEnvSchema.shape
>;

/** The variables that hold a secret (signing secrets; endpoints carry theirs), each also read as `<NAME>_FILE`. */
export const EVENTS_SECRET_ENV_VARS = ['XBORDER_EVENTS_SECRETS', 'XBORDER_EVENTS_ENDPOINTS'] as const;

const EndpointsSchema = z.array(z.object({ url: EventEndpointUrlSchema, secrets: Secrets }).strict());

export class EventsConfigError extends Error {
  override readonly name = 'EventsConfigError';
  readonly type = 'EVENTS_CONFIG_INVALID';
}

function refuse(problems: string[]): never {
  throw new EventsConfigError(`Invalid outbound-events configuration:\n  ${problems.join('\n  ')}`);
}

function secretsOf(variable: string, raw: string): string[] {
  const parsed = Secrets.safeParse(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  // zod's issues name the rule broken; the value is never echoed
  if (!parsed.success) refuse(parsed.error.issues.map((i) => `${variable}: ${i.message}`));
  refuseKnownSecrets(variable, parsed.data, 'webhook-secret');
  return parsed.data;
}

export function eventsConfigFromEnv(given: NodeJS.ProcessEnv): EventDeliveryConfig {
  // XBORDER_EVENTS_SECRETS_FILE / XBORDER_EVENTS_ENDPOINTS_FILE: from mounted files (src/support/secret-files.ts)
  const env = withSecretFiles(given, EVENTS_SECRET_ENV_VARS, 'worker');
  const parsed = EventsEnvSchema.safeParse(env);
  if (!parsed.success) refuse(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const e = parsed.data;
  if (e.XBORDER_EVENTS_URL && !e.XBORDER_EVENTS_SECRETS)
    refuse(['XBORDER_EVENTS_SECRETS: required with XBORDER_EVENTS_URL']);
  if (!e.XBORDER_EVENTS_URL && e.XBORDER_EVENTS_SECRETS)
    refuse(['XBORDER_EVENTS_URL: required with XBORDER_EVENTS_SECRETS']);
  const defaultEndpoint: EventEndpoint | null = e.XBORDER_EVENTS_URL
    ? { url: e.XBORDER_EVENTS_URL, secrets: secretsOf('XBORDER_EVENTS_SECRETS', e.XBORDER_EVENTS_SECRETS!) }
    : null;
  let endpoints: EventEndpoint[] = [];
  if (e.XBORDER_EVENTS_ENDPOINTS) {
    let json: unknown;
    try {
      json = JSON.parse(e.XBORDER_EVENTS_ENDPOINTS);
    } catch {
      refuse(['XBORDER_EVENTS_ENDPOINTS: not JSON (expected [{"url": "...", "secrets": ["whsec_..."]}])']);
    }
    const list = EndpointsSchema.safeParse(json);
    if (!list.success)
      refuse(list.error.issues.map((i) => `XBORDER_EVENTS_ENDPOINTS.${i.path.join('.')}: ${i.message}`));
    list.data.forEach((ep, i) =>
      refuseKnownSecrets(`XBORDER_EVENTS_ENDPOINTS[${i}].secrets`, ep.secrets, 'webhook-secret'),
    );
    endpoints = list.data;
  }
  return { defaultEndpoint, endpoints, timeoutMs: e.XBORDER_EVENTS_TIMEOUT_MS };
}
