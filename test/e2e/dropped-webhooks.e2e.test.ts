// Webhooks may never arrive (ARCHITECTURE: "a webhook is a hint as much as a fact"): with every delivery
// dropped, the payment still reaches its outcome through the timer-driven GET reconciliation, and the
// reconcilePayments run (the payment-reconcile Schedule's) tells a payout's entity what it missed.
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import { startPayment } from '../../src/client/payments';
import { freePort } from '../support/ports';
import { recordNewHistories } from '../support/record-new-histories';
import { eventually, startTestStack, uniqueKey } from './stack-support';
import {
  PROVIDER_PAYMENT_WORKFLOW_TYPE,
  providerPaymentSnapshotQuery,
  subscribeSignal,
  providerPaymentWorkflowId,
  type ProviderPaymentSnapshot,
} from '../../workflows/provider-payment/api';
import { paymentWorkflowOfEntityRuns, subscribedBy } from '../../activities/late-events-sources';
import type { Payment } from '../../src/contract';
import { demoPaymentRequest } from '../support/demo-payment-request';
import { RECONCILE_PAYMENTS_WORKFLOW_TYPE } from '../../workflows/reconcile-payments/api';
import type { ReconcileRecentPaymentsResult } from '../../activities/reconcile-activities';

jest.setTimeout(120_000);

let stack: LocalStack;
beforeAll(async () => {
  // Nothing listens on this port: every webhook delivery fails (connection refused).
  const blackHole = `http://127.0.0.1:${await freePort()}/webhooks`;
  stack = await startTestStack({ sandboxWebhookUrls: [blackHole], sandbox: { demoData: true } });
});
afterAll(async () => {
  await stack?.close();
});

it('completes a payment whose webhooks are all dropped, by reconciling with GET', async () => {
  const key = uniqueKey('e2e-dropped');
  const started = await startPayment(
    stack.client,
    {
      paymentKey: key,
      request: demoPaymentRequest(key, 42),
      options: { reconcileEveryMs: 1_000 },
    },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  await got.post(`${stack.sandbox.url}/sandbox/payments/${started.created.providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  const result = await started.result();
  expect(result.outcome).toBe('COMPLETED');
  expect(stack.webhooks.counters.accepted).toBe(0); // nothing reached the ingress
  const deliveries = await got(`${stack.sandbox.url}/sandbox/webhooks`, {
    headers: stack.sandbox.controlHeaders,
  }).json<unknown>();
  expect(JSON.stringify(deliveries)).toMatch(/ECONNREFUSED|failed|error/i);

  // The stale-entity gap: the entity (reconciling hourly by itself) is told what the payment's own GET
  // found, so it shows the final state too, not AWAITING_FUNDS for an hour.
  const entity = stack.client.workflow.getHandle(
    providerPaymentWorkflowId(started.created.providerPaymentId),
  );
  const snap = await eventually('the entity to show COMPLETED', async () => {
    const s = await entity.query(providerPaymentSnapshotQuery);
    return s.payment?.status === 'COMPLETED' ? s : null;
  });
  expect(snap.statusHistory.at(-1)).toEqual(
    expect.objectContaining({ status: 'COMPLETED', cause: 'reconcile' }),
  );
  await recordNewHistories(stack.client, stack.temporal.address, 'payment-tells-entity', [
    started.workflowId,
    entity.workflowId,
  ]);
  // the entity of a run with its quiet re-reads (patch entity-reads-sooner-when-quiet)
  await recordNewHistories(stack.client, stack.temporal.address, 'entity-reads-sooner', [entity.workflowId]);
  await entity.terminate('test over');
});

it('reconciles a PAYIN and its conversion whose webhooks were lost, by the reconcilePayments workflow', async () => {
  const deposit = await got
    .post(`${stack.sandbox.url}/sandbox/accounts/acc_demo_usd_autoconvert/deposit`, {
      headers: stack.sandbox.controlHeaders,
      json: { amount: 75 },
    })
    .json<Record<string, unknown>>();
  const ids = [...new Set(JSON.stringify(deposit).match(/pay_[A-Za-z0-9_-]+/g) ?? [])];
  expect(ids.length).toBeGreaterThanOrEqual(2);
  // nobody here started them and their webhooks are gone: no entity follows them
  for (const id of ids)
    await expect(stack.client.workflow.getHandle(providerPaymentWorkflowId(id)).describe()).rejects.toThrow(
      /not found/i,
    );

  const result = await stack.client.workflow.execute(RECONCILE_PAYMENTS_WORKFLOW_TYPE, {
    workflowId: uniqueKey('reconcile'),
    taskQueue: stack.taskQueue,
    args: [{ windowMs: 60 * 60_000 }],
  });
  expect(result.signalled).toEqual(expect.arrayContaining(ids));
  const roles = await eventually('entities for the PAYIN and the conversion', async () => {
    const found: string[] = [];
    for (const id of ids) {
      const snap = await stack.client.workflow
        .getHandle(providerPaymentWorkflowId(id))
        .query(providerPaymentSnapshotQuery);
      found.push(snap.role);
    }
    return found.includes('PAYIN') && found.includes('CONVERSION') ? found : null;
  });
  expect(roles).toEqual(expect.arrayContaining(['PAYIN', 'CONVERSION']));
  for (const id of ids)
    await stack.client.workflow.getHandle(providerPaymentWorkflowId(id)).terminate('test over');
});

/** The bookkeeping of each local activity the workflow ran (the marker's `data`, plaintext: written past the codec). */
async function localActivityTypes(workflowId: string): Promise<string[]> {
  const history = await stack.client.workflow.getHandle(workflowId).fetchHistory();
  const types: string[] = [];
  for (const event of history.events ?? []) {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') continue;
    for (const payload of marker.details?.data?.payloads ?? [])
      types.push(
        String(
          (JSON.parse(Buffer.from(payload.data ?? []).toString()) as { activity_type?: unknown })
            .activity_type,
        ),
      );
  }
  return types;
}

it('completes a payout whose funding webhooks never arrive once the reconcilePayments run tells its entity, the listing being the service’s answer', async () => {
  const key = uniqueKey('e2e-sweep');
  // The payment's own read is 6 h away (default) and its quote's 15 min: nothing of its own reads within this test.
  const started = await startPayment(
    stack.client,
    { paymentKey: key, request: demoPaymentRequest(key, 43) },
    { taskQueue: stack.taskQueue },
  );
  if (started.created.outcome !== 'CREATED') throw new Error('not created');
  const providerPaymentId = started.created.providerPaymentId;
  const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(providerPaymentId));
  await got.post(`${stack.sandbox.url}/sandbox/payments/${providerPaymentId}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  await eventually('the sandbox to complete the payout', async () =>
    (await stack.provider.payments.get(providerPaymentId)).status === 'COMPLETED' ? true : null,
  );

  // Every webhook went to the black hole: neither the entity nor the payment knows (the entity's first quiet read
  // is a minute after its start; this test is done well before).
  expect((await entity.query(providerPaymentSnapshotQuery)).payment?.status).not.toBe('COMPLETED');
  expect((await stack.client.workflow.getHandle(started.workflowId).describe()).status.name).toBe('RUNNING');
  await eventually('visibility to list the entity', async () => {
    const { count } = await stack.client.workflow.count(
      `WorkflowId = '${entity.workflowId}' AND ExecutionStatus = 'Running' AND PaymentStatus IS NOT NULL`,
    );
    return count === 1 ? true : null;
  });

  // one run of reconcilePayments, as the Schedule starts it
  const reconcileRuns: string[] = [];
  const reconcileOnce = () => {
    const workflowId = uniqueKey('reconcile');
    reconcileRuns.push(workflowId);
    return stack.client.workflow.execute<
      (input: { windowMs: number }) => Promise<ReconcileRecentPaymentsResult>
    >(RECONCILE_PAYMENTS_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [{ windowMs: 60 * 60_000 }],
    });
  };
  const result = await reconcileOnce();
  expect(result.followedSignalled).toBe(1);
  expect(result.signalled).not.toContain(providerPaymentId); // a payout is not a PAYIN: told by the followed path only

  const outcome = await Promise.race([
    started.result(),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('payment not COMPLETED within 30 s of the reconcile run')), 30_000),
    ),
  ]);
  expect(outcome.outcome).toBe('COMPLETED');
  const snap = await entity.query(providerPaymentSnapshotQuery);
  expect(snap.payment?.status).toBe('COMPLETED');
  expect(snap.unconfirmed).toEqual([]);
  expect(snap.pushMismatches).toEqual([]);
  // The listing is a read answered to our own call, not a push (workflows/provider-payment/knowledge.ts): taken as
  // it came, with no second read by the entity, and no timer read came first.
  expect(await localActivityTypes(entity.workflowId)).toEqual([]);
  const history = await entity.fetchHistory();
  expect(
    (history.events ?? []).some(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'getPayment',
    ),
  ).toBe(false);
  // A second run finds the entity final: nothing to tell.
  await eventually('visibility to show the entity COMPLETED', async () => {
    const { count } = await stack.client.workflow.count(
      `WorkflowId = '${entity.workflowId}' AND PaymentStatus = 'COMPLETED'`,
    );
    return count === 1 ? true : null;
  });
  const again = await reconcileOnce();
  expect(again.followedSignalled).toBe(0);
  // the sweep as the periodic read: the payment, its entity and the sweep run that told it, for the replay test
  await recordNewHistories(stack.client, stack.temporal.address, 'sweep-tells-waiting-payout', [
    started.workflowId,
    entity.workflowId,
    reconcileRuns[0]!,
  ]);
  await entity.terminate('test over');
});

it("a provider payment no payment names in visibility (a requote's abandoned one): its ended entity run, read back through the codec, names the payment whose events it kept", async () => {
  const key = uniqueKey('e2e-ended-entity');
  const p = await stack.provider.payments.create(demoPaymentRequest(key, 41) as never, {
    idempotencyKey: key,
  });
  const entity = stack.client.workflow.getHandle(providerPaymentWorkflowId(p.id));
  const subscribe = (payment: Payment) =>
    stack.client.workflow.signalWithStart(PROVIDER_PAYMENT_WORKFLOW_TYPE, {
      workflowId: entity.workflowId,
      taskQueue: stack.taskQueue,
      // the registration a payment with events leaves with its entity; a linger of a second to end soon
      args: [
        {
          providerPaymentId: p.id,
          lingerAfterTerminalMs: 1_000,
          // its outcome told COMPLETED: no move after it to announce here
          eventsFor: [
            { subscriber: `payment:${key}`, paymentKey: key, endpointUrl: null, told: 'COMPLETED' },
          ],
        },
      ],
      // the payment's subscription (as its worker sends it: bound to the entity)
      signal: subscribeSignal,
      signalArgs: [{ workflowId: `payment:${key}`, has: payment }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  await got.post(`${stack.sandbox.url}/sandbox/payments/${p.id}/fund`, {
    headers: stack.sandbox.controlHeaders,
    json: {},
  });
  const completed = await eventually('the sandbox to complete it', async () => {
    const read = await stack.provider.payments.get(p.id);
    return read.status === 'COMPLETED' ? read : null;
  });
  // a fresh run reads it (COMPLETED: what its payment's outcome told, no move to announce), lingers a second, ends
  await subscribe(completed);
  const ended = (await entity.result()) as ProviderPaymentSnapshot;
  expect(ended.eventsFor).toEqual([`payment:${key}`]);
  // what a fresh run's lookup reads when visibility names no payment: the ended run, found in visibility by its own
  // ID, type and task queue, its result decoded by the client's codec (bound to the entity's ID)
  const named = await eventually('visibility to list the ended run', () =>
    paymentWorkflowOfEntityRuns(stack.client, stack.taskQueue, p.id),
  );
  expect(named).toBe(`payment:${key}`);
  expect(await paymentWorkflowOfEntityRuns(stack.client, 'another-task-queue', p.id)).toBeNull();
  // the proof a payment only visibility names must show: its subscribe signal in the entity's history, decoded
  expect(await subscribedBy(stack.client, stack.taskQueue, p.id, `payment:${key}`)).toBe(true);
  expect(await subscribedBy(stack.client, stack.taskQueue, p.id, `payment:${key}-other`)).toBe(false);
});
