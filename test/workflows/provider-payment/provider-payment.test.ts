// providerPayment entity on the time-skipping server: duplicate and out-of-order events, reconciliation
// when events are overdue, payments nobody here started, continue-as-new, closing after a terminal status.
import { eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();

const { providerCreates, send, snapshot } = providerPaymentDriver(bed);

describe('providerPayment entity', () => {
  it('a fresh run started by a webhook reads the payment first', async () => {
    bed.newFake();
    const p = await providerCreates();
    await send(p, 'evt_a');
    // The event's payment is in the state from the signal on; the GET is an activity after it: wait for both (on a
    // loaded machine a query can answer between the two)
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.payment !== null && bed.fake.callsOf('getPayment').length > 0,
    );
    expect(bed.fake.callsOf('getPayment').map((c) => c.args[0])).toEqual([p.id]);
    expect(snap.payment?.status).toBe('AWAITING_FUNDS');
  });

  it('drops a duplicate event id even when its payload differs', async () => {
    bed.newFake();
    const p = await providerCreates();
    await send(p, 'evt_1');
    const pending = await bed.fake.fund(p.id, await bed.env.currentTimeMs());
    await send(pending, 'evt_2');
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'PENDING',
    );
    await send(await bed.fake.advance(p.id, 'COMPLETED'), 'evt_2'); // same id again: dropped
    await send(pending, 'evt_3'); // a marker that is processed after it
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.seenEventIds === 3,
    );
    expect(snap.payment?.status).toBe('PENDING');
  });

  it('never moves backwards when events arrive out of order', async () => {
    bed.newFake();
    const p = await providerCreates();
    const pending = await bed.fake.fund(p.id, await bed.env.currentTimeMs());
    const sent = await bed.fake.advance(p.id, 'SENT');
    const completed = await bed.fake.advance(p.id, 'COMPLETED');
    await send(completed, 'evt_c');
    await send(sent, 'evt_s');
    await send(pending, 'evt_p');
    await send(p, 'evt_created'); // the creation event, last of all
    // a pushed final status waits for the GET that confirms it (workflows/provider-payment/push-confirmation.ts)
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.seenEventIds === 4 && s.unconfirmed?.length === 0,
    );
    expect(snap.payment?.status).toBe('COMPLETED');
    expect(snap.payment?.lifecycle.completedAt).toBe(completed.lifecycle.completedAt);
    // While the COMPLETED push waited for its read, the SENT hint may have been shown: never anything older
    // than what was shown before it, and nothing after COMPLETED.
    const statuses = snap.statusHistory.map((h) => h.status);
    expect(['COMPLETED', 'SENT,COMPLETED']).toContain(statuses.join(','));
  });

  it('keeps a refund that follows EXPIRED (spec: States and transitions, row 4)', async () => {
    bed.newFake();
    const p = await providerCreates();
    const expired = bed.fake.set(p.id, {
      status: 'EXPIRED',
      lifecycle: { ...p.lifecycle, expiredAt: new Date(await bed.env.currentTimeMs()).toISOString() },
    });
    await send(expired, 'evt_e');
    await send(await bed.fake.fund(p.id, await bed.env.currentTimeMs()), 'evt_r');
    await send(expired, 'evt_e_again_other_id'); // a stale copy under a new id
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.seenEventIds === 3 && s.unconfirmed?.length === 0, // pushed final statuses confirmed by GET
    );
    expect(snap.payment?.status).toBe('EXPIRED');
    expect(snap.payment?.lifecycle.refundedAt).not.toBeNull();
    expect(snap.payment?.error).toMatchObject({ code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' });
  });

  it('tracks a PAYIN nobody here started, and its conversion, linked by the virtual account', async () => {
    bed.newFake();
    const payin = await providerCreates({
      type: 'PAYIN',
      destination: { ...(await providerCreates()).destination, accountId: 'acc_virtual_1' },
    });
    const conversion = await providerCreates({
      type: 'PAYOUT',
      source: { ...payin.source, accountId: 'acc_virtual_1' },
    });
    await send(payin, 'evt_payin');
    await send(conversion, 'evt_conv');
    const a = await eventually(
      () => snapshot(payin.id),
      (s) => s.payment !== null,
    );
    const b = await eventually(
      () => snapshot(conversion.id),
      (s) => s.payment !== null,
    );
    expect(a).toMatchObject({ role: 'PAYIN', linkAccountId: 'acc_virtual_1', subscribers: [] });
    expect(b).toMatchObject({ role: 'CONVERSION', linkAccountId: 'acc_virtual_1' });
  });

  it('continues as new before history grows large, keeping status and seen event ids', async () => {
    bed.newFake();
    const p = await providerCreates();
    const handle = await send(p, 'evt_0', { continueAsNewAfterEvents: 30 });
    const firstRun = (await handle.describe()).runId;
    const pending = await bed.fake.fund(p.id, await bed.env.currentTimeMs());
    for (let i = 1; i <= 25; i++) await send(i === 1 ? pending : p, `evt_${i}`);
    await eventually(
      () => handle.describe(),
      (d) => d.runId !== firstRun,
    );
    await send(await bed.fake.advance(p.id, 'COMPLETED'), 'evt_3'); // seen before the continue-as-new: dropped
    await send(p, 'evt_marker');
    const snap = await eventually(
      () => snapshot(p.id),
      (s) => s.seenEventIds >= 27,
    );
    expect(snap.payment?.status).toBe('PENDING');
  });
});
