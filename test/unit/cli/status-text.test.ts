// `xborder status` text: funding instructions only while the payment waits for funds; money that moved after the
// outcome is shown and makes the exit code non-zero.
import { formatState, willNotComplete } from '../../../src/cli/status';
import type { PaymentState } from '../../../workflows/payment/api';

const FUNDING = { rail: 'POLYGON', amount: 100, toAddress: '0xabc', fromAddress: null, currencyCode: 'USDC' };

function state(overrides: Partial<PaymentState>): PaymentState {
  return {
    workflowId: 'payment:order-1',
    phase: 'AWAITING_FUNDS',
    providerPaymentId: 'pay_1',
    providerStatus: 'AWAITING_FUNDS',
    quote: { exchangeRate: 5, expiresAt: '2026-01-01T00:00:00Z' },
    fundingInstructions: FUNDING,
    fundingDeadline: null,
    customerId: 'cus_1',
    requotes: 0,
    superseded: [],
    outcome: null,
    timeline: [],
    ...overrides,
  } as PaymentState;
}

const completed = {
  outcome: 'COMPLETED',
  payment: { status: 'COMPLETED' },
} as unknown as PaymentState['outcome'];

test('funding instructions are printed while the payment awaits funds, never once it has an outcome or is cancelled', () => {
  expect(formatState(state({}), 'ui')).toContain('send funds     100 USDC via POLYGON to 0xabc');
  expect(
    formatState(state({ phase: 'COMPLETED', providerStatus: 'COMPLETED', outcome: completed }), 'ui'),
  ).not.toContain('send funds');
  expect(
    formatState(
      state({ phase: 'CANCELLED', cancel: { reason: 'x', decision: 'ACCEPTED', via: 'UPDATE' } }),
      'ui',
    ),
  ).not.toContain('send funds');
  expect(formatState(state({ phase: 'QUOTE_EXPIRED' }), 'ui')).not.toContain('send funds');
});

test('a return after COMPLETED is shown and exits non-zero', () => {
  const returned = state({
    phase: 'COMPLETED',
    outcome: completed,
    afterOutcome: { providerStatus: 'REFUNDED', code: 'RETURNED_BY_BANK', payment: {} as never },
  });
  expect(formatState(returned, 'ui')).toMatch(
    /AFTER OUTCOME\s+the provider now says REFUNDED \(RETURNED_BY_BANK\)/,
  );
  expect(willNotComplete(returned)).toBe(true);
  expect(willNotComplete(state({ phase: 'COMPLETED', outcome: completed, afterOutcome: null }))).toBe(false);
});
