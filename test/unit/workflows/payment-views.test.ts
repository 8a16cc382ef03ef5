// What a payment shows, from its facts alone (workflows/payment/views.ts): no test server.
import type { CreatePaymentRequest, Payment } from '../../../src/contract';
import type { PaymentCreated, PaymentOutcome } from '../../../workflows/payment/api';
import {
  createdAnswerNow,
  currentDetailsOf,
  stateOf,
  type PaymentViewFacts,
} from '../../../workflows/payment/views';

const created = {
  outcome: 'CREATED',
  providerPaymentId: 'pay_1',
  fundingInstructions: { address: '0xdep' },
} as unknown as PaymentCreated;
const facts = (over: Partial<PaymentViewFacts> = {}): PaymentViewFacts => ({
  workflowId: 'payment:order-1',
  phase: 'AWAITING_FUNDS',
  request: {} as CreatePaymentRequest,
  tracked: new Map(),
  activeId: null,
  outcome: null,
  cancel: null,
  attention: null,
  holidays: new Set(),
  requotes: 0,
  alerts: [],
  timeline: [],
  created: null,
  ...over,
});

describe('the created answer', () => {
  it('waits (null) until there is one', () => {
    expect(createdAnswerNow(facts())).toBeNull();
  });

  it('after an accepted cancel says so and hands out no live funding instructions', () => {
    const answer = createdAnswerNow(
      facts({ created, cancel: { reason: 'buyer left', decision: 'ACCEPTED', via: 'UPDATE' } }),
    );
    expect(answer).toMatchObject({
      outcome: 'CREATED',
      fundingInstructions: null,
      cancelled: { reason: 'buyer left' },
    });
  });

  it('is NEEDS_ATTENTION when the first create needs an operator, REJECTED when the payment ended before a create', () => {
    expect(createdAnswerNow(facts({ attention: { reason: 'CREATE_OUTCOME_UNKNOWN', first: true } }))).toEqual(
      {
        outcome: 'NEEDS_ATTENTION',
        reason: 'CREATE_OUTCOME_UNKNOWN',
      },
    );
    const cancelled = { outcome: 'CANCELLED', reason: 'r', payment: null } as PaymentOutcome;
    expect(createdAnswerNow(facts({ outcome: cancelled }))).toEqual({
      outcome: 'REJECTED',
      violations: [
        { path: '', rule: 'CANCELLED', message: 'the payment ended before a provider payment was created' },
      ],
    });
  });
});

describe('the state query and the current details', () => {
  it('show the followed payment and list the superseded ones', () => {
    const live = { id: 'pay_2', status: 'AWAITING_FUNDS', customerId: 'cus_1', quote: { expiresAt: 'x' } };
    const old = { id: 'pay_1', status: 'EXPIRED' };
    const f = facts({
      tracked: new Map([
        ['pay_1', old as unknown as Payment],
        ['pay_2', live as unknown as Payment],
      ]),
      activeId: 'pay_2',
      requotes: 1,
    });
    expect(stateOf(f)).toMatchObject({
      providerPaymentId: 'pay_2',
      providerStatus: 'AWAITING_FUNDS',
      customerId: 'cus_1',
      superseded: [{ id: 'pay_1', status: 'EXPIRED' }],
      requotes: 1,
    });
    expect(currentDetailsOf(f)).toContain('provider payment pay_2: AWAITING_FUNDS');
    expect(currentDetailsOf(f)).toContain('requotes: 1');
  });
});
