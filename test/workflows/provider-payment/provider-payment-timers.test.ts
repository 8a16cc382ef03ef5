// providerPayment entity: the timer-driven parts (reconciliation when events are overdue, closing after a
// terminal status), in their own file: one time-skipping server per file keeps time skipping predictable.
import { eventually } from '../support/harness';
import { providerPaymentDriver } from '../support/provider-payment-entity';
import { MIN, useTestBed } from '../support/test-bed';

const bed = useTestBed();

const { providerCreates, send, snapshot } = providerPaymentDriver(bed);

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

  it('re-reads after 1 and 5 quiet minutes, not only after the hourly interval (stale entity)', async () => {
    bed.newFake();
    const p = await providerCreates();
    await send(p, 'evt_1'); // the default interval: 1 hour
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment !== null,
    );
    await bed.fake.fund(p.id, await bed.env.currentTimeMs()); // its webhook is lost
    await bed.env.sleep(2 * MIN);
    const first = await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'PENDING',
    );
    expect(first.statusHistory.at(-1)).toMatchObject({ status: 'PENDING', cause: 'reconcile' });
    await bed.fake.advance(p.id, 'COMPLETED'); // lost too
    await bed.env.sleep(6 * MIN);
    await eventually(
      () => snapshot(p.id),
      (s) => s.payment?.status === 'COMPLETED',
    );
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
