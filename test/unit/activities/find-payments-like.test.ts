// The service search behind an operator's "no payment was created" (activities/payment-activities.ts,
// findPaymentsLike) never answers "nothing found" on a partial look: a customer with more payments than it reads,
// or a client that cannot list, fails the search (the decision is then refused); a payment whose creation time
// cannot be read is a candidate.
import { createPaymentActivities, FIND_LIKE_MAX_READ } from '../../../activities/payment-activities';
import type { ProviderPort } from '../../../activities/provider-port';
import type { Payment } from '../../../src/contract';

const request = {
  source: { currencyCode: 'USD', amount: 1000, rail: 'ACH' },
  destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_dest' },
  paymentReason: 'PURCHASE_OF_SERVICES',
  customerId: 'cus_1',
} as never;

function payment(id: string, createdAt: string | null, amount = 1000): Payment {
  return {
    id,
    status: 'AWAITING_FUNDS',
    customerId: 'cus_1',
    lifecycle: { createdAt },
    source: { amount, currencyCode: 'USD' },
    destination: { currencyCode: 'EUR', accountId: 'acc_dest' },
  } as unknown as Payment;
}

function activitiesListing(payments: Payment[] | null) {
  const provider = {
    payments: {
      ...(payments
        ? {
            async *listByCustomerAll() {
              yield* payments;
            },
          }
        : {}),
    },
    rates: {},
  } as unknown as Pick<ProviderPort, 'payments' | 'rates'>;
  return createPaymentActivities({ provider, attempt: () => 1 });
}

const SINCE = '2026-01-05T10:00:00.000Z';

it('finds this request’s payments made since the start, and counts one without a readable creation time', async () => {
  const found = await activitiesListing([
    payment('old', '2026-01-01T00:00:00.000Z'),
    payment('mine', '2026-01-05T10:01:00.000Z'),
    payment('other-amount', '2026-01-05T10:02:00.000Z', 5),
    payment('no-time', null),
  ]).findPaymentsLike(request, SINCE);
  expect(found).toEqual([
    { id: 'mine', status: 'AWAITING_FUNDS' },
    { id: 'no-time', status: 'AWAITING_FUNDS' },
  ]);
});

it('fails, never "nothing found", when the customer has more payments than it reads', async () => {
  const many = Array.from({ length: FIND_LIKE_MAX_READ + 1 }, (_, i) =>
    payment(`p${i}`, '2026-01-01T00:00:00.000Z'),
  );
  await expect(activitiesListing(many).findPaymentsLike(request, SINCE)).rejects.toMatchObject({
    type: 'SEARCH_INCOMPLETE',
    nonRetryable: true,
  });
});

it('fails when the client cannot list a customer’s payments; answers null only when the request names no customer', async () => {
  await expect(activitiesListing(null).findPaymentsLike(request, SINCE)).rejects.toMatchObject({
    type: 'SEARCH_INCOMPLETE',
  });
  const anonymous = { ...(request as object), customerId: undefined } as never;
  expect(await activitiesListing(null).findPaymentsLike(anonymous, SINCE)).toBeNull();
});
