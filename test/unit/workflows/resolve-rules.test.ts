// An operator's decision on a create whose outcome is unknown is checked against what the payment knows
// (workflows/payment/resolve-rules.ts): pure rules, no test server.
import type { Payment } from '../../../src/contract';
import { adoptionMismatches, resolveContradiction } from '../../../workflows/payment/resolve-rules';
import { lastMoveHandedOver } from '../../../activities/late-events-activities';
import { mayHaveMovedAfterOutcome } from '../../../workflows/provider-payment/knowledge';

const request = {
  source: { currencyCode: 'USD', amount: 1000, rail: 'ACH' },
  destination: { currencyCode: 'EUR', rail: 'SWIFT', accountId: 'acc_dest' },
  paymentReason: 'PURCHASE_OF_SERVICES',
  customerId: 'cus_1',
} as never;

function payment(over: Record<string, unknown> = {}): Payment {
  return {
    id: 'pay_1',
    status: 'COMPLETED',
    customerId: 'cus_1',
    reference: null,
    lifecycle: {
      createdAt: '2026-01-01T00:00:00Z',
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
    },
    source: { amount: 1000, currencyCode: 'USD', accountId: null },
    destination: { amount: 900, currencyCode: 'EUR', accountId: 'acc_dest' },
    ...over,
  } as unknown as Payment;
}

describe('resolveContradiction', () => {
  it('nothing heard: any decision stands', () => {
    expect(resolveContradiction({ noPaymentCreated: true, reason: 'r' }, [])).toBeNull();
    expect(resolveContradiction({ providerPaymentId: 'pay_9' }, [])).toBeNull();
  });
  it('"no payment created" after the service told of one is refused naming it and its status', () => {
    const why = resolveContradiction({ noPaymentCreated: true, reason: 'r' }, [payment()]);
    expect(why).toContain('pay_1 (COMPLETED)');
    expect(why).toContain("providerPaymentId: 'pay_1'");
  });
  it('another payment than the one heard is refused; the one heard is taken', () => {
    expect(resolveContradiction({ providerPaymentId: 'pay_9' }, [payment()])).toContain('not pay_9');
    expect(resolveContradiction({ providerPaymentId: 'pay_1' }, [payment()])).toBeNull();
  });
});

describe('adoptionMismatches', () => {
  it('a payment of this request fits', () => {
    expect(adoptionMismatches(request, payment())).toEqual([]);
  });
  it.each([
    ['customerId', { customerId: 'cus_2' }],
    ['source.amount', { source: { amount: 999, currencyCode: 'USD', accountId: null } }],
    ['source.currencyCode', { source: { amount: 1000, currencyCode: 'EUR', accountId: null } }],
    [
      'destination.currencyCode',
      { destination: { amount: 900, currencyCode: 'GBP', accountId: 'acc_dest' } },
    ],
    ['destination.accountId', { destination: { amount: 900, currencyCode: 'EUR', accountId: 'acc_other' } }],
  ])('%s differs: named', (field, over) => {
    const differs = adoptionMismatches(request, payment(over));
    expect(differs).toHaveLength(1);
    expect(differs[0]).toMatch(new RegExp(`^${field.replace('.', '\\.')}:`));
  });
  it('the reference and the source account are compared only when the request has them', () => {
    expect(adoptionMismatches(request, payment({ reference: 'ORDER-1' }))).toEqual([]);
    const withRef = {
      ...(request as object),
      reference: 'ORDER-2',
      source: { currencyCode: 'USD', amount: 1000, rail: 'ACH', accountId: 'acc_src' },
    } as never;
    expect(
      adoptionMismatches(withRef, payment({ reference: 'ORDER-1' })).map((d) => d.split(':')[0]),
    ).toEqual(['source.accountId', 'reference']);
  });
});

describe('late events after the linger', () => {
  it('the last move handed over for this provider payment, from the delivery workflow’s ids', () => {
    const ids = [
      'k:run:1',
      'k:moved:pay_1:REFUNDED',
      'k:moved:pay_2:COMPLETED',
      'k:moved:pay_1:EXPIRED+REFUNDED',
    ];
    expect(lastMoveHandedOver('k', 'pay_1', ids)).toBe('EXPIRED+REFUNDED');
    expect(lastMoveHandedOver('k', 'pay_3', ids)).toBeNull();
    expect(lastMoveHandedOver('other', 'pay_1', ids)).toBeNull();
  });
  it('only a refund or a legacy late funding makes a fresh run look for a registration', () => {
    expect(mayHaveMovedAfterOutcome(payment())).toBe(false);
    expect(mayHaveMovedAfterOutcome(payment({ status: 'REFUNDED' }))).toBe(true);
    expect(
      mayHaveMovedAfterOutcome(
        payment({ status: 'EXPIRED', lifecycle: { expiredAt: 'x', refundedAt: 'y' } }),
      ),
    ).toBe(true);
    expect(mayHaveMovedAfterOutcome(payment({ status: 'COMPLETED', lifecycle: { expiredAt: 'x' } }))).toBe(
      true,
    );
    expect(mayHaveMovedAfterOutcome(payment({ status: 'EXPIRED', lifecycle: { expiredAt: 'x' } }))).toBe(
      false,
    );
    expect(mayHaveMovedAfterOutcome(payment({ status: 'PENDING', lifecycle: { expiredAt: 'x' } }))).toBe(
      false,
    );
  });
});

describe('the evidence, when the service told of several payments', () => {
  const two = [payment(), payment({ id: 'pay_2', status: 'PENDING' })];
  it('names every one', () => {
    expect(resolveContradiction({ noPaymentCreated: true, reason: 'r' }, two)).toContain(
      'pay_1 (COMPLETED), pay_2 (PENDING)',
    );
  });
  it('any one of them may be adopted', () => {
    expect(resolveContradiction({ providerPaymentId: 'pay_2' }, two)).toBeNull();
  });
  it('names what the payment has, and reads one without source or destination without crashing', () => {
    expect(
      adoptionMismatches(
        request,
        payment({ source: { amount: 999, currencyCode: 'USD', accountId: null } }),
      )[0],
    ).toBe('source.amount: the request has 1000, pay_1 has 999');
    const bare = { id: 'pay_1', customerId: 'cus_1' } as unknown as Payment;
    expect(adoptionMismatches(request, bare).map((d) => d.split(':')[0])).toEqual([
      'source.currencyCode',
      'source.amount',
      'destination.currencyCode',
      'destination.accountId',
    ]);
  });
});
