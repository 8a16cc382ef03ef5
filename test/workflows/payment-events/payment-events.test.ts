// A payment started with `events` hands each lifecycle change to its delivery workflow, in order, with ids that
// stay the same on replay; the bodies carry no customer data; a payment started without `events` hands over none.
import type { WorkflowHandle } from '@temporalio/client';
import { XborderEventSchema } from '../../../src/contract/outbound-events';
import { paymentStateQuery } from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { getPaymentEventsState, paymentEventsWorkflowId } from '../../../workflows/payment-events/api';
import { deliverPaymentEvent, eventually } from '../support/harness';
import { useTestBed } from '../support/test-bed';

const bed = useTestBed();

async function createdId(handle: WorkflowHandle): Promise<string> {
  const s = await eventually(
    () => handle.query(paymentStateQuery),
    (st) => st.providerPaymentId !== null,
  );
  bed.worker.started.add(providerPaymentWorkflowId(s.providerPaymentId!));
  return s.providerPaymentId!;
}

describe('a payment with outbound events', () => {
  it('sends created (instructions, quote expiry), funds_received, completed — in order, schema-valid, no customer data', async () => {
    bed.worker.deliveredEvents.length = 0;
    const handle = await bed.startPayment({ events: {} });
    const key = handle.workflowId.replace(/^payment:/, '');
    bed.worker.started.add(paymentEventsWorkflowId(key));
    const id = await createdId(handle);
    await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.fund(id, await bed.env.currentTimeMs()));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );
    await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
    await eventually(
      () => Promise.resolve(bed.worker.deliveredEvents.length),
      (n) => n >= 3,
    );

    const events = bed.worker.deliveredEvents.filter((e) => e.paymentKey === key);
    expect(events.map((e) => [e.sequence, e.type])).toEqual([
      [1, 'payment.created'],
      [2, 'payment.funds_received'],
      [3, 'payment.completed'],
    ]);
    for (const e of events) expect(XborderEventSchema.parse(e)).toEqual(e);
    const created = events[0]!;
    expect(created.data.fundingInstructions).toMatchObject({
      amount: expect.any(Number),
      currencyCode: expect.any(String),
    });
    expect(created.data.quote?.expiresAt).toEqual(expect.any(String));
    expect(created.data.providerPaymentId).toBe(id);
    expect(events[2]!.data).toMatchObject({ phase: 'COMPLETED', providerStatus: 'COMPLETED' });
    // ids are stable per change and distinct: <first run id>:<sequence>
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events[0]!.id).toMatch(/^[0-9a-f-]{36}:1$/);
    // no personal data: the request's customer, its free-text fields and the caller's limits never leave
    const text = JSON.stringify(events);
    expect(text).not.toContain('cus_1');
    expect(Object.keys(created.data).sort()).toEqual([
      'code',
      'destination',
      'fee',
      'fundingDeadline',
      'fundingInstructions',
      'phase',
      'providerPaymentId',
      'providerStatus',
      'quote',
      'requotes',
      'source',
    ]);
    const delivery = await getPaymentEventsState(bed.env.client, key);
    expect(delivery).toMatchObject({ delivered: 3, pending: [] });
  }, 60_000);

  it('a receiver that refuses never holds the payment back: it reaches its outcome while the events wait', async () => {
    bed.worker.deliveredEvents.length = 0;
    const original = bed.worker.deliverEvent;
    bed.worker.deliverEvent = () => Promise.reject(new Error('receiver down'));
    try {
      const handle = await bed.startPayment({ events: {} });
      const key = handle.workflowId.replace(/^payment:/, '');
      bed.worker.started.add(paymentEventsWorkflowId(key));
      const id = await createdId(handle);
      await deliverPaymentEvent(
        bed.env,
        bed.taskQueue,
        await bed.fake.fund(id, await bed.env.currentTimeMs()),
      );
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'IN_PROGRESS',
      );
      await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.advance(id, 'COMPLETED'));
      await eventually(
        () => handle.describe().then((d) => d.status.name),
        (s) => s === 'COMPLETED',
      );
      const waiting = await getPaymentEventsState(bed.env.client, key);
      expect(waiting.pending.map((p) => p.type)).toEqual([
        'payment.created',
        'payment.funds_received',
        'payment.completed',
      ]);
      expect(bed.worker.deliveredEvents).toEqual([]);
    } finally {
      bed.worker.deliverEvent = original;
    }
  }, 60_000);

  it('a payment started without `events` hands over nothing', async () => {
    const handle = await bed.startPayment();
    const key = handle.workflowId.replace(/^payment:/, '');
    const id = await createdId(handle);
    await deliverPaymentEvent(bed.env, bed.taskQueue, await bed.fake.fund(id, await bed.env.currentTimeMs()));
    await eventually(
      () => handle.query(paymentStateQuery),
      (s) => s.phase === 'IN_PROGRESS',
    );
    await expect(bed.env.client.workflow.getHandle(paymentEventsWorkflowId(key)).describe()).rejects.toThrow(
      /not found/i,
    );
  }, 60_000);
});
