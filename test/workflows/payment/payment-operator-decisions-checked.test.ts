// An operator's decision is checked against what the payment knows (workflows/payment/resolve-rules.ts): a create
// whose answer was lost may still have reached the service, and its entity then tells the payment; "no payment was
// created" is refused with that evidence, and a provider payment of another request is never adopted. A retried
// start after an accepted cancel is told of the cancel, never handed live funding instructions.
import { ApplicationFailure } from '@temporalio/common';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  paymentStateQuery,
  resolveCreateUpdate,
} from '../../../workflows/payment/api';
import { providerPaymentWorkflowId } from '../../../workflows/provider-payment/api';
import { wrapActivities } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  created,
  deliverPaymentEvent,
  eventually,
  refusalType,
} from '../support/harness';
import { paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();

async function refusalMessage(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as { cause?: { message?: string } }).cause?.message ?? err);
  }
  throw new Error('the update was not refused');
}

it('a pull payment the create made and the service completed cannot be resolved as "no payment created"', async () => {
  const fake = bed.newFake();
  // the first attempt reached the service and followed its entity; the answer was lost (CREATE_OUTCOME_UNKNOWN)
  wrapActivities(fake, (inner) => ({
    createPaymentAndFollow: async (request, idempotencyKey, follow) => {
      const made = await inner.createPaymentAndFollow(request, idempotencyKey, follow);
      bed.worker.started.add(providerPaymentWorkflowId(made.payment.id));
      throw ApplicationFailure.create({
        type: 'CREATE_OUTCOME_UNKNOWN',
        message: 'attempt 2 ended with a 409',
        nonRetryable: true,
      });
    },
  }));
  const handle = await bed.startPayment({
    request: paymentRequest({
      source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_src' },
    }),
  });
  expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
  const [made] = [...fake.payments.values()];
  await deliverPaymentEvent(bed.env, bed.taskQueue, await fake.advance(made!.id, 'COMPLETED'));
  // the entity confirms by GET and tells its subscriber, whose create is not recorded
  await bed.env.sleep(60_000);

  const refused = handle.executeUpdate(resolveCreateUpdate, {
    args: [{ noPaymentCreated: true, reason: 'not found in the dashboard' }],
  });
  expect(await refusalType(refused)).toBe('RESOLVE_REFUSED');
  const why = await refusalMessage(
    handle.executeUpdate(resolveCreateUpdate, { args: [{ noPaymentCreated: true, reason: 'again' }] }),
  );
  expect(why).toContain(made!.id);
  expect(why).toContain('COMPLETED');
  expect((await handle.query(paymentStateQuery)).phase).toBe('NEEDS_ATTENTION');
  // another payment than the one the service told of is refused too
  expect(
    await refusalType(
      handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: 'pay_someone_else' }] }),
    ),
  ).toBe('RESOLVE_REFUSED');

  await handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: made!.id }] });
  expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
});

it('the operator names a provider payment of another request (another amount): refused, naming the field', async () => {
  const fake = bed.newFake();
  fake.createFailures.push(
    ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
  );
  const handle = await bed.startPayment();
  expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
  const other = await fake
    .activities()
    .createPayment(
      paymentRequest({ source: { currencyCode: 'USD', amount: 999, rail: 'ACH' } }) as never,
      'another-request',
    );
  bed.worker.started.add(providerPaymentWorkflowId(other.id));
  const why = await refusalMessage(
    handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: other.id }] }),
  );
  expect(why).toContain('source.amount');
  expect((await handle.query(paymentStateQuery)).phase).toBe('NEEDS_ATTENTION');
});

it('a start retried after an accepted cancel is told of the cancel and gets no live funding instructions', async () => {
  bed.newFake();
  const handle = await bed.startPayment();
  const first = await created(handle);
  expect(first.fundingInstructions).not.toBeNull();
  await handle.executeUpdate(cancelUpdate, { args: [{ reason: 'order cancelled' }] });
  await eventually(
    () => handle.query(paymentStateQuery),
    (s) => s.phase === 'CANCELLING',
  );
  const again = await handle.executeUpdate(awaitCreatedUpdate);
  expect(again).toMatchObject({
    outcome: 'CREATED',
    providerPaymentId: first.providerPaymentId,
    fundingInstructions: null,
    cancelled: { reason: 'order cancelled' },
  });
});

it('"no payment created" is checked against the service: a payment of this request made since the start refuses it', async () => {
  const fake = bed.newFake();
  // the first attempt reached the service, but nothing followed it: only the service knows
  wrapActivities(fake, (inner) => ({
    createPaymentAndFollow: async (request, idempotencyKey) => {
      await inner.createPayment(request, idempotencyKey);
      throw ApplicationFailure.create({
        type: 'CREATE_OUTCOME_UNKNOWN',
        message: 'attempt 2 timed out',
        nonRetryable: true,
      });
    },
  }));
  const handle = await bed.startPayment();
  expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('NEEDS_ATTENTION');
  const [made] = [...fake.payments.values()];
  bed.worker.started.add(providerPaymentWorkflowId(made!.id));
  const why = await refusalMessage(
    handle.executeUpdate(resolveCreateUpdate, {
      args: [{ noPaymentCreated: true, reason: 'not in the dashboard' }],
    }),
  );
  expect(why).toContain(`${made!.id} (AWAITING_FUNDS)`);
  expect((await handle.query(paymentStateQuery)).phase).toBe('NEEDS_ATTENTION');
  await handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: made!.id }] });
  expect((await handle.query(paymentStateQuery)).phase).toBe('AWAITING_FUNDS');
});
