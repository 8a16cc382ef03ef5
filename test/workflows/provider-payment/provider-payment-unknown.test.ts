// A status or shape the contract does not know never freezes a payment.
import { paymentStateQuery } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { closedPaymentOutcome, created, deliverPaymentEvent, eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { snapshot } = providerPaymentDriver(bed);

it('passes an unknown status and unknown shapes through, as in progress, and goes on to the outcome', async () => {
  const fake = bed.newFake();
  const handle = await bed.startPayment();
  const c = await created(handle);
  bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
  await deliverPaymentEvent(
    bed.env,
    bed.taskQueue,
    await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
  );
  const processing = await fake.advance(c.providerPaymentId, 'PROCESSING');
  await deliverPaymentEvent(bed.env, bed.taskQueue, processing);

  // what a newer service might send: a status not in the spec's list, reasons as objects, an offset timestamp
  const onHold = fake.set(c.providerPaymentId, {
    status: 'ON_HOLD',
    statusReasons: [{ code: 'RFI', detail: 'documents requested' }],
    lifecycle: { ...processing.lifecycle, createdAt: processing.lifecycle.createdAt!.replace('Z', '+00:00') },
  } as never);
  await deliverPaymentEvent(bed.env, bed.taskQueue, onHold);
  const snap = await eventually(
    () => snapshot(c.providerPaymentId),
    (s) => s.payment?.status === 'ON_HOLD',
  );
  expect(snap.payment?.statusReasons).toEqual([{ code: 'RFI', detail: 'documents requested' }]);
  expect(snap.unknownValues).toEqual(['status ON_HOLD', 'statusReasons shape']);
  const state = await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.providerStatus === 'ON_HOLD',
  );
  expect(state.phase).toBe('IN_PROGRESS');

  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
});
