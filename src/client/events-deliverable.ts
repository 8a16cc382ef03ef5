// Whether the workers can deliver a payment's events before it starts (docs/outbound-events.md, "Turning it on"):
// a worker without XBORDER_EVENTS_URL (or without the endpoint a payment names) never calls it, and the events would
// wait as EVENT_ENDPOINT_NOT_CONFIGURED while the backend hears nothing. Each worker says what it can deliver in its
// poller identity (a tag: `xborder-events=default,<url hash>…`, hashes only: no URL is shown); startPayment reads the
// activity pollers of its task queue (DescribeTaskQueue, one call, cached a few seconds) and refuses before anything
// starts when no worker polling can deliver. Unknown is never a refusal: no poller yet (a worker restarting), or only
// workers from before the tag.
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Violation } from '../contract';

const TAG = 'xborder-events=';

/** The part of the worker's configuration the tag tells (activities/event-delivery-activities.ts EventDeliveryConfig). */
export interface DeliverableEndpoints {
  defaultEndpoint: { url: string } | null;
  endpoints: readonly { url: string }[];
}

function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 12);
}

/** The tag a worker appends to its identity. */
export function eventsIdentityTag(config: DeliverableEndpoints | undefined): string {
  const parts = [
    ...(config?.defaultEndpoint ? ['default', urlHash(config.defaultEndpoint.url)] : []),
    ...(config?.endpoints ?? []).map((e) => urlHash(e.url)),
  ];
  return `${TAG}${parts.length > 0 ? [...new Set(parts)].join(',') : 'none'}`;
}

/** What a poller identity says it can deliver; null when it carries no tag (a worker from before it, not ours). */
export function parseEventsIdentityTag(identity: string): Set<string> | null {
  const word = identity.split(/\s+/).find((w) => w.startsWith(TAG));
  if (!word) return null;
  return new Set(
    word
      .slice(TAG.length)
      .split(',')
      .filter((p) => p && p !== 'none'),
  );
}

/** Can a worker with this tag deliver events to `url` (undefined: the default endpoint)? */
export function tagDelivers(tag: Set<string>, url: string | undefined): boolean {
  return url === undefined ? tag.has('default') : tag.has(urlHash(url));
}

const TASK_QUEUE_TYPE_ACTIVITY = 2; // temporal.api.enums.v1.TaskQueueType
const CACHE_MS = 5_000;
const cache = new WeakMap<Client, Map<string, { at: number; tags: Array<Set<string> | null> }>>();

async function pollerTags(client: Client, taskQueue: string): Promise<Array<Set<string> | null>> {
  const perClient = cache.get(client) ?? new Map<string, { at: number; tags: Array<Set<string> | null> }>();
  cache.set(client, perClient);
  const hit = perClient.get(taskQueue);
  if (hit && Date.now() - hit.at < CACHE_MS) return hit.tags;
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: taskQueue, kind: 1 },
    taskQueueType: TASK_QUEUE_TYPE_ACTIVITY,
  });
  const tags = (response.pollers ?? []).map((p) => parseEventsIdentityTag(p.identity ?? ''));
  perClient.set(taskQueue, { at: Date.now(), tags });
  return tags;
}

/**
 * The refusal (path `events`, rule EVENTS_NOT_DELIVERABLE) when every worker polling `taskQueue` says it cannot
 * deliver this payment's events; null when one can, or when nobody can tell. A failed DescribeTaskQueue is not a
 * refusal either (the start goes on, as before this check).
 */
export async function eventsNotDeliverable(
  client: Client,
  taskQueue: string,
  events: { url?: string | undefined },
): Promise<Violation | null> {
  let tags: Array<Set<string> | null>;
  try {
    tags = await pollerTags(client, taskQueue);
  } catch {
    return null;
  }
  if (tags.length === 0 || tags.some((t) => t === null)) return null;
  if (tags.some((t) => tagDelivers(t!, events.url))) return null;
  return {
    path: events.url === undefined ? 'events' : 'events.url',
    rule: 'EVENTS_NOT_DELIVERABLE',
    message:
      events.url === undefined
        ? `no worker polling task queue ${taskQueue} has a default endpoint: set XBORDER_EVENTS_URL and XBORDER_EVENTS_SECRETS on the worker (docs/outbound-events.md), or start the payment without events`
        : `no worker polling task queue ${taskQueue} has a secret for this url: add it to the worker's XBORDER_EVENTS_ENDPOINTS (docs/outbound-events.md)`,
  };
}
