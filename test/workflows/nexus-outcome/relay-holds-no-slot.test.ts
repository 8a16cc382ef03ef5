// The nexusOutcome relay holds no activity slot while its payment waits (workflows/nexus-outcome/workflow.ts): after
// its first read the relay has no pending activity, only a timer; the payment's `paymentClosed` signal makes it read
// the outcome at once; a payment of an older build (no signal) is re-read by the 12-hour fallback timer.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Client, type WorkflowHandle } from '@temporalio/client';
import { createNexusOutcomeActivities } from '../../../activities/nexus-outcome-activities';
import { NEXUS_OWNER_MEMO, nexusOutcomeWorkflowId } from '../../../workflows/nexus-outcome/api';
import { uniqueTaskQueue, workflowBundle } from '../../support/temporal';
import { createWorkflowTestEnv } from '../support/harness';
import { finishSignal } from './fixtures/workflows';

const FIXTURES = require.resolve('./fixtures/workflows');
const ENDPOINT = 'xborder-shop';

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const taskQueue = uniqueTaskQueue('relay');

beforeAll(async () => {
  env = await createWorkflowTestEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(FIXTURES),
    // a plain client: the time-skipping client's result() would lock and unlock time skipping from inside the activity
    activities: createNexusOutcomeActivities({
      client: () => new Client({ connection: env.connection, namespace: env.namespace ?? 'default' }),
    }),
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

/** Waits until the relay has read once and waits on its timer. */
async function waitingOnTimer(relay: WorkflowHandle): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const history = await relay.fetchHistory();
    if (history.events?.some((e) => e.timerStartedEventAttributes)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the relay never waited on a timer');
}

async function closed(handle: WorkflowHandle): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await handle.describe()).status.name !== 'RUNNING') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${handle.workflowId} never closed`);
}

const types = async (relay: WorkflowHandle) =>
  ((await relay.fetchHistory()).events ?? []).map((e) => e.eventType);

async function start(paymentType: 'payment' | 'paymentOfOlderBuild', key: string) {
  const paid = await env.client.workflow.start(paymentType, {
    taskQueue,
    workflowId: `payment:${key}`,
    args: [key],
    memo: { [NEXUS_OWNER_MEMO]: ENDPOINT },
  });
  const relay = await env.client.workflow.start('nexusOutcome', {
    taskQueue,
    workflowId: nexusOutcomeWorkflowId(ENDPOINT, key),
  });
  await waitingOnTimer(relay);
  return { paid, relay };
}

it('while the payment waits the relay has no pending activity; the payment tells it and it reads the outcome', async () => {
  const { paid, relay } = await start('payment', 'order-told');
  const waiting = await relay.describe();
  expect(waiting.status.name).toBe('RUNNING');
  expect(waiting.raw.pendingActivities ?? []).toEqual([]);
  await paid.signal(finishSignal);
  expect(await relay.result()).toEqual({ outcome: 'COMPLETED' });
  const events = await types(relay);
  const count = (t: number) => events.filter((e) => e === t).length;
  // start + 2 reads (running, then closing) + the payment's signal + 1 timer (cancelled by the signal)
  expect(count(10)).toBe(2); // EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
  expect(count(26)).toBe(1); // EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED
  expect(count(17)).toBe(1); // EVENT_TYPE_TIMER_STARTED
});

it('a payment that never tells its relay (an older build) is read again by the 12-hour fallback', async () => {
  const { paid, relay } = await start('paymentOfOlderBuild', 'order-old');
  expect((await relay.describe()).raw.pendingActivities ?? []).toEqual([]);
  await paid.signal(finishSignal);
  await closed(paid); // (the time-skipping client's result() of the payment does not return here: polled instead)
  expect(await relay.result()).toEqual({ outcome: 'COMPLETED' }); // time skips to the fallback read
  const events = await types(relay);
  expect(events.filter((e) => e === 10).length).toBe(2);
  expect(events.filter((e) => e === 26).length).toBe(0);
});
