// What a worker's poller identity says about the event endpoints it delivers to, and what startPayment concludes
// (src/client/events-deliverable.ts): hashes only, never a URL; unknown is never a refusal.
import type { Client } from '@temporalio/client';
import {
  eventsIdentityTag,
  eventsNotDeliverable,
  parseEventsIdentityTag,
  tagDelivers,
} from '../../../src/client/events-deliverable';

const url = 'https://backend.example/xborder-events';
const other = 'https://other.example/hook';

it('a worker tags its identity with what it delivers to, URLs hashed', () => {
  const tag = eventsIdentityTag({ defaultEndpoint: { url }, endpoints: [{ url: other }] });
  expect(tag).toMatch(/^xborder-events=default,[0-9a-f]{12},[0-9a-f]{12}$/);
  expect(tag).not.toContain('example');
  const parsed = parseEventsIdentityTag(`123@host ${tag}`)!;
  expect(tagDelivers(parsed, undefined)).toBe(true);
  expect(tagDelivers(parsed, other)).toBe(true);
  expect(tagDelivers(parsed, 'https://third.example/')).toBe(false);
  const none = parseEventsIdentityTag(`123@host ${eventsIdentityTag(undefined)}`)!;
  expect(tagDelivers(none, undefined)).toBe(false);
  expect(parseEventsIdentityTag('123@host')).toBeNull(); // a worker from before the tag
});

function clientWithPollers(identities: string[] | Error): Client {
  return {
    options: { namespace: 'default' },
    workflowService: {
      describeTaskQueue: async () => {
        if (identities instanceof Error) throw identities;
        return { pollers: identities.map((identity) => ({ identity })) };
      },
    },
  } as unknown as Client;
}

it('refuses only when every polling worker says it cannot deliver', async () => {
  const without = `1@a ${eventsIdentityTag(undefined)}`;
  const withDefault = `2@b ${eventsIdentityTag({ defaultEndpoint: { url }, endpoints: [] })}`;
  expect(await eventsNotDeliverable(clientWithPollers([without]), 'q1', {})).toMatchObject({
    path: 'events',
    rule: 'EVENTS_NOT_DELIVERABLE',
  });
  expect(await eventsNotDeliverable(clientWithPollers([without, withDefault]), 'q2', {})).toBeNull();
  expect(await eventsNotDeliverable(clientWithPollers([withDefault]), 'q3', { url: other })).toMatchObject({
    path: 'events.url',
  });
  // unknown: no poller, a poller without the tag, DescribeTaskQueue failing
  expect(await eventsNotDeliverable(clientWithPollers([]), 'q4', {})).toBeNull();
  expect(await eventsNotDeliverable(clientWithPollers([without, '3@c']), 'q5', {})).toBeNull();
  expect(await eventsNotDeliverable(clientWithPollers(new Error('UNAVAILABLE')), 'q6', {})).toBeNull();
});
