// A fresh entity run (its predecessor ended after its linger) looks up the closed payment's events registration
// (workflows/provider-payment/steps/announce-late.ts, activities/late-events-activities.ts). A lookup that did not
// answer — Temporal not answering, the payment still running — is no answer: a move heard later in the run is still
// announced once the lookup answers.
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { ApplicationFailure } from '@temporalio/common';
import { eventually } from '../support/harness';
import { iso } from '../support/fake-provider';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';
import { recordNewHistories } from '../../support/record-new-histories';

const bed = useTestBed();
const { providerCreates, send } = providerPaymentDriver(bed);
const MIN = 60_000;

afterEach(() => {
  bed.worker.lateEventsLookup = null;
});

describe('the registration lookup after the linger', () => {
  it("a lookup that failed is asked again on the run's timer, and the moves after the outcome are announced", async () => {
    bed.worker.deliveredEvents.length = 0;
    bed.newFake();
    const now = await bed.env.currentTimeMs();
    // a legacy late funding revived an EXPIRED payment (spec: States and transitions, row 5): it may have moved
    const revived = await providerCreates({
      status: 'COMPLETED',
      lifecycle: {
        createdAt: iso(now - 9 * MIN),
        expiredAt: iso(now - 8 * MIN),
        completedAt: iso(now - MIN),
      },
    } as never);
    const key = `lookup-${revived.id}`;
    bed.worker.started.add(paymentEventsWorkflowId(key));
    bed.worker.started.add(providerPaymentWorkflowId(revived.id));
    let answering = false;
    bed.worker.lateEventsLookup = async () => {
      // the lookup gave up (in production: Temporal not answering for its 10-minute schedule-to-close, measured by the
      // worker's clock, which the time-skipping server does not move: so it gives up at once here)
      if (!answering) throw ApplicationFailure.nonRetryable('test: Temporal unavailable');
      return { subscriber: `payment:${key}`, paymentKey: key, endpointUrl: null, told: 'EXPIRED' };
    };
    // a fresh run: reads, then looks up, and gives up after 10 minutes (the lookup's schedule-to-close)
    await send(revived, 'evt_late');
    await bed.env.sleep(15 * MIN); // two lookups unanswered (at once, and 10 minutes later)
    answering = true;
    await bed.env.sleep(15 * MIN); // the third, on the run's own timer, answers: the revival is told
    await eventually(
      () => Promise.resolve(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).length),
      (n) => n >= 1,
    );
    // the receiving bank returns it (spec: States and transitions, row 4)
    const returned = bed.fake.set(revived.id, {
      status: 'REFUNDED',
      error: { code: 'FUNDS_RETURNED_BY_RECEIVING_BANK', message: 'returned' },
      lifecycle: { ...revived.lifecycle, refundedAt: iso(await bed.env.currentTimeMs()) },
    } as never);
    await send(returned, 'evt_returned');
    await bed.env.sleep(10 * MIN);
    expect(
      bed.worker.deliveredEvents
        .filter((e) => e.paymentKey === key)
        .map((e) => [e.type, e.data.providerStatus]),
    ).toEqual([
      ['payment.moved_after_outcome', 'COMPLETED'],
      ['payment.moved_after_outcome', 'REFUNDED'],
    ]);
    await recordNewHistories(bed.env.client, bed.env.address, 'entity-lookup-retried', [
      providerPaymentWorkflowId(revived.id),
    ]);
  }, 120_000);
});

describe('a payment still running at the lookup', () => {
  it('"not yet" is no give-up: the run asks again until the payment has closed, and announces the move once', async () => {
    bed.worker.deliveredEvents.length = 0;
    bed.newFake();
    const now = await bed.env.currentTimeMs();
    const revived = await providerCreates({
      status: 'COMPLETED',
      lifecycle: {
        createdAt: iso(now - 9 * MIN),
        expiredAt: iso(now - 8 * MIN),
        completedAt: iso(now - MIN),
      },
    } as never);
    const key = `running-${revived.id}`;
    bed.worker.started.add(paymentEventsWorkflowId(key));
    bed.worker.started.add(providerPaymentWorkflowId(revived.id));
    let running = true;
    let lookups = 0;
    bed.worker.lateEventsLookup = async () => {
      lookups++;
      // the payment is stuck (still running); an operator closes it a day later, having told its backend EXPIRED
      if (running) return { notYet: 'payment-running' };
      return { subscriber: `payment:${key}`, paymentKey: key, endpointUrl: null, told: 'EXPIRED' };
    };
    await send(revived, 'evt_late');
    await bed.env.sleep(24 * 60 * MIN); // more than 4 lookups' worth of the 10-minute retry
    expect(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key)).toEqual([]);
    running = false;
    await bed.env.sleep(12 * 60 * MIN);
    await eventually(
      () => Promise.resolve(bed.worker.deliveredEvents.filter((e) => e.paymentKey === key).length),
      (n) => n >= 1,
    );
    await bed.env.sleep(12 * 60 * MIN);
    expect(
      bed.worker.deliveredEvents
        .filter((e) => e.paymentKey === key)
        .map((e) => [e.type, e.data.providerStatus]),
    ).toEqual([['payment.moved_after_outcome', 'COMPLETED']]);
    // a stuck payment is waited for at the slow pace, not every 10 minutes
    expect(lookups).toBeLessThanOrEqual(8);
    await recordNewHistories(bed.env.client, bed.env.address, 'entity-lookup-waits-for-running-payment', [
      providerPaymentWorkflowId(revived.id),
    ]);
  }, 120_000);
});
