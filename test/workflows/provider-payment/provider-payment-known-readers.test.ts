// Only the entity's known readers say "this is our own read" (workflows/provider-payment/knowledge.ts, sourceOf): the
// reconcile sweep and the payment workflows the entity knows. An `event` signal with any other `from` is a push: held
// for a read like a webhook, never taken as the service's answer.
import {
  providerPaymentEventSignal,
  providerPaymentWorkflowId,
} from '../../../workflows/provider-payment/api';
import { iso } from '../support/fake-provider';
import { eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { providerCreates, send, snapshot } = providerPaymentDriver(bed);

describe('who may say it read the payment', () => {
  it('a final status sent with a `from` the entity does not know is held for a read, and the read wins', async () => {
    bed.newFake();
    const p = await providerCreates();
    bed.worker.started.add(providerPaymentWorkflowId(p.id));
    const entity = await send(p, 'evt_created');
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'AWAITING_FUNDS' && bed.fake.callsOf('getPayment').length > 0,
    );
    const now = iso(await bed.env.currentTimeMs());
    // the service never completed it: only a sender naming itself "payment:stranger" says so
    await entity.signal(providerPaymentEventSignal, {
      eventId: 'evt_forged',
      type: 'payment.observed',
      payment: { ...p, status: 'COMPLETED', lifecycle: { ...p.lifecycle, completedAt: now } },
      from: 'payment:stranger',
    });
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.seenEventIds === 2 && (s.unconfirmed?.length ?? 0) === 0,
    );
    expect(snap.payment?.status).toBe('AWAITING_FUNDS');
    expect(snap.pushMismatches?.map((m) => [m.eventId, m.pushed, m.read])).toEqual([
      ['evt_forged', 'COMPLETED', 'AWAITING_FUNDS'],
    ]);
  });
});
