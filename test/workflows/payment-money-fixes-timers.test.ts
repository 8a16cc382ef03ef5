// payment workflow: fixes of the review of issue 9 (money safety) that need time to pass (env.sleep). A file of
// its own: a refused update can lock time skipping for the rest of the server's life (see
// payment-money-safety-timers.test.ts), so every refusal here comes after the last sleep of its test, and each
// test that sleeps runs before any test that is refused.
import { ApplicationFailure } from '@temporalio/common';
import { paymentStateQuery, requoteUpdate, resolveCreateUpdate } from '../../workflows/messages';
import { QUOTE_VALIDITY_MS } from './support/fake-provider';
import { created, refusalType } from './support/harness';
import { MIN, paymentRequest, useTestBed } from './support/test-bed';

const bed = useTestBed();

async function expireQuote(): Promise<void> {
  await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
}

describe("a requote's create that needs an operator (review 4)", () => {
  it('stays NEEDS_ATTENTION until the named payment is adopted: a failed read can be retried', async () => {
    const fake = bed.newFake();
    const handle = await bed.startPayment();
    await created(handle);
    await expireQuote();
    fake.createFailures.push(
      ApplicationFailure.create({ type: 'CREATE_OUTCOME_UNKNOWN', message: 'unknown', nonRetryable: true }),
    );
    expect((await handle.executeUpdate(requoteUpdate)).outcome).toBe('NEEDS_ATTENTION');
    // the operator names a payment that cannot be read (a typo): refused, and the create still waits
    expect(
      await refusalType(handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: 'pay_typo' }] })),
    ).toBe('RESOLVE_REFUSED');
    // meanwhile no further requote may create yet another provider payment
    expect(await refusalType(handle.executeUpdate(requoteUpdate))).toBe('REQUOTE_REFUSED');
    expect(fake.callsOf('createPayment')).toHaveLength(2);
    // the operator tries again with the right id
    const made = await fake.activities().createPayment(paymentRequest() as never, `${handle.workflowId}:create:1`);
    const state = await handle.executeUpdate(resolveCreateUpdate, { args: [{ providerPaymentId: made.id }] });
    expect(state.superseded.map((s) => s.id)).toContain(made.id);
    expect((await handle.query(paymentStateQuery)).timeline.some((t) => t.kind === 'adopted')).toBe(true);
  });
});
