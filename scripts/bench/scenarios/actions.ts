// `--only actions`: billable Temporal actions per payment, for each path a payment takes, by workflow and by
// kind, against the bench's skeletons (the floor). Counted from the histories (src/telemetry/temporal-actions.ts:
// Temporal Cloud's mapping and what a history cannot show).
//
// Run on the time-skipping test server with the fake provider, not on the bench's dev-server stack: every path is
// driven to the end of every workflow it involves, and the entity lingers 7 days after a final status — days of
// timers that the time-skipping server passes in seconds. An action count is the same on either server: it
// depends on the workflow code and the events it was given, not on the engine.
import { BILLED_KINDS, LISTED_KINDS, type ActionCount } from '../../../src/telemetry/temporal-actions';
import {
  createPathBed,
  PATH_NAMES,
  runPath,
  runSkeleton,
  SKELETON_NAMES,
  startSkeletonWorker,
  type PathCount,
} from '../../../test/workflows/support/payment-paths';

export interface ActionsResult {
  paths: { name: string; count: PathCount }[];
  floors: { name: string; count: PathCount }[];
}

export const ACTIONS_NOTE =
  'actions: counted on the time-skipping test server with the fake provider (every workflow driven to its end: days ' +
  'of linger pass in seconds there); an action count does not depend on the engine. Not in the counts: queries, ' +
  'updates refused by a validator, heartbeats, schedule actions (none on these paths but the queries the driver ' +
  'makes to wait); memo upserts and patch markers are listed, not billed.';

export async function measureActions(log: (line: string) => void): Promise<ActionsResult> {
  const bed = await createPathBed();
  const skeletonWorker = await startSkeletonWorker(bed.env);
  try {
    const floors: ActionsResult['floors'] = [];
    for (const name of SKELETON_NAMES) {
      floors.push({ name, count: await runSkeleton(bed.env, skeletonWorker.taskQueue, name) });
      log(`actions: ${name} counted`);
    }
    const paths: ActionsResult['paths'] = [];
    for (const name of PATH_NAMES) {
      paths.push({ name, count: await runPath(bed, name) });
      await bed.worker.cleanup();
      log(`actions: ${name} counted`);
    }
    return { paths, floors };
  } finally {
    await skeletonWorker.stop();
    await bed.stop();
  }
}

const kinds = (c: ActionCount | undefined): string =>
  c
    ? [
        ...BILLED_KINDS.filter((k) => c.billed[k] > 0).map((k) => `${k} ${c.billed[k]}`),
        ...LISTED_KINDS.filter((k) => c.listed[k] > 0).map((k) => `(${k} ${c.listed[k]})`),
      ].join(', ')
    : '—';

/** The table of docs/performance.md "Actions per payment": per path, payment + entity = total, by kind. */
export function actionsTable(result: ActionsResult): string {
  const pair = result.floors.find((f) => f.name === 'two-workflow skeleton')?.count.total.total ?? null;
  const lines = [
    '| path | payment | entity | total | ÷ two-workflow skeleton | payment by kind | entity by kind |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { name, count } of result.paths) {
    const entities = count.workflows.entity ?? 0;
    const entity = count.byRole.entity
      ? `${count.byRole.entity.total}${entities > 1 ? ` (${entities} entities)` : ''}`
      : '—';
    lines.push(
      `| ${name} | ${count.byRole.payment?.total ?? '—'} | ${entity} | ${count.total.total} | ${pair ? (count.total.total / pair).toFixed(1) : ''} | ${kinds(count.byRole.payment)} | ${kinds(count.byRole.entity)} |`,
    );
  }
  for (const { name, count } of result.floors) {
    const first = count.byRole.skeleton;
    const second = count.byRole.skeletonEntity;
    lines.push(
      `| floor: ${name} | ${first?.total ?? '—'} | ${second?.total ?? '—'} | ${count.total.total} | ${pair ? (count.total.total / pair).toFixed(1) : ''} | ${kinds(first)} | ${kinds(second)} |`,
    );
  }
  return lines.join('\n');
}
