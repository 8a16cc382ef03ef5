// A payment waiting in NEEDS_ATTENTION because another funded payment of its request is still moving (past the
// 30-day limit) keeps reading that payment on a timer: when the provider has ended it and no notice came, the run
// still ends, even with no entity left to hear it. A wait without a timer would keep the run — and the pinned build
// it runs on — open for good.
import { getPaymentState, requotePayment, startPayment } from '../../../src/client';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { uniqueWorkflowId } from '../../support/temporal';
import { QUOTE_VALIDITY_MS } from '../support/fake-provider';
import { closedPaymentOutcome, deliverPaymentEvent, eventually } from '../support/harness';
import { DAY, MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

describe('NEEDS_ATTENTION while another funded payment still moves', () => {
  it('reads the other payment on a timer and ends once the provider says it ended, with no notice', async () => {
    const fake = bed.newFake({ entityReconcileEveryMs: DAY }); // 31 days: the entities' hourly reads are not what is tested;
    const paymentKey = uniqueWorkflowId('still');
    const started = await startPayment(
      bed.env.client,
      { paymentKey, request: paymentRequest(), options: { expiredLingerMs: MIN } },
      { taskQueue: bed.taskQueue },
    );
    bed.worker.started.add(started.workflowId);
    if (started.created.outcome !== 'CREATED') throw new Error('payment not created');
    const first = started.created.providerPaymentId;
    const sentAt = await bed.env.currentTimeMs();
    await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
    const requoted = await requotePayment(bed.env.client, paymentKey, { updateId: `${paymentKey}-rq1` });
    if (requoted.outcome !== 'CREATED') throw new Error('requote refused');
    const second = requoted.providerPaymentId;
    // funds on both payments of the request (spec: States and transitions, row 2 — a late notice)
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(second, await bed.env.currentTimeMs()));
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.fund(first, sentAt));
    await eventually(
      () => getPaymentState(bed.env.client, paymentKey),
      (s) => (s.alerts ?? []).some((a) => a.kind === 'DOUBLE_FUNDED'),
    );
    const followed = (await getPaymentState(bed.env.client, paymentKey)).providerPaymentId!;
    const other = followed === first ? second : first;
    await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(followed, 'COMPLETED'));
    await bed.env.sleep(31 * DAY);
    await eventually(
      () => getPaymentState(bed.env.client, paymentKey),
      (s) => s.phase === 'NEEDS_ATTENTION',
    );

    // the other payment completes at the provider; its webhook is lost, and its entity (which would read it) is
    // gone too (terminated by an operator, or stranded on a stopped build)
    await bed.env.client.workflow.getHandle(providerPaymentWorkflowId(other)).terminate('test: entity gone');
    await fake.advance(other, 'COMPLETED');
    await bed.env.sleep(2 * DAY);
    const handle = bed.env.client.workflow.getHandle(started.workflowId);
    expect(await closedPaymentOutcome(handle)).toMatchObject({ outcome: 'COMPLETED' });
  });
});
