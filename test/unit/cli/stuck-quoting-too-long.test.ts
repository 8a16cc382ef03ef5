// Stuck kind QUOTING_TOO_LONG (`xborder stuck`, the stuck gauge): a payment that still has no rate or no answer to its
// create long after its start. A refused API key (401/403) or a 429 storm is retried by the activities instead of
// rejecting the payment (activities/errors.ts): this is where an operator sees the payments it holds.
import type { Client } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { findStuckPayments, stuckQueries } from '../../../src/client/stuck';
import { PaymentPhaseKey } from '../../../workflows/search-attributes';

const now = new Date('2030-01-02T00:00:00Z');

it('lists running payments still QUOTING 15 minutes (by default) after their start', () => {
  expect(stuckQueries({ now }).QUOTING_TOO_LONG).toBe(
    "WorkflowType = 'payment' AND ExecutionStatus = 'Running' AND PaymentPhase = 'QUOTING' AND StartTime < '2030-01-01T23:45:00.000Z'",
  );
  expect(stuckQueries({ now, quotingLimitMs: 60_000 }).QUOTING_TOO_LONG).toContain(
    "StartTime < '2030-01-01T23:59:00.000Z'",
  );
});

it('xborder stuck shows such a payment under QUOTING_TOO_LONG with its age', async () => {
  const startTime = new Date(now.getTime() - 40 * 60_000);
  const client = {
    workflow: {
      list: ({ query }: { query: string }) =>
        (async function* () {
          if (query.includes("PaymentPhase = 'QUOTING'"))
            yield {
              workflowId: 'payment:k1',
              runId: 'r1',
              startTime,
              typedSearchAttributes: new TypedSearchAttributes([{ key: PaymentPhaseKey, value: 'QUOTING' }]),
            };
        })(),
    },
  } as unknown as Client;
  const stuck = await findStuckPayments(client, { now });
  expect(stuck).toEqual([
    expect.objectContaining({
      kind: 'QUOTING_TOO_LONG',
      workflowId: 'payment:k1',
      phase: 'QUOTING',
      ageMs: 40 * 60_000,
    }),
  ]);
});
