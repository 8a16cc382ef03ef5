// The entity's moves after the outcome across builds (workflows/provider-payment/steps/announce-late.ts): what an
// older build wrote in `eventsFor.told` (the status alone, before ENTITY_PATCHES.announcesRefundKeepingStatus) and
// carried over by continue-as-new must not make the new build announce a refund its subscriber was already sent.
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { iso } from '../support/fake-provider';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();
const { providerCreates, send } = providerPaymentDriver(bed);
const MIN = 60_000;

describe('moves after the outcome across an upgrade', () => {
  it('an EXPIRED+refunded snapshot the older build forwarded (told "EXPIRED", carried over) is not announced again', async () => {
    bed.worker.deliveredEvents.length = 0;
    bed.newFake();
    const now = await bed.env.currentTimeMs();
    // late funds refunded on an EXPIRED payment keep the status (spec: States and transitions, row 4)
    const refunded = await providerCreates({
      status: 'EXPIRED',
      lifecycle: { createdAt: iso(now - 3 * MIN), expiredAt: iso(now - 2 * MIN), refundedAt: iso(now - MIN) },
    } as never);
    const key = `upgrade-${refunded.id}`;
    const subscriber = `payment:${key}`; // closed long ago: no such workflow runs now
    bed.worker.started.add(paymentEventsWorkflowId(key));
    bed.worker.started.add(providerPaymentWorkflowId(refunded.id));
    // the input an older build's run carried over: its subscriber was sent `refunded` (forwardUntilSettled) and the
    // old rule wrote the status alone as what it was told
    await send(refunded, 'evt_same', {
      payment: refunded,
      subscribers: [subscriber],
      eventsFor: [{ subscriber, paymentKey: key, endpointUrl: null, told: 'EXPIRED' }],
      lingerAfterTerminalMs: 30 * MIN,
    });
    // a change of a figure only (the service's fee), read back: forwarded, the closed subscriber is dropped, no move
    const refigured = bed.fake.set(refunded.id, { fee: refunded.fee + 1 });
    await send(refigured, 'evt_fee');
    await bed.env.sleep(40 * MIN); // past the linger: the run ends
    expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key)).toEqual([]);
  }, 90_000);

  it('a refund heard after an older build carried its subscriber over as closed is still announced, once', async () => {
    bed.worker.deliveredEvents.length = 0;
    bed.newFake();
    const now = await bed.env.currentTimeMs();
    const expired = await providerCreates({
      status: 'EXPIRED',
      lifecycle: { createdAt: iso(now - 3 * MIN), expiredAt: iso(now - 2 * MIN) },
    } as never);
    const key = `upgrade-late-${expired.id}`;
    const subscriber = `payment:${key}`;
    bed.worker.started.add(paymentEventsWorkflowId(key));
    bed.worker.started.add(providerPaymentWorkflowId(expired.id));
    await send(expired, 'evt_same', {
      payment: expired,
      subscribers: [], // closed before the older run carried over
      eventsFor: [{ subscriber, paymentKey: key, endpointUrl: null, told: 'EXPIRED' }],
      lingerAfterTerminalMs: 30 * MIN,
    });
    const refunded = bed.fake.set(expired.id, {
      lifecycle: { ...expired.lifecycle, refundedAt: iso(now) },
    } as never);
    await send(refunded, 'evt_refund');
    await bed.env.sleep(40 * MIN);
    expect(
      bed.worker.deliveredEvents
        .filter((e) => e.paymentKey === key)
        .map((e) => [e.type, e.data.providerStatus]),
    ).toEqual([['payment.moved_after_outcome', 'EXPIRED']]);
  }, 90_000);

  it("a refund an older build's closed subscriber was sent before it closed (its outcome says so) is not announced again", async () => {
    bed.worker.deliveredEvents.length = 0;
    bed.newFake();
    const now = await bed.env.currentTimeMs();
    const refunded = await providerCreates({
      status: 'EXPIRED',
      lifecycle: { createdAt: iso(now - 3 * MIN), expiredAt: iso(now - 2 * MIN), refundedAt: iso(now - MIN) },
    } as never);
    const key = `upgrade-told-${refunded.id}`;
    const subscriber = `payment:${key}`;
    bed.worker.started.add(paymentEventsWorkflowId(key));
    bed.worker.started.add(providerPaymentWorkflowId(refunded.id));
    // what the closed payment told its backend: its outcome carried the refund
    bed.worker.lateEventsLookup = async () => ({
      subscriber,
      paymentKey: key,
      endpointUrl: null,
      told: 'EXPIRED+REFUNDED',
    });
    try {
      await send(refunded, 'evt_same', {
        payment: refunded,
        subscribers: [], // closed before the older run carried over: nothing in the entity says what it was sent
        eventsFor: [{ subscriber, paymentKey: key, endpointUrl: null, told: 'EXPIRED' }],
        lingerAfterTerminalMs: 30 * MIN,
      });
      await bed.env.sleep(40 * MIN);
      expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key)).toEqual([]);
    } finally {
      bed.worker.lateEventsLookup = null;
    }
  }, 90_000);
});
