// A funding webhook lost while the payment waits for funds reaches the payment through the reconcile sweep: neither the
// payment nor its entity reads periodically (workflows/payment/steps/follow.ts, workflows/provider-payment/quiet-reads.ts),
// so the sweep is that read (activities/reconcile-activities.ts): it lists the payment workflows still waiting for
// funds (their PaymentPhase, visibility) and tells the entity of each whose listed status is past AWAITING_FUNDS. The
// entity takes the listing as our own read (from: the sweep) and tells the payment. Webhook delivery and retries are
// not shown (spec: Events 5).
import type { Client, WorkflowHandle } from '@temporalio/client';
import {
  createReconcileActivities,
  paymentsAwaitingFundsQuery,
} from '../../../activities/reconcile-activities';
import { paymentStateQuery } from '../../../workflows/payment/api';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { AWAITING_FUNDS_PHASES } from '../../../workflows/provider-payment/sweep-decision';
import { PaymentPhaseKey } from '../../../workflows/search-attributes';
import { eventually } from '../support/harness';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const HOUR = 60 * MIN;

/**
 * One run of the sweep over the fake service's payments. The time-skipping server has no advanced visibility: its list
 * is answered here as a real server would answer the sweep's two queries for this payment — the payment workflow
 * while its PaymentPhase is a waiting one, and no entity with a final status (it has none).
 */
async function sweep(payment: WorkflowHandle, entity: WorkflowHandle): Promise<void> {
  const client = bed.env.client;
  const list = ({ query }: { query?: string } = {}) =>
    (async function* () {
      if (query === paymentsAwaitingFundsQuery(bed.taskQueue)) {
        const described = await payment.describe();
        const phase = described.typedSearchAttributes.get(PaymentPhaseKey);
        if (described.status.name === 'RUNNING' && phase && AWAITING_FUNDS_PHASES.includes(phase))
          yield described;
      } else yield await entity.describe();
    })();
  const activities = createReconcileActivities({
    provider: {
      payments: {
        listAll: async function* () {
          yield* [...bed.fake.payments.values()];
        },
      },
    } as never,
    client: () =>
      ({
        workflow: { signalWithStart: client.workflow.signalWithStart.bind(client.workflow), list },
      }) as unknown as Pick<Client, 'workflow' | 'schedule'>,
    taskQueue: () => bed.taskQueue,
    heartbeat: () => undefined,
  });
  const now = await bed.env.currentTimeMs();
  await activities.reconcileRecentPayments({ since: new Date(now - 6 * HOUR).toISOString() });
}

it('a funding webhook lost while the payment waits for funds: the sweep tells the entity, which tells the payment', async () => {
  bed.newFake();
  const handle = await bed.startPayment();
  const s = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.providerPaymentId !== null && st.phase === 'AWAITING_FUNDS',
  );
  const id = s.providerPaymentId!;
  const entity = bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id));
  bed.worker.started.add(entity.workflowId);

  // the customer funds it before the quote expires (row 2: PENDING); its webhook is lost
  await bed.fake.fund(id, await bed.env.currentTimeMs());
  await bed.env.sleep(5 * MIN); // before the quote's expiry (15 min), where the payment would read it itself
  expect((await handle.query(paymentStateQuery)).phase).toBe('AWAITING_FUNDS');

  await sweep(handle, entity); // the Schedule's next run (every 15 minutes)
  const after = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.phase === 'IN_PROGRESS',
  );
  expect(after.providerStatus).toBe('PENDING');
  const snap = await entity.query(providerPaymentSnapshotQuery);
  // the sweep's listing is our own read (from: the sweep), taken as it comes: the entity holds PENDING, not held
  expect(snap.payment?.status).toBe('PENDING');
  expect(snap.unconfirmed ?? []).toHaveLength(0);
  // one tell: a second run finds the payment no longer waiting, and tells nothing
  const signalled = async () =>
    ((await entity.fetchHistory()).events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes)
      .length;
  const before = await signalled();
  await sweep(handle, entity);
  await bed.env.sleep(MIN);
  expect(await signalled()).toBe(before);
});
