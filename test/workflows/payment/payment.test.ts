// payment workflow on the time-skipping server with fake activities: the quote/funding table of the spec
// (States and transitions), limits, cancel and requote.
import { ApplicationFailure } from '@temporalio/common';
import { type PaymentInput } from '../../../workflows/messages';
import {
  awaitCreatedUpdate,
  cancelUpdate,
  paymentStateQuery,
  requoteUpdate,
  type PaymentOutcome,
  PAYMENT_WORKFLOW_TYPE,
} from '../../../workflows/payment/api';
import { QUOTE_VALIDITY_MS } from '../support/fake-provider';
import {
  closedPaymentOutcome,
  deliverPaymentEvent,
  eventually,
  created,
  refusalType,
} from '../support/harness';
import { MIN, paymentRequest, useTestBed } from '../support/test-bed';

const bed = useTestBed();
const newFake = bed.newFake;
const request = paymentRequest;

async function inWorker(fn: (taskQueue: string) => Promise<void>): Promise<void> {
  await fn(bed.taskQueue);
}

function startPayment(_taskQueue: string, input: Partial<PaymentInput> = {}) {
  return bed.startPayment(input);
}

describe('payment: funded before the quote expires', () => {
  it('follows PENDING → PROCESSING → SENT → COMPLETED and returns COMPLETED with the final payment', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const created = await handle.executeUpdate(awaitCreatedUpdate);
      expect(created.outcome).toBe('CREATED');
      if (created.outcome !== 'CREATED') return;
      expect(fake.callsOf('createPayment')[0]!.args[1]).toBe(`${handle.workflowId}:create:0`);
      expect(created.fundingInstructions?.toAddress).toBe(`ACCT-${created.providerPaymentId}`);

      const id = created.providerPaymentId;
      await deliverPaymentEvent(bed.env, taskQueue, await fake.fund(id, await bed.env.currentTimeMs()));
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'IN_PROGRESS',
      );
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(id, 'PROCESSING'));
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(id, 'SENT'));
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(id, 'COMPLETED'));
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('COMPLETED');
      expect(outcome.payment?.status).toBe('COMPLETED');
      expect(outcome.payment?.lifecycle.completedAt).not.toBeNull();
      const state = await handle.query(paymentStateQuery);
      expect(state.timeline.map((t) => t.kind)).toEqual(
        expect.arrayContaining(['created', 'status', 'outcome']),
      );
    });
  });
});

describe('payment: the quote/funding table (spec: States and transitions)', () => {
  it('row 3: at quote expiry the status stays AWAITING_FUNDS, the phase becomes QUOTE_EXPIRED and one GET reconciles', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      expect(fake.callsOf('getPayment')).toHaveLength(0);
      await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
      const state = await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'QUOTE_EXPIRED' && s.timeline.some((t) => t.kind === 'reconciled'),
      );
      expect(state.providerStatus).toBe('AWAITING_FUNDS');
      // the payment's one reconciling GET; its entity reads on its own when quiet (after 1, 5, 15 min)
      expect(fake.callsOf('getPayment', PAYMENT_WORKFLOW_TYPE).map((x) => x.args[0])).toEqual([
        c.providerPaymentId,
      ]);
      const described = await handle.describe();
      expect(described.typedSearchAttributes.get({ name: 'PaymentPhase', type: 'KEYWORD' })).toBe(
        'QUOTE_EXPIRED',
      );
      expect(described.typedSearchAttributes.get({ name: 'ProviderPaymentId', type: 'KEYWORD' })).toBe(
        c.providerPaymentId,
      );
      await handle.terminate('test over');
    });
  });

  it('row 2: a late funding notice for funds sent before quote.expiresAt is honoured and completes', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      const sentAt = Date.parse(c.quote.expiresAt) - MIN; // sent a minute before expiry
      await bed.env.sleep(QUOTE_VALIDITY_MS + 30 * MIN); // the bank notice arrives 30 minutes late
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'QUOTE_EXPIRED',
      );
      await deliverPaymentEvent(bed.env, taskQueue, await fake.fund(c.providerPaymentId, sentAt));
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'IN_PROGRESS',
      );
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(c.providerPaymentId, 'SENT'));
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('COMPLETED');
    });
  });

  it('funds sent after quote expiry are refunded: REFUNDED(FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED)', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
      );
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'REFUNDED', code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' });
      expect(outcome.payment?.lifecycle.refundedAt).not.toBeNull();
    });
  });

  it('row 1: no funds within 3 business days across a weekend → EXPIRED on Wednesday for a Friday payment', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      // move the server clock to the next Friday, 12:00 UTC
      const now = await bed.env.currentTimeMs();
      const d = new Date(now);
      const daysToFriday = (5 - d.getUTCDay() + 7) % 7 || 7;
      const friday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + daysToFriday, 12);
      await bed.env.sleep(friday - now);
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      const createdAt = new Date(fake.payments.get(c.providerPaymentId)!.lifecycle.createdAt!);
      expect(createdAt.getUTCDay()).toBe(5);
      const wednesday = new Date(createdAt.getTime() + 5 * 24 * 60 * MIN);
      expect(c.fundingDeadline).toBe(wednesday.toISOString());
      const described = await handle.describe();
      expect(
        described.typedSearchAttributes.get({ name: 'FundingDeadline', type: 'DATETIME' })?.toISOString(),
      ).toBe(wednesday.toISOString());

      // Tuesday: 2 business days passed, still waiting
      await bed.env.sleep(4 * 24 * 60 * MIN);
      const tuesday = await handle.query(paymentStateQuery);
      expect(tuesday).toMatchObject({ phase: 'QUOTE_EXPIRED', providerStatus: 'AWAITING_FUNDS' });

      await bed.env.sleep(2 * 24 * 60 * MIN); // past Wednesday and the one-minute linger of this test
      const outcome: PaymentOutcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('EXPIRED');
      expect(Date.parse(outcome.payment!.lifecycle.expiredAt!)).toBeGreaterThanOrEqual(wednesday.getTime());
      expect(Date.parse(outcome.payment!.lifecycle.expiredAt!)).toBeLessThan(
        wednesday.getTime() + 6 * 60 * MIN,
      );
    });
  });

  it('row 4: funds after EXPIRED are refunded while the workflow still listens → REFUNDED(code)', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, { options: { expiredLingerMs: 7 * 24 * 60 * MIN } });
      const c = await created(handle);
      await bed.env.sleep(6 * 24 * 60 * MIN); // past any 3-business-day deadline
      await eventually(
        () => handle.query(paymentStateQuery),
        (s) => s.phase === 'EXPIRED',
        20_000,
      );
      // While a late refund may still come, the payment cannot be cancelled away.
      expect(await refusalType(handle.executeUpdate(cancelUpdate, { args: [{}] }))).toBe('CANCEL_REFUSED');
      const refunded = await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs());
      expect(refunded.status).toBe('EXPIRED'); // the status of an expired payment does not change
      await deliverPaymentEvent(bed.env, taskQueue, refunded);
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'REFUNDED', code: 'FUNDING_RECEIVED_AFTER_QUOTE_EXPIRED' });
    });
  });

  it('rule 1: a payment pulled from source.accountId never waits on its quote', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, {
        request: request({
          source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
        }),
      });
      const c = await created(handle);
      expect(c.pulledFromAccount).toBe(true);
      expect(c.fundingDeadline).toBeNull();
      await bed.env.sleep(QUOTE_VALIDITY_MS + MIN);
      const state = await handle.query(paymentStateQuery);
      expect(state.phase).toBe('IN_PROGRESS');
      expect(state.timeline.some((t) => t.kind === 'reconciled')).toBe(false);
      expect(await refusalType(handle.executeUpdate(requoteUpdate))).toBe('REQUOTE_REFUSED');
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(c.providerPaymentId, 'COMPLETED'));
      expect((await closedPaymentOutcome(handle)).outcome).toBe('COMPLETED');
    });
  });

  it('a failure code of the provider ends in FAILED(code)', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue);
      const c = await created(handle);
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.fund(c.providerPaymentId, await bed.env.currentTimeMs()),
      );
      await deliverPaymentEvent(bed.env, taskQueue, await fake.advance(c.providerPaymentId, 'SENT'));
      await deliverPaymentEvent(
        bed.env,
        taskQueue,
        await fake.advance(c.providerPaymentId, 'FAILED', 'INVALID_EXTERNAL_ACCOUNT_NUMBER'),
      );
      expect(await closedPaymentOutcome(handle)).toMatchObject({
        outcome: 'FAILED',
        code: 'INVALID_EXTERNAL_ACCOUNT_NUMBER',
      });
    });
  });
});

describe('payment: validation and limits', () => {
  it('refuses an invalid request with every violation, before any provider call', async () => {
    const fake = newFake();
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, {
        request: request({
          paymentReason: 'OTHER',
          destination: { currencyCode: 'EUR', rail: 'WIRE', accountId: 'a' },
        }),
      });
      const c = await handle.executeUpdate(awaitCreatedUpdate);
      expect(c.outcome).toBe('REJECTED');
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('REJECTED');
      if (outcome.outcome !== 'REJECTED') return;
      expect(outcome.violations.map((v) => v.path).sort()).toEqual(['destination.rail', 'paymentReason']);
      expect(fake.calls).toHaveLength(0);
    });
  });

  it('refuses when the total fee is above maxTotalFee, without creating anything', async () => {
    const fake = newFake({ totalFee: 12.5 });
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, { limits: { maxTotalFee: 10 } });
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'REJECTED', payment: null });
      if (outcome.outcome !== 'REJECTED') return;
      expect(outcome.violations[0]!.rule).toBe('MAX_TOTAL_FEE_EXCEEDED');
      expect(fake.callsOf('createPayment')).toHaveLength(0);
    });
  });

  it('refuses when the quote drifts from the rate by more than maxRateDrift; the created payment is left to expire', async () => {
    newFake({ midMarketRate: 0.9, quotedRate: 0.88 }); // 2.2 % drift
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, { limits: { maxRateDrift: 0.01, maxTotalFee: 10 } });
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome.outcome).toBe('REJECTED');
      if (outcome.outcome !== 'REJECTED') return;
      expect(outcome.violations[0]!.rule).toBe('MAX_RATE_DRIFT_EXCEEDED');
      expect(outcome.payment?.status).toBe('AWAITING_FUNDS');
    });
  });

  it('refuses a drift limit on a payment pulled from an account up front: the funds would move at creation', async () => {
    const fake = newFake({ midMarketRate: 0.9, quotedRate: 0.88 });
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, {
        request: request({
          source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_virtual' },
        }),
        limits: { maxRateDrift: 0.01 },
      });
      const outcome = await closedPaymentOutcome(handle);
      expect(outcome).toMatchObject({ outcome: 'REJECTED', payment: null });
      if (outcome.outcome !== 'REJECTED') return;
      expect(outcome.violations).toEqual([
        expect.objectContaining({ path: 'limits.maxRateDrift', rule: 'DRIFT_LIMIT_ON_PULL_PAYMENT' }),
      ]);
      expect(fake.callsOf('createPayment')).toHaveLength(0);
    });
  });

  it('accepts a payment inside both limits', async () => {
    newFake({ midMarketRate: 0.9, quotedRate: 0.895, totalFee: 5 });
    await inWorker(async (taskQueue) => {
      const handle = await startPayment(taskQueue, { limits: { maxRateDrift: 0.01, maxTotalFee: 5 } });
      expect((await handle.executeUpdate(awaitCreatedUpdate)).outcome).toBe('CREATED');
      await handle.terminate('test over');
    });
  });

  it('a refusal by the service (VALIDATION_ERROR) becomes REJECTED with its fields', async () => {
    const fake = newFake();
    fake.createFailures.push(
      ApplicationFailure.create({
        type: 'VALIDATION_ERROR',
        message: 'refused',
        nonRetryable: true,
        details: [
          {
            status: 400,
            outcomeUnknown: false,
            fields: [{ path: 'destination.accountId', rule: 'UNKNOWN_ACCOUNT', message: 'no such account' }],
          },
        ],
      }),
    );
    await inWorker(async (taskQueue) => {
      const outcome = await closedPaymentOutcome(await startPayment(taskQueue));
      expect(outcome).toMatchObject({
        outcome: 'REJECTED',
        violations: [{ path: 'destination.accountId', rule: 'UNKNOWN_ACCOUNT' }],
      });
    });
  });
});
