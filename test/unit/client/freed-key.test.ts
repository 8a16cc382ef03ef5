// Which closed payments free their key (src/client/freed-key.ts): only a REJECTED outcome that proves nothing was
// created at the service; never one that may have created a provider payment.
import { refusedBeforeCreate, runScopedIdempotencyKey } from '../../../src/client/freed-key';
import { differingFields } from '../../../src/client/same-request';
import type { PaymentOutcome } from '../../../workflows/payment/api';
import type { Payment } from '../../../src/contract';

const payment = { id: 'pay_1', status: 'EXPIRED' } as unknown as Payment;
const violation = (rule: string) => ({ path: 'destination.accountId', rule, message: 'x' });

it('frees the key of a refusal before create, and of nothing else', () => {
  const cases: Array<[string, PaymentOutcome, boolean]> = [
    [
      'the service refused the create',
      { outcome: 'REJECTED', violations: [violation('ACCOUNT_NOT_FOUND')], payment: null },
      true,
    ],
    [
      'fee above maxTotalFee',
      { outcome: 'REJECTED', violations: [violation('MAX_TOTAL_FEE')], payment: null },
      true,
    ],
    [
      'an operator said no payment was made after CREATE_OUTCOME_UNKNOWN',
      { outcome: 'REJECTED', violations: [violation('CREATE_OUTCOME_UNKNOWN')], payment: null },
      false,
    ],
    [
      'refused with a provider payment (rate drift)',
      { outcome: 'REJECTED', violations: [violation('MAX_RATE_DRIFT')], payment },
      false,
    ],
    [
      'an alert was raised',
      {
        outcome: 'REJECTED',
        violations: [violation('X')],
        payment: null,
        alerts: [{ kind: 'CREATE_OUTCOME_UNKNOWN', providerPaymentId: null, detail: '', at: '' }],
      },
      false,
    ],
    ['cancelled before create', { outcome: 'CANCELLED', reason: 'r', payment: null }, false],
    ['expired', { outcome: 'EXPIRED', payment }, false],
  ];
  for (const [what, outcome, freed] of cases)
    expect([what, refusedBeforeCreate(outcome)]).toEqual([what, freed]);
  expect(refusedBeforeCreate(null)).toBe(false);
});

it("a later run's create sends its own idempotency key; a first run's is unchanged", () => {
  expect(runScopedIdempotencyKey('payment:o-1:create:0', undefined)).toBe('payment:o-1:create:0');
  expect(runScopedIdempotencyKey('payment:o-1:create:0', 1)).toBe('payment:o-1:create:0');
  expect(runScopedIdempotencyKey('payment:o-1:create:0', 2)).toBe('payment:o-1:create:0:run2');
  expect(runScopedIdempotencyKey('payment:o-1:create:1', 3)).toBe('payment:o-1:create:1:run3');
  expect(runScopedIdempotencyKey('payment:o-1:create:0', 'x')).toBe('payment:o-1:create:0');
});

it('names the fields that differ, never their values', () => {
  const ours = {
    paymentKey: 'k',
    request: { source: { amount: 1, rail: 'PIX' }, destination: { accountId: 'a' } },
    limits: { maxTotalFee: 5 },
  };
  const theirs = {
    paymentKey: 'k',
    request: { source: { amount: 2, rail: 'PIX' }, destination: { accountId: 'b' } },
  };
  expect(differingFields(ours, theirs)).toEqual([
    'limits',
    'request.destination.accountId',
    'request.source.amount',
  ]);
  expect(differingFields(ours, ours)).toEqual([]);
});
