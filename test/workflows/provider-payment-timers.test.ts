// providerPayment entity: the timer-driven parts (reconciliation when events are overdue, closing after a
// terminal status), in their own file: one time-skipping server per file keeps time skipping predictable.
import type { Payment } from '../../src/contract';
import {
  providerPaymentEventSignal,
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
  type ProviderPaymentInput,
} from '../../workflows/messages';
import { eventually } from './support/harness';
import { MIN, paymentRequest, useTestBed } from './support/test-bed';

const bed = useTestBed();

async function providerCreates(overrides: Partial<Payment> = {}): Promise<Payment> {
  const p = await bed.fake.activities().createPayment(paymentRequest() as never, `test:${Math.random()}`);
  return bed.fake.set(p.id, overrides);
}

async function send(p: Payment, eventId: string, input: Partial<ProviderPaymentInput> = {}) {
  const handle = await bed.env.client.workflow.signalWithStart('providerPayment', {
    workflowId: providerPaymentWorkflowId(p.id),
    taskQueue: bed.taskQueue,
    args: [{ providerPaymentId: p.id, ...input }],
    signal: providerPaymentEventSignal,
    signalArgs: [{ eventId, type: 'payment.updated', payment: p }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return bed.env.client.workflow.getHandle(handle.workflowId);
}

const snapshot = (id: string) =>
  bed.env.client.workflow.getHandle(providerPaymentWorkflowId(id)).query(providerPaymentSnapshotQuery);

describe('providerPayment entity timers', () => {
  it('reconciles with GET when no event came for the configured interval (a dropped webhook)', async () => {
    bed.newFake();
    const p = await providerCreates();
    await send(p, 'evt_1', { reconcileEveryMs: 10 * MIN });
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment !== null,
    );
    await bed.fake.fund(p.id, await bed.env.currentTimeMs()); // the provider moves; its webhook is lost
    expect((await snapshot(p.id)).payment?.status).toBe('AWAITING_FUNDS');
    await bed.env.sleep(11 * MIN);
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'PENDING',
    );
    expect(snap.statusHistory.at(-1)).toMatchObject({ status: 'PENDING', cause: 'reconcile' });
  });

  it('closes a while after a terminal status', async () => {
    bed.newFake();
    const p = await providerCreates();
    const handle = await send(p, 'evt_0', { lingerAfterTerminalMs: 60 * MIN });
    await bed.fake.fund(p.id, await bed.env.currentTimeMs());
    await send(await bed.fake.advance(p.id, 'COMPLETED'), 'evt_done');
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'COMPLETED',
    );
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await bed.env.sleep(61 * MIN);
    await eventually(
      () => handle.describe(),
      (d) => d.status.name === 'COMPLETED',
    );
  });
});
