// The payment's path to `created`: the answer comes in the workflow task after POST /payments,
// before the provider-payment entity is started or subscribed to; getRate is a local activity; a reused key is
// refused by the update's validator from a fingerprint, with no history read. A file of its own: one
// time-skipping server per file.
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { WorkflowHandle } from '@temporalio/client';
import { awaitCreatedForRequestUpdate, createdAnswerQuery } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { requestFingerprint } from '../../../workflows/request-fingerprint';
import { recordNewHistories } from '../../support/record-new-histories';
import { eventually, refusalType } from '../support/harness';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();
const EventType = temporal.api.enums.v1.EventType;

async function ownFingerprint(handle: WorkflowHandle): Promise<string> {
  const history = await handle.fetchHistory();
  const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
  return requestFingerprint(defaultPayloadConverter.fromPayload(payload));
}

it('answers created in the workflow task right after POST /payments, before the entity is followed; getRate runs locally', async () => {
  bed.newFake();
  const handle = await bed.startPayment();
  const answer = await handle.executeUpdate(awaitCreatedForRequestUpdate, {
    args: [{ requestFingerprint: await ownFingerprint(handle) }],
  });
  if (answer.outcome !== 'CREATED') throw new Error(`not created: ${JSON.stringify(answer)}`);
  // the entity is still started afterwards (the payment keeps following)
  await eventually(
    () =>
      bed.env.client.workflow
        .getHandle(providerPaymentWorkflowId(answer.providerPaymentId))
        .describe()
        .then(
          () => true,
          () => false,
        ),
    (started) => started,
  );

  const events = (await handle.fetchHistory()).events!;
  const completedAt = events.findIndex(
    (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED,
  );
  expect(completedAt).toBeGreaterThan(0);
  const before = events.slice(0, completedAt);
  const activityTypes = before
    .filter((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
  expect(activityTypes).toEqual(['createPaymentAndFollow']); // getRate is a marker, not an activity task; the create follows the entity (payment-lean-history)
  expect(before.some((e) => e.eventType === EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(true);
  // nothing of the entity before the answer: no child started or failed, no subscribe signal
  const entityEventTypes = [
    EventType.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED,
    EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED,
    EventType.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED,
  ];
  expect(before.filter((e) => entityEventTypes.includes(e.eventType!))).toEqual([]);
  // the answer leaves in the first workflow task after createPayment completed
  const createdAt = before.findIndex((e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED);
  const tasksBetween = before
    .slice(createdAt)
    .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED).length;
  expect(tasksBetween).toBe(1);

  // The entity was started with the POST's snapshot: it does not signal it back (entity-no-echo-to-starter).
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(answer.providerPaymentId));
  const entityEvents = await eventually(
    () => entity.fetchHistory().then((h) => h.events!),
    (es) => es.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED),
  );
  expect(
    entityEvents.filter(
      (e) => e.eventType === EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
    ),
  ).toEqual([]);

  // XBORDER_RECORD_HISTORIES=1: adds this scenario's histories (new files only) for the replay test
  await recordNewHistories(bed.env.client, bed.env.address, 'path-cuts-created-before-follow', [
    handle.workflowId,
    providerPaymentWorkflowId(answer.providerPaymentId),
  ]);
});

it("refuses awaitCreatedForRequest with another request's fingerprint (IDEMPOTENCY_KEY_REUSED) and answers its own", async () => {
  bed.newFake();
  const handle = await bed.startPayment();
  const other = requestFingerprint({ paymentKey: 'someone-else', request: { amount: 1 } });
  expect(
    await refusalType(
      handle.executeUpdate(awaitCreatedForRequestUpdate, { args: [{ requestFingerprint: other }] }),
    ),
  ).toBe('IDEMPOTENCY_KEY_REUSED');
  const own = await handle.executeUpdate(awaitCreatedForRequestUpdate, {
    args: [{ requestFingerprint: await ownFingerprint(handle) }],
  });
  expect(own.outcome).toBe('CREATED');
});

it('createdAnswer answers what awaitCreated answered, also once the payment has closed (a late retry of the start)', async () => {
  bed.newFake();
  const handle = await bed.startPayment();
  const answer = await handle.executeUpdate(awaitCreatedForRequestUpdate, {
    args: [{ requestFingerprint: await ownFingerprint(handle) }],
  });
  expect(answer.outcome).toBe('CREATED');
  expect(await handle.query(createdAnswerQuery)).toEqual(answer);
  await handle.terminate('closed before the retry came');
  expect(await handle.query(createdAnswerQuery)).toEqual(answer);
});
