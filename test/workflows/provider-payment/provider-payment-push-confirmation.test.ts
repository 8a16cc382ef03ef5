// A final status that arrives by push (a correctly signed webhook) is confirmed with a GET of the payment before
// the providerPayment entity forwards it; the GET's answer is what the payment workflow acts on. A push the GET
// does not bear out is kept in the entity's snapshot, shown by its PaymentPhase search attribute (`xborder stuck`,
// WEBHOOK_NOT_CONFIRMED) and never becomes an outcome.
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import type { Payment } from '../../../src/contract';
import { PaymentPhaseKey } from '../../../workflows/messages';
import { paymentStateQuery } from '../../../workflows/payment/api';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentEventSignal,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { PUSH_MISMATCH_PHASE } from '../../../workflows/provider-payment/push-confirmation';
import { iso, wrapActivities } from '../support/fake-provider';
import { closedPaymentOutcome, created, deliverPaymentEvent, eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { snapshot } = providerPaymentDriver(bed);

/** A payment workflow whose provider payment exists and is followed by its entity. */
async function startFollowed(): Promise<{ handle: WorkflowHandle; id: string }> {
  const handle = await bed.startPayment();
  const c = await created(handle);
  bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
  return { handle, id: c.providerPaymentId };
}

/** What a sender holding the webhook secret can sign: the payment as the service has it, but COMPLETED. */
async function forgedCompleted(id: string): Promise<Payment> {
  const now = iso(await bed.env.currentTimeMs());
  const real = bed.fake.payments.get(id)!;
  return { ...real, status: 'COMPLETED', lifecycle: { ...real.lifecycle, sentAt: now, completedAt: now } };
}

/** The entity's history, by event type, and its markers by name (patch or local activity). */
async function entityHistory(id: string): Promise<{ events: number; markers: string[]; activities: number }> {
  const history = await bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).fetchHistory();
  const events = history.events ?? [];
  return {
    events: events.length,
    markers: events.flatMap((e) =>
      e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName ?? ''] : [],
    ),
    activities: events.filter((e) => e.activityTaskScheduledEventAttributes).length,
  };
}

it('a forged COMPLETED webhook for a payment the service holds as AWAITING_FUNDS is kept as a mismatch, never an outcome', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  const eventId = await deliverPaymentEvent(bed.env, bed.taskQueue, await forgedCompleted(id));

  const [snap, described] = await eventually(
    () => Promise.all([snapshot(id), handle.describe()]),
    ([s, d]) => (s.pushMismatches?.length ?? 0) > 0 || d.status.name !== 'RUNNING',
  );
  expect(described.status.name).toBe('RUNNING');
  const state = await handle.query(paymentStateQuery);
  expect(state.outcome).toBeNull();
  expect(state.phase).toBe('AWAITING_FUNDS');
  expect(state.providerStatus).toBe('AWAITING_FUNDS');
  // kept in the entity's snapshot, with the service's answer as the entity's truth
  expect(snap.pushMismatches).toEqual([
    { eventId, pushed: 'COMPLETED', read: 'AWAITING_FUNDS', at: expect.any(String) },
  ]);
  expect(snap.unconfirmed).toEqual([]);
  expect(snap.payment?.status).toBe('AWAITING_FUNDS');
  // the entity's read was the judge
  expect(fake.callsOf('getPayment', PROVIDER_PAYMENT_WORKFLOW_TYPE).map((c) => c.args[0])).toEqual([id]);
  // listed by `xborder stuck` (WEBHOOK_NOT_CONFIRMED)
  const entity = await bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).describe();
  expect(entity.typedSearchAttributes.get(PaymentPhaseKey)).toBe(PUSH_MISMATCH_PHASE);

  // the payment still goes on to its real end, and the mismatch stays on record
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  expect((await snapshot(id)).pushMismatches).toHaveLength(1);
});

it('a final status pushed with the type of our own reads (payment.observed) is confirmed all the same', async () => {
  bed.newFake();
  const { handle, id } = await startFollowed();
  const forged = {
    ...(await forgedCompleted(id)),
    status: 'FAILED',
    error: { code: 'X', message: 'x' },
  } as Payment;
  await bed.env.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
    workflowId: providerPaymentWorkflowId(id),
    taskQueue: bed.taskQueue,
    args: [{ providerPaymentId: id }],
    signal: providerPaymentEventSignal,
    signalArgs: [{ eventId: `observed:${id}:FAILED:x`, type: 'payment.observed', payment: forged }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const snap = await eventually(
    () => snapshot(id),
    (s) => (s.pushMismatches?.length ?? 0) > 0,
  );
  expect(snap.pushMismatches?.[0]).toMatchObject({ pushed: 'FAILED', read: 'AWAITING_FUNDS' });
  expect((await handle.describe()).status.name).toBe('RUNNING');
  expect((await handle.query(paymentStateQuery)).outcome).toBeNull();
});

it('a true COMPLETED webhook is confirmed by one GET and ends the payment COMPLETED, as before', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'SENT'));
  // SENT confirmed before the service moves on (else the SENT push's read already answers COMPLETED)
  await eventually(
    () => snapshot(id),
    (s) => s.payment?.status === 'SENT',
  );
  const before = await entityHistory(id);
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  const outcome = await closedPaymentOutcome(handle);
  expect(outcome.outcome).toBe('COMPLETED');
  expect(outcome.payment?.lifecycle.completedAt).toBe(fake.payments.get(id)!.lifecycle.completedAt);

  const snap = await snapshot(id);
  expect(snap.pushMismatches).toEqual([]);
  expect(snap.unconfirmed).toEqual([]);
  expect(snap.statusHistory.at(-1)).toMatchObject({ status: 'COMPLETED', cause: 'event' });
  // one confirming read by the entity for each push that changed what it knew: the funding (PENDING), SENT and the
  // final status — a push is only a trigger to read (knowledge.ts), a status on the way included
  expect(fake.callsOf('getPayment', PROVIDER_PAYMENT_WORKFLOW_TYPE)).toHaveLength(3);
  // what it cost the entity's history: the patch marker (with its TemporalChangeVersion upsert, once per run)
  // and one local-activity marker; no activity task, no extra workflow task (docs/performance.md)
  const after = await entityHistory(id);
  const added = after.markers.slice(before.markers.length);
  expect(added.sort()).toEqual(['core_local_activity', 'core_patch']);
  expect(after.activities).toBe(before.activities);
  expect(
    (
      await bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).describe()
    ).typedSearchAttributes.get(PaymentPhaseKey),
  ).toBeUndefined();
});

it('a confirming GET that fails for a moment is retried by Temporal; the push is acted on only once it answers', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  let failures = 0;
  wrapActivities(fake, (inner) => ({
    getPayment: async (pid) => {
      if (Context.current().info.workflowType === PROVIDER_PAYMENT_WORKFLOW_TYPE && failures < 2) {
        failures++;
        throw ApplicationFailure.retryable('connection reset', 'NetworkError');
      }
      return inner.getPayment(pid);
    },
  }));
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(id, 'COMPLETED'));
  expect((await closedPaymentOutcome(handle, 30_000)).outcome).toBe('COMPLETED');
  expect(failures).toBe(2);
  expect((await snapshot(id)).pushMismatches).toEqual([]);
});

it('while the service cannot be reached the pushed COMPLETED stays held, never trusted; it is confirmed once the service answers', async () => {
  const fake = bed.newFake();
  const { handle, id } = await startFollowed();
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'IN_PROGRESS',
  );
  let down = true;
  wrapActivities(fake, (inner) => ({
    getPayment: async (pid) => {
      // the retry budget spent at once (a non-retryable fault), so the test does not wait out ten minutes of backoff
      if (down) throw ApplicationFailure.nonRetryable('service unreachable', 'NetworkError');
      return inner.getPayment(pid);
    },
  }));
  const completed = await fake.advance(id, 'COMPLETED');
  const eventId = await deliverPaymentEvent(bed.env, bed.taskQueue, completed);
  const held = await eventually(
    () => snapshot(id),
    (s) => (s.unconfirmed?.length ?? 0) > 0,
  );
  expect(held.unconfirmed).toEqual([{ eventId, status: 'COMPLETED' }]);
  expect(held.payment?.status).toBe('PENDING');
  expect(held.pushMismatches).toEqual([]);
  expect((await handle.describe()).status.name).toBe('RUNNING');
  expect((await handle.query(paymentStateQuery)).outcome).toBeNull();

  down = false;
  await bed.env.sleep(6 * MIN); // the entity tries again 5 minutes after a read that failed for good
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
  const snap = await eventually(
    () => snapshot(id),
    (s) => (s.unconfirmed?.length ?? 0) === 0,
  );
  expect(snap.payment?.status).toBe('COMPLETED');
  expect(snap.pushMismatches).toEqual([]);
});
