// Runs the real workflow bundle on a worker with fake activities, against the time-skipping test server.
// test/workflows holds tests, not workflow code: these two imports are what a test needs to run a worker.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports -- a test runs a real worker
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Payment } from '../../../src/contract';
import type { AllActivities } from '../../../activities/types';
import { temporal } from '@temporalio/proto';
import {
  ALL_SEARCH_ATTRIBUTE_KEYS,
  providerPaymentEventSignal,
  providerPaymentWorkflowId,
} from '../../../workflows/messages';
import { createTimeSkippingEnv, uniqueTaskQueue, workflowBundle } from '../../support/temporal';

export const WORKFLOWS_PATH = require.resolve('../../../workflows');

/**
 * The time-skipping server refuses undefined search attributes ("search attribute PaymentPhase is not
 * defined") but accepts their registration, so ours are registered like on the dev server.
 */
export async function createWorkflowTestEnv(): Promise<TestWorkflowEnvironment> {
  const env = await createTimeSkippingEnv();
  const types = temporal.api.enums.v1.IndexedValueType;
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      ALL_SEARCH_ATTRIBUTE_KEYS.map((k) => [
        k.name,
        k.type === 'DATETIME' ? types.INDEXED_VALUE_TYPE_DATETIME : types.INDEXED_VALUE_TYPE_KEYWORD,
      ]),
    ),
  });
  await workflowBundle(WORKFLOWS_PATH);
  return env;
}

/** Runs `fn` while a worker with `activities` polls a fresh task queue. */
export async function withWorker<T>(
  env: TestWorkflowEnvironment,
  activities: AllActivities,
  fn: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = uniqueTaskQueue('wf');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS_PATH),
    activities,
  });
  return worker.runUntil(fn(taskQueue));
}

let eventSeq = 0;

/** Delivers a payment webhook event to the entity workflow exactly as src/ingress does (signalWithStart). */
export async function deliverPaymentEvent(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  payment: Payment,
  eventId = `evt_${++eventSeq}_${Date.now()}`,
): Promise<string> {
  await env.client.workflow.signalWithStart('providerPayment', {
    workflowId: providerPaymentWorkflowId(payment.id),
    taskQueue,
    args: [{ providerPaymentId: payment.id }],
    signal: providerPaymentEventSignal,
    signalArgs: [{ eventId, type: 'payment.updated', payment }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return eventId;
}

/** Polls `read` until `accept` holds (signals travel through the server asynchronously). */
export async function eventually<T>(read: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (accept(v)) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
