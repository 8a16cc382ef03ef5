import { Worker } from '@temporalio/worker';
import { type TestWorkflowEnvironment } from '@temporalio/testing';
import { PaymentPhaseKey } from '../../workflows/search-attributes';
import {
  createDevServerEnv,
  createTimeSkippingEnv,
  uniqueTaskQueue,
  uniqueWorkflowId,
  workflowBundle,
} from '../support/temporal';
import { sleepyGreeting, tagWithPhase } from '../support/workflows/smoke';

const workflowsPath = require.resolve('../support/workflows/smoke');
const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createTimeSkippingEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow and skips a 30-day timer in seconds of wall time', async () => {
    const taskQueue = uniqueTaskQueue('smoke-ts');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(workflowsPath),
    });
    const startedAt = Date.now();
    const result = await worker.runUntil(
      env.client.workflow.execute(sleepyGreeting, {
        taskQueue,
        workflowId: uniqueWorkflowId('smoke'),
        args: ['skipper', THIRTY_DAYS_MS],
      }),
    );
    expect(result).toBe('hello skipper from sleepyGreeting');
    expect(Date.now() - startedAt).toBeLessThan(20_000);
  });
});

describe('local dev server (Temporal CLI)', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createDevServerEnv();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a workflow and indexes our PaymentPhase search attribute', async () => {
    const taskQueue = uniqueTaskQueue('smoke-dev');
    const workflowId = uniqueWorkflowId('smoke');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(workflowsPath),
    });
    const result = await worker.runUntil(
      env.client.workflow.execute(tagWithPhase, { taskQueue, workflowId, args: ['AWAITING_FUNDS'] }),
    );
    expect(result).toBe('AWAITING_FUNDS');
    const description = await env.client.workflow.getHandle(workflowId).describe();
    expect(description.typedSearchAttributes.get(PaymentPhaseKey)).toBe('AWAITING_FUNDS');
    // Visibility is eventually consistent: poll until the search attribute is queryable.
    let found: string[] = [];
    for (let attempt = 0; attempt < 50 && found.length === 0; attempt++) {
      found = [];
      for await (const wf of env.client.workflow.list({
        query: `PaymentPhase = 'AWAITING_FUNDS' AND WorkflowId = '${workflowId}'`,
      })) {
        found.push(wf.workflowId);
      }
      if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(found).toEqual([workflowId]);
  });
});
