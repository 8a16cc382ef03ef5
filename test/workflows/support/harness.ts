// Runs the real workflow bundle on a worker with fake activities, against the time-skipping test server.
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Payment } from '../../../src/contract';
import type { AllActivities } from '../../../activities/types';
import { createContractActivities } from '../../../activities/contract-activities';
import {
  createLateEventsActivities,
  type LateEventsActivities,
} from '../../../activities/late-events-activities';
import { createWorkflowReadActivities } from '../../../activities/workflow-read-activities';
import {
  createEventHandOverActivities,
  type EventDeliveryActivities,
} from '../../../activities/event-delivery-activities';
import {
  isTransferEvent,
  type XborderEvent,
  type XborderOutboundEvent,
  type XborderTransferEvent,
} from '../../../src/contract';
import { temporal } from '@temporalio/proto';
import { ALL_SEARCH_ATTRIBUTE_KEYS } from '../../../workflows/messages';
import { awaitCreatedUpdate, type PaymentOutcome, paymentStateQuery } from '../../../workflows/payment/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
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

/**
 * Unversioned, unlike every other worker (docs/deployment.md, "Not versioned: the time-skipping workflow tests"):
 * the time-skipping test server (1.40.0) answers its Worker Deployment API with UNIMPLEMENTED ("Worker Versioning
 * not yet supported in test server") and hands a versioned worker every task anyway, so a version declared here
 * would be neither routed nor recorded. Versioning is tested on the dev server (test/e2e/worker-versioning).
 *
 * One worker per test file on one task queue, with activities that call whatever `current()` returns,
 * so each test brings its own fake. One worker (not one per test) matters on the time-skipping server:
 * a workflow left on a task queue nobody polls would hold its timers and stop time skipping.
 */
export class SharedWorker {
  readonly taskQueue = uniqueTaskQueue('wf');
  private worker?: Worker;
  private running?: Promise<void>;
  /** workflow IDs a test started or caused; terminated by `cleanup()` so their timers do not pile up */
  readonly started = new Set<string>();
  /** outbound events delivered (accepted) so far, in order; a test may replace `deliverEvent` to fail some */
  readonly deliveredEvents: XborderEvent[] = [];
  /** a transfer's own events (transfer.*) delivered so far, in order */
  readonly deliveredTransferEvents: XborderTransferEvent[] = [];
  deliverEvent: EventDeliveryActivities['deliverPaymentEvent'] = async (_url, event) => {
    if (isTransferEvent(event)) this.deliveredTransferEvents.push(event);
    else this.deliveredEvents.push(event);
  };

  /** provider payment id → the payment workflow that followed it (findLateEventsRegistration's visibility lookup) */
  readonly paymentWorkflowOf = new Map<string, string>();
  /** a test may stand in for the whole registration lookup (Temporal not answering); null: the real one */
  lateEventsLookup: LateEventsActivities['findLateEventsRegistration'] | null = null;

  constructor(
    private readonly env: TestWorkflowEnvironment,
    private readonly current: () => AllActivities,
  ) {}

  async start(): Promise<void> {
    const current = this.current;
    const names = Object.keys(current()) as (keyof AllActivities)[];
    const activities = Object.fromEntries(
      names.map((name) => [
        name,
        (...args: unknown[]) => (current()[name] as (...a: unknown[]) => unknown)(...args),
      ]),
    );
    const lateEvents = createLateEventsActivities({
      paymentWorkflowOf: async (id) => this.paymentWorkflowOf.get(id) ?? null,
    });
    this.worker = await Worker.create({
      connection: this.env.nativeConnection,
      namespace: this.env.namespace ?? 'default',
      taskQueue: this.taskQueue,
      workflowBundle: await workflowBundle(WORKFLOWS_PATH),
      // reads of other workflows go to the test server itself, as on a real worker
      // outbound events: the real hand-over (signalWithStart), a recording receiver
      activities: {
        ...activities,
        ...createWorkflowReadActivities(),
        ...createEventHandOverActivities(),
        ...createContractActivities(),
        // the time-skipping server has no advanced visibility: tests name the payment that follows a provider payment
        findLateEventsRegistration: (id: string) =>
          this.lateEventsLookup ? this.lateEventsLookup(id) : lateEvents.findLateEventsRegistration(id),
        deliverPaymentEvent: (url: string | null, event: XborderOutboundEvent) =>
          this.deliverEvent(url, event),
      },
    });
    this.running = this.worker.run();
  }

  async cleanup(extraIds: Iterable<string> = []): Promise<void> {
    const ids = [...this.started, ...extraIds];
    this.started.clear();
    await Promise.all(
      ids.map((id) =>
        this.env.client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch(() => undefined),
      ),
    );
  }

  async stop(): Promise<void> {
    await this.cleanup();
    this.worker?.shutdown();
    await this.running;
  }
}

let eventSeq = 0;

/** Delivers a payment webhook event to the entity workflow exactly as src/ingress does (signalWithStart). */
export async function deliverPaymentEvent(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  payment: Payment,
  eventId = `evt_${++eventSeq}_${Date.now()}`,
): Promise<string> {
  await env.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
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
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await read();
    if (accept(v)) return v;
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The outcome of a payment workflow once it has closed, read with the `state` query (the same object the
 * workflow returns). Not `handle.result()`: on the time-skipping server, awaiting a result unlocks time
 * skipping and can race far ahead through other workflows' timers, after which `env.sleep` hangs.
 */
export async function closedPaymentOutcome(
  handle: WorkflowHandle,
  timeoutMs = 10_000,
): Promise<PaymentOutcome> {
  await eventually(
    () => handle.describe().then((d) => d.status.name),
    (status) => status !== 'RUNNING',
    timeoutMs,
  );
  const state = await handle.query(paymentStateQuery);
  if (!state.outcome) throw new Error(`workflow closed without an outcome: ${JSON.stringify(state)}`);
  return state.outcome;
}

/**
 * The result of a workflow once it has closed, read from its history: unlike `handle.result()` it does not
 * unlock time skipping (see `closedPaymentOutcome`).
 */
export async function closedResult<T>(handle: WorkflowHandle, timeoutMs = 10_000): Promise<T> {
  await eventually(
    () => handle.describe().then((d) => d.status.name),
    (status) => status !== 'RUNNING',
    timeoutMs,
  );
  const history = await handle.fetchHistory();
  const last = history.events?.at(-1);
  const payload = last?.workflowExecutionCompletedEventAttributes?.result?.payloads?.[0];
  if (!payload) throw new Error(`workflow did not complete: last event ${String(last?.eventType)}`);
  return defaultPayloadConverter.fromPayload<T>(payload);
}

/** The early answer of a payment workflow; fails the test when the payment was refused instead. */
export async function created(handle: WorkflowHandle) {
  const c = await handle.executeUpdate(awaitCreatedUpdate);
  if (c.outcome !== 'CREATED') throw new Error(`not created: ${JSON.stringify(c)}`);
  return c;
}

/** The ApplicationFailure type an update was refused with. */
export async function refusalType(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) return (err.cause as { type?: string } | undefined)?.type;
    throw err;
  }
  throw new Error('the update was not refused');
}

/**
 * Moves the time-skipping clock past the payment's funding deadline, plus `marginMs`. The deadline is 3 business
 * days after creation (spec: States and transitions, row 3), so it is 3 to 5 calendar days away depending on
 * the weekday the test runs on: a fixed 5-day sleep is short from Wednesday to Friday.
 */
export async function sleepPastFundingDeadline(
  env: TestWorkflowEnvironment,
  handle: WorkflowHandle,
  marginMs: number,
): Promise<void> {
  const { fundingDeadline } = await handle.query(paymentStateQuery);
  if (!fundingDeadline) throw new Error('the payment has no funding deadline');
  const now = await env.currentTimeMs();
  await env.sleep(Math.max(0, Date.parse(fundingDeadline) - now) + marginMs);
}
