// The stuck payments counted, not listed (the stuck gauge: src/client/stuck-gauge.ts). `xborder stuck` lists each
// payment (findStuckPayments, src/client/stuck.ts); a metric needs only how many, and a count costs one visibility
// call whatever the number of payments: CountWorkflowExecutions per kind (the server groups only by
// ExecutionStatus, so one count per kind, not one grouped count), the builds' backlogs from the Worker Deployment
// API instead of a describe per PINNED run, and the money-moved check's per-candidate lookups only when the count
// of its candidates is not 0. Calls per refresh: ~12 plus 1 per retired build still holding runs, at 10 parked
// payments as at 10,000 (test/unit/stuck-gauge-cost.test.ts).
import type { Client } from '@temporalio/client';
import { movedAfterOutcome, stuckQueries, type StuckKind, type StuckQueryOptions } from './stuck';
import { DEFAULT_WAITING_TASK_LIMIT_MS } from './stuck-on-build';
import {
  deploymentOrNull,
  pollersOf,
  retiredBuilds,
  workflowBacklogOf,
  type TaskBacklog,
} from './build-backlog';

/** The queries as counted: disjoint where the listing dedupes (a payment counts under its most serious kind). */
export function stuckCountQueries(options: StuckQueryOptions & { now: Date }): Record<StuckKind, string> {
  const queries = stuckQueries(options);
  const now = options.now.toISOString();
  return {
    ...queries,
    // past its deadline it is PAST_FUNDING_DEADLINE (listed first): the listing's dedupe, as a condition
    QUOTE_EXPIRED_UNFUNDED: `${queries.QUOTE_EXPIRED_UNFUNDED} AND (FundingDeadline >= '${now}' OR FundingDeadline IS NULL)`,
  };
}

export interface BuildServing {
  buildId: string;
  /** workflow tasks waiting on this build */
  backlog: TaskBacklog;
  /** its workers polling the task queue; null when no task queue was given */
  pollers: { workflow: number; activity: number } | null;
}

export interface StuckCounts {
  counts: Record<StuckKind, number>;
  /** the current and ramping builds' service (null: no such build, or an unversioned deployment) */
  current: BuildServing | null;
  ramping: BuildServing | null;
  /** visibility and Worker Deployment calls this refresh made (the gauge's cost, measured) */
  calls: number;
}

export interface CountOptions extends StuckQueryOptions {
  now: Date;
  /** the task queue whose pollers of the current build are counted (the workers' XBORDER_TASK_QUEUE) */
  taskQueue?: string;
}

export async function countStuckPayments(client: Client, options: CountOptions): Promise<StuckCounts> {
  let calls = 0;
  const count = async (query: string) => {
    calls++;
    return (await client.workflow.count(query)).count;
  };
  const queries = stuckCountQueries(options);
  const counts = {} as Record<StuckKind, number>;
  for (const [kind, query] of Object.entries(queries) as [StuckKind, string][]) {
    if (kind === 'WAITING_FOR_ITS_BUILD') continue; // below, from the builds' backlogs
    if (kind === 'MOVED_AFTER_OUTCOME') {
      // candidates are entities lingering after REFUNDED/FAILED (7 days): looked up one by one only when there are any
      const candidates = await count(query);
      if (candidates === 0) counts[kind] = 0;
      else {
        const found = await movedAfterOutcome(client, query, options.now, new Set());
        calls += 1 + candidates; // one list of candidates, one list per candidate
        counts[kind] = found.length;
      }
      continue;
    }
    counts[kind] = await count(query);
  }
  counts.WAITING_FOR_ITS_BUILD = 0;
  let current: BuildServing | null = null;
  let ramping: BuildServing | null = null;
  if (options.deploymentName) {
    const name = options.deploymentName;
    calls++;
    const status = await deploymentOrNull(client, name);
    if (status) {
      const limitSeconds = (options.waitingTaskLimitMs ?? DEFAULT_WAITING_TASK_LIMIT_MS) / 1000;
      // A build no new work goes to, whose oldest workflow task waits past the limit: its workers are gone (or
      // cannot keep up) and every task waiting there is a PINNED run only that build may run.
      for (const buildId of retiredBuilds(status)) {
        calls++;
        const backlog = await workflowBacklogOf(client, name, buildId);
        if (backlog.ageSeconds > limitSeconds) counts.WAITING_FOR_ITS_BUILD += backlog.count;
      }
      const serving = async (buildId: string | null): Promise<BuildServing | null> => {
        if (!buildId) return null;
        calls++;
        const backlog = await workflowBacklogOf(client, name, buildId);
        if (!options.taskQueue) return { buildId, backlog, pollers: null };
        calls += 2;
        return {
          buildId,
          backlog,
          pollers: await pollersOf(client, options.taskQueue, name, buildId, options.now),
        };
      };
      current = await serving(status.currentBuildId);
      ramping = await serving(status.rampingBuildId);
    }
  }
  return { counts, current, ramping, calls };
}
