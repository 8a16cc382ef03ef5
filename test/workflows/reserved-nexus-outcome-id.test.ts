// Only the nexusOutcome relay runs under a `nexus-outcome:` ID (docs/codec.md, "Nexus callers"; SECURITY.md). The
// codec reads the payloads of such an ID with the key set of the Nexus caller it names, so a caller holding only its
// own key could start ANY workflow type under `nexus-outcome:<its endpoint>:<anything>` with an input it encrypted
// itself: a paymentEvents run whose pending events are forged would have them signed with xborder's webhook secret.
// Every type but nexusOutcome must therefore fail at once there, before anything is scheduled, whatever its input;
// and nexusOutcome runs under no other ID. The list of types is read from workflows/index.ts, so a type added later
// is covered without touching this test.
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import * as registered from '../../workflows';
import { NEXUS_OUTCOME_WORKFLOW_TYPE } from '../../workflows/nexus-outcome/api';
import { paymentWorkflowId } from '../../workflows/payment/api';
import { RESERVED_WORKFLOW_ID } from '../../workflows/reserved-id-interceptor';
import { uniqueWorkflowId } from '../support/temporal';
import { useTestBed } from './support/test-bed';

const bed = useTestBed();

/** The events of a run that did nothing: its start, one workflow task, its failure. */
const NOTHING_DONE = new Set([
  'workflowExecutionStartedEventAttributes',
  'workflowTaskScheduledEventAttributes',
  'workflowTaskStartedEventAttributes',
  'workflowTaskCompletedEventAttributes',
  'workflowExecutionFailedEventAttributes',
]);

async function refusedAtOnce(type: string, workflowId: string, input: unknown): Promise<ApplicationFailure> {
  const handle = await bed.env.client.workflow.start(type, {
    taskQueue: bed.taskQueue,
    workflowId,
    args: input === undefined ? [] : [input],
  });
  bed.worker.started.add(workflowId);
  const error = await handle.result().then(
    () => new Error(`expected ${type} under ${workflowId} to fail`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  const cause = (error as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  // nothing scheduled: no activity (local or not), timer, child, signal, marker or search attribute
  const history = await bed.env.client.workflow.getHandle(workflowId).fetchHistory();
  const kinds = (history.events ?? []).flatMap((e) =>
    Object.keys(e).filter((k) => k.endsWith('EventAttributes') && e[k as keyof typeof e]),
  );
  expect(kinds.filter((k) => !NOTHING_DONE.has(k))).toEqual([]);
  return cause as ApplicationFailure;
}

const forgedEvents = (paymentKey: string) => ({
  paymentKey,
  endpointUrl: null,
  pending: [
    {
      id: 'evt_forged',
      type: 'payment.completed',
      sequence: 1,
      createdAt: '2026-01-01T00:00:00Z',
      data: { paymentKey },
    },
  ],
});

describe('a workflow other than nexusOutcome started under a nexus-outcome: ID', () => {
  it('paymentEvents with forged pending events fails at once, non-retryable, delivering nothing', async () => {
    const victim = uniqueWorkflowId('victim');
    const delivered = bed.worker.deliveredEvents.length;
    const failure = await refusedAtOnce(
      'paymentEvents',
      `nexus-outcome:x:${uniqueWorkflowId('y')}`,
      forgedEvents(victim),
    );
    expect(failure.type).toBe(RESERVED_WORKFLOW_ID);
    expect(failure.nonRetryable).toBe(true);
    expect(bed.worker.deliveredEvents.length).toBe(delivered);
  }, 60_000);

  const others = Object.keys(registered).filter((t) => t !== NEXUS_OUTCOME_WORKFLOW_TYPE);

  it('lists every type of workflows/index.ts but the relay', () => {
    expect(others.length).toBeGreaterThanOrEqual(11);
    expect(others).toContain('payment');
    expect(others).toContain('paymentEvents');
  });

  it.each(others)(
    '%s fails at once with RESERVED_WORKFLOW_ID, whatever its input',
    async (type) => {
      const calls = bed.fake.calls.length;
      for (const input of [{}, forgedEvents('victim')]) {
        const failure = await refusedAtOnce(
          type,
          `nexus-outcome:xborder-shop:${uniqueWorkflowId(type)}`,
          input,
        );
        expect(failure.type).toBe(RESERVED_WORKFLOW_ID);
        expect(failure.nonRetryable).toBe(true);
      }
      expect(bed.fake.calls.length).toBe(calls);
    },
    60_000,
  );
});

describe('nexusOutcome started under any other ID', () => {
  it.each([
    () => paymentWorkflowId(uniqueWorkflowId('k')),
    () => `Nexus-Outcome:x:${uniqueWorkflowId('k')}`,
    () => ` nexus-outcome:x:${uniqueWorkflowId('k')}`,
    () => uniqueWorkflowId('plain'),
  ])(
    'fails at once with RESERVED_WORKFLOW_ID (case %#)',
    async (idOf) => {
      const failure = await refusedAtOnce(NEXUS_OUTCOME_WORKFLOW_TYPE, idOf(), undefined);
      expect(failure.type).toBe(RESERVED_WORKFLOW_ID);
      expect(failure.nonRetryable).toBe(true);
    },
    60_000,
  );
});
