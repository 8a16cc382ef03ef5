// Fairness between customers: a payment's workflow carries its customer's fairness key, which its
// activities and its entity inherit; and on a dev server with fairness on, one customer's burst does not starve
// another on a shared task queue.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { fairnessKeyOf, fairnessPriority, paymentCustomerKey } from '../../src/client/fairness';
import { providerPaymentWorkflowId } from '../../workflows/provider-payment/api';
import { createDevServerEnv, uniqueTaskQueue, workflowBundle } from '../support/temporal';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import { demoPaymentRequest } from '../support/demo-payment-request';

jest.setTimeout(240_000);

const EventType = temporal.api.enums.v1.EventType;

describe('fairness keys', () => {
  it('takes the customer id, else the paying account, and hashes what is over 64 bytes', () => {
    expect(paymentCustomerKey({ customerId: 'cus_1', source: { accountId: 'acc_1' } })).toBe('cus_1');
    expect(paymentCustomerKey({ source: { accountId: 'acc_1' } })).toBe('account:acc_1');
    expect(paymentCustomerKey({ destination: { accountId: 'acc_2' } })).toBeNull();
    expect(fairnessPriority(null)).toEqual({});
    const long = 'c'.repeat(80);
    expect(Buffer.byteLength(fairnessKeyOf(long))).toBeLessThanOrEqual(64);
    expect(fairnessKeyOf(long)).toBe(fairnessKeyOf(long));
    expect(fairnessKeyOf(long)).not.toBe(fairnessKeyOf(`${long}x`));
  });
});

describe('a payment on the stack', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startTestStack({ sandbox: { demoData: true } });
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function priorityOf(client: Client, workflowId: string) {
    const described = await client.workflowService.describeWorkflowExecution({
      namespace: stack.namespace,
      execution: { workflowId },
    });
    return described.workflowExecutionInfo?.priority ?? null;
  }

  it("reaches the server with the customer's fairness key: workflow, activities and entity", async () => {
    const key = uniqueKey('fair');
    const started = await startPayment(
      stack.client,
      {
        paymentKey: key,
        request: demoPaymentRequest(key),
      },
      { taskQueue: stack.taskQueue },
    );
    if (started.created.outcome !== 'CREATED') throw new Error('not created');
    expect(await priorityOf(stack.client, started.workflowId)).toMatchObject({
      fairnessKey: 'cus_demo_individual',
    });

    // Activities set no priority of their own (their scheduled events show none): the server gives their tasks
    // the workflow's, which the burst below shows on the activity queue. The entity, a child, inherits it too.
    const history = await stack.client.workflow.getHandle(started.workflowId).fetchHistory();
    const scheduled = (history.events ?? []).filter(
      (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
    );
    expect(scheduled.length).toBeGreaterThan(0);
    for (const event of scheduled)
      expect(event.activityTaskScheduledEventAttributes?.priority?.fairnessKey ?? '').toBe('');
    const entityId = providerPaymentWorkflowId(started.created.providerPaymentId);
    const entity = await eventually('the entity', () => priorityOf(stack.client, entityId).catch(() => null));
    expect(entity).toMatchObject({ fairnessKey: 'cus_demo_individual' });
  });
});

describe('a burst on a dev server with fairness on', () => {
  let env: TestWorkflowEnvironment;
  const workflowsPath = require.resolve('../support/workflows/fairness');
  const BURST = 30; // customer A's jobs, queued first
  const FEW = 5; // customer B's, queued after them
  beforeAll(async () => {
    // One partition per task queue: with the default four, a poller takes from one partition at random and no
    // order holds across partitions (fairness is kept per partition), which this small burst cannot show.
    env = await createDevServerEnv([
      ...['--dynamic-config-value', 'matching.enableFairness=true'],
      ...['--dynamic-config-value', 'matching.numTaskqueueReadPartitions=1'],
      ...['--dynamic-config-value', 'matching.numTaskqueueWritePartitions=1'],
    ]);
    await workflowBundle(workflowsPath);
  });
  afterAll(async () => {
    await env?.teardown();
  });

  function startJob(taskQueue: string, withKeys: boolean, customer: string, i: number) {
    return env.client.workflow.start('customerJob', {
      taskQueue,
      workflowId: `${taskQueue}:${customer}:${i}`,
      args: [customer],
      ...(withKeys ? fairnessPriority(customer) : {}),
    });
  }

  /** A worker of workflows only, noting each job's first workflow task, until `count` jobs have had one. */
  async function runWorkflowTasks(
    taskQueue: string,
    count: number,
    seen: string[],
    whileRunning?: () => Promise<void>,
  ) {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(workflowsPath),
      maxConcurrentWorkflowTaskExecutions: 2,
      sinks: { order: { workflowTask: { fn: (_info, customer: string) => void seen.push(customer) } } },
    });
    await worker.runUntil(async () => {
      await whileRunning?.();
      await eventually('the workflow tasks', async () => (seen.length >= count ? true : null), 120_000);
    });
  }

  /** Workflow tasks: all jobs queued before any worker polls, then taken two at a time. */
  async function workflowTaskOrder(withKeys: boolean): Promise<string[]> {
    const taskQueue = uniqueTaskQueue('fair-wft');
    for (let i = 0; i < BURST; i++) await startJob(taskQueue, withKeys, 'cus_A', i);
    for (let i = 0; i < FEW; i++) await startJob(taskQueue, withKeys, 'cus_B', i);
    const seen: string[] = [];
    await runWorkflowTasks(taskQueue, BURST + FEW, seen);
    return seen;
  }

  /**
   * Activity tasks: A's activities are all scheduled (backlogged) before B's, then one activity worker with one
   * slot takes them. The activities set no priority: they carry their workflow's key by inheritance.
   */
  async function activityTaskOrder(withKeys: boolean): Promise<string[]> {
    const taskQueue = uniqueTaskQueue('fair-act');
    const seen: string[] = [];
    await runWorkflowTasks(taskQueue, BURST + FEW, seen, async () => {
      for (let i = 0; i < BURST; i++) await startJob(taskQueue, withKeys, 'cus_A', i);
      await eventually("A's activities scheduled", async () => (seen.length >= BURST ? true : null), 120_000);
      for (let i = 0; i < FEW; i++) await startJob(taskQueue, withKeys, 'cus_B', i);
    });
    const ran: string[] = [];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      activities: { record: async (customer: string) => void ran.push(customer) },
      maxConcurrentActivityTaskExecutions: 1,
    });
    await worker.runUntil(
      eventually('the activities', async () => (ran.length >= BURST + FEW ? true : null), 120_000),
    );
    return ran;
  }

  /**
   * With keys, B's jobs take turns with A's (seen: 2,4,6,8,10); without, they wait behind most of the burst (seen:
   * 23..35 and 31..35). Bounds with room for a loaded machine.
   */
  function expectFairness(fair: number[], fifo: number[]) {
    expect(fair).toHaveLength(FEW);
    expect(Math.max(...fair)).toBeLessThanOrEqual(2 * FEW + 4);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(fifo)).toBeGreaterThan(mean(fair) + 10);
  }

  /** Positions (1-based) of customer B's jobs. */
  const positionsOfB = (order: string[]) => order.flatMap((c, i) => (c === 'cus_B' ? [i + 1] : []));

  it("serves the small customer's workflow tasks early instead of after the burst", async () => {
    const fair = positionsOfB(await workflowTaskOrder(true));
    const fifo = positionsOfB(await workflowTaskOrder(false));
    console.log(
      `workflow tasks, B's positions of ${BURST + FEW}: with keys ${fair.join(',')}; without ${fifo.join(',')}`,
    );
    expectFairness(fair, fifo);
  });

  it("serves the small customer's activities early instead of after the burst", async () => {
    const fair = positionsOfB(await activityTaskOrder(true));
    const fifo = positionsOfB(await activityTaskOrder(false));
    console.log(
      `activity tasks, B's positions of ${BURST + FEW}: with keys ${fair.join(',')}; without ${fifo.join(',')}`,
    );
    expectFairness(fair, fifo);
  });
});
