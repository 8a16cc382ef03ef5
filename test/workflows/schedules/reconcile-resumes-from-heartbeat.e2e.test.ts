// The reconcilePayments workflow on a real dev server and worker: its activity heartbeats its place in GET /payments
// after each page, and when an attempt fails in the middle (a 503 on page 3), Temporal's retry goes on from the place
// the server recorded, never from page 1. (Not the time-skipping server: an activity retry stops its time skipping.)
import { WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createReconcileActivities, type ReconcileProgress } from '../../../activities/reconcile-activities';
import { normalizePayment, type Payment } from '../../../src/contract';
import { errorFromResponse } from '../../../src/provider/error-mapping';
import { RECONCILE_PAYMENTS_WORKFLOW_TYPE } from '../../../workflows/reconcile-payments/api';
import { currentPayment } from '../../unit/contract/fixtures';
import {
  createDevServerEnv,
  uniqueTaskQueue,
  uniqueWorkflowId,
  workflowBundle,
} from '../../support/temporal';
import { WORKFLOWS_PATH } from '../support/harness';

jest.setTimeout(120_000);

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await createDevServerEnv();
});
afterAll(async () => {
  await env?.teardown();
});

/** A payout still on its way: listed, never signalled (no entity runs, its status is not final). */
function payout(i: number): Payment {
  return normalizePayment({
    ...currentPayment(),
    id: `pay_out_${i}`,
    type: 'PAYOUT',
    status: 'SENT',
    source: { ...currentPayment().source, accountId: undefined },
  });
}

it('an attempt that fails on page 3 is retried from the last page the server recorded, not from page 1', async () => {
  const asked: Array<string | undefined> = [];
  const resumedFrom: unknown[] = [];
  let failed = false;
  const port = {
    payments: {
      async list(query: { cursor?: string } = {}) {
        asked.push(query.cursor);
        const n = query.cursor === undefined ? 0 : Number(query.cursor.slice(1));
        if (n === 2 && !failed) {
          failed = true;
          throw errorFromResponse(
            { method: 'GET', path: '/v1/payments', status: 503, isCreatingCall: false },
            { code: 'SERVICE_UNAVAILABLE' },
          );
        }
        return { data: [payout(n)], nextCursor: n < 4 ? `c${n + 1}` : null };
      },
      /** the same pages as one stream (what a reader without pages would use) */
      async *listAll() {
        for (let cursor: string | undefined, more = true; more; ) {
          const page = await port.payments.list(cursor === undefined ? {} : { cursor });
          yield* page.data;
          more = page.nextCursor !== null;
          cursor = page.nextCursor ?? undefined;
        }
      },
    },
  };
  const reconcile = createReconcileActivities({ provider: port as never });
  const taskQueue = uniqueTaskQueue('reconcile');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS_PATH),
    activities: {
      async reconcileRecentPayments(input: Parameters<typeof reconcile.reconcileRecentPayments>[0]) {
        const { Context } = await import('@temporalio/activity');
        resumedFrom.push(Context.current().info.heartbeatDetails);
        return reconcile.reconcileRecentPayments(input);
      },
    },
  });
  const result = await worker.runUntil(
    env.client.workflow.execute(RECONCILE_PAYMENTS_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: uniqueWorkflowId('reconcile'),
      args: [{}],
    }),
  );
  expect(result).toMatchObject({ listed: 5, signalled: [], followedSignalled: 0 });
  // the first attempt read pages 1–2 and failed on 3; the second began at the recorded place (page 2 or 3)
  expect(asked.filter((c) => c === undefined)).toHaveLength(1);
  expect(resumedFrom).toHaveLength(2);
  expect(resumedFrom[0]).toBeUndefined();
  expect((resumedFrom[1] as ReconcileProgress).cursor).toMatch(/^c[12]$/);
  expect(asked.at(-1)).toBe('c4');
  console.log(
    `reconcile: pages asked ${asked.map((c) => c ?? 'first').join(', ')}; the retry resumed at ${(resumedFrom[1] as ReconcileProgress).cursor}`,
  );
});

it('a run whose listing was cut at its bound fails, named, so it never narrows the look-back of the next run', async () => {
  // The next sweep tells moves after the outcome only from the start of the last COMPLETED run (less an overlap):
  // a run that listed only part of the service's payments must not count as one that saw them all.
  const taskQueue = uniqueTaskQueue('reconcile-cut');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS_PATH),
    activities: {
      async reconcileRecentPayments() {
        return { listed: 20_000, signalled: [], listingCut: true };
      },
    },
  });
  const handle = await env.client.workflow.start(RECONCILE_PAYMENTS_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: uniqueWorkflowId('reconcile-cut'),
    args: [{}],
  });
  const failure = await worker.runUntil(
    handle.result().then(
      () => null,
      (e: unknown) => e,
    ),
  );
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  expect(((failure as WorkflowFailedError).cause as ApplicationFailure).type).toBe('RECONCILE_LISTING_CUT');
  expect((await handle.describe()).status.name).toBe('FAILED');
});
