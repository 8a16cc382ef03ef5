// payment.cancelled goes out when the service's word arrives (the cancelled payment can no longer be funded), as
// payment.expired does; the wait for late funds that may still follow (spec: States and transitions, rows 4–5)
// comes after it, never before it.
import { cancelUpdate, paymentStateQuery } from '../../../workflows/payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { created, eventually, sleepPastFundingDeadline } from '../support/harness';
import { DAY, MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();

it('a cancelled payment sends payment.cancelled once the service says EXPIRED, then listens a day for late funds', async () => {
  bed.newFake();
  bed.worker.deliveredEvents.length = 0;
  const handle = await bed.startPayment({ events: {}, options: { expiredLingerMs: DAY } });
  const key = handle.workflowId.replace(/^payment:/, '');
  bed.worker.started.add(paymentEventsWorkflowId(key));
  const c = await created(handle);
  bed.worker.started.add(providerPaymentWorkflowId(c.providerPaymentId));
  await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'order cancelled' }] });

  await sleepPastFundingDeadline(bed.env, handle, 30 * MIN);
  const state = await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'CANCELLED',
  );
  expect(state.outcome).toBeNull(); // still listening for late funds
  expect((await handle.describe()).status.name).toBe('RUNNING');
  const types = await eventually(
    () => Promise.resolve(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).map((e) => e.type)),
    (t) => t.includes('payment.cancelled'),
  );
  expect(types).toEqual(['payment.created', 'payment.cancel_accepted', 'payment.cancelled']);
}, 90_000);
