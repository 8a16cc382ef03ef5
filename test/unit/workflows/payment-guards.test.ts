// What a payment allows, decided on its facts alone (workflows/payment/guards.ts): no test server.
import type { CreatePaymentRequest, Payment } from '../../../src/contract';
import type { PaymentOutcome } from '../../../workflows/payment/api';
import {
  cancelBlocker,
  cancelRefusal,
  requoteBlocker,
  requoteLostTo,
  resolveShapeProblem,
  type PaymentFacts,
} from '../../../workflows/payment/guards';

const payout = {
  customerId: 'cus_1',
  source: { currencyCode: 'USDC', amount: 100, rail: 'POLYGON', fromAddress: '0xabc' },
  destination: { currencyCode: 'BRL', rail: 'PIX', accountId: 'acc_1' },
  paymentReason: 'GIFTS',
} as unknown as CreatePaymentRequest;
const pull = {
  ...payout,
  source: { currencyCode: 'USD', amount: 100, rail: 'ACH', accountId: 'acc_src' },
} as unknown as CreatePaymentRequest;

const NOW = Date.parse('2026-03-02T12:00:00Z');
const payment = (status: string, over: Partial<Payment> = {}): Payment =>
  ({
    id: 'pay_1',
    status,
    quote: { expiresAt: '2026-03-02T13:00:00Z' },
    lifecycle: status === 'PENDING' ? { sentAt: '2026-03-02T11:00:00Z' } : {},
    ...over,
  }) as unknown as Payment;

const facts = (over: Partial<PaymentFacts> = {}): PaymentFacts => ({
  phase: 'AWAITING_FUNDS',
  request: payout,
  tracked: new Map(),
  activeId: null,
  outcome: null,
  cancel: null,
  attention: null,
  ...over,
});
const withActive = (p: Payment, over: Partial<PaymentFacts> = {}): PaymentFacts =>
  facts({ tracked: new Map([[p.id, p]]), activeId: p.id, ...over });

describe('cancel', () => {
  it('is allowed before anything is created, and while a payout waits for funds', () => {
    expect(cancelBlocker(facts({ phase: 'QUOTING' }))).toBeNull();
    expect(cancelBlocker(withActive(payment('AWAITING_FUNDS')))).toBeNull();
  });

  it('is refused once the payment ended, once funds are in, and for an EXPIRED payment a refund may follow', () => {
    const ended = { outcome: 'COMPLETED', payment: null } as unknown as PaymentOutcome;
    expect(cancelBlocker(facts({ outcome: ended }))).toMatch(/already ended: COMPLETED/);
    expect(cancelBlocker(withActive(payment('PENDING')))).toMatch(/funds are in/);
    expect(cancelBlocker(withActive(payment('EXPIRED')))).toMatch(/late refund/);
  });

  it('is refused for a pull payment once created, or while its create needs an operator (spec: rule 1)', () => {
    expect(cancelBlocker(facts({ request: pull }))).toBeNull();
    expect(cancelBlocker(withActive(payment('AWAITING_FUNDS'), { request: pull }))).toMatch(/pulled/);
    expect(cancelBlocker(facts({ request: pull, attention: {} }))).toMatch(/pulled/);
  });

  it('is refused again once accepted or while being applied', () => {
    expect(cancelRefusal(facts({ cancel: { reason: 'r', decision: 'ACCEPTED', via: 'UPDATE' } }))).toBe(
      'the payment is already cancelled',
    );
    expect(cancelRefusal(facts({ cancel: { reason: 'r', decision: 'PENDING', via: 'UPDATE' } }))).toBe(
      'a cancel is already being applied',
    );
    expect(cancelRefusal(facts())).toBeNull();
  });
});

describe('requote', () => {
  it('waits for the quote to expire: refused while it is valid, allowed at its expiry', () => {
    const p = payment('AWAITING_FUNDS');
    expect(requoteBlocker(withActive(p), NOW)).toMatch(/still valid until 2026-03-02T13:00:00Z/);
    expect(
      requoteBlocker(withActive(p, { phase: 'QUOTE_EXPIRED' }), Date.parse('2026-03-02T13:00:00Z')),
    ).toBeNull();
  });

  it('is refused once funds are in, during a cancel, while a create needs an operator, outside the waiting phases, for a pull payment', () => {
    const later = Date.parse('2026-03-03T00:00:00Z');
    expect(requoteBlocker(withActive(payment('PENDING')), later)).toMatch(/funds are in/);
    expect(
      requoteBlocker(facts({ cancel: { reason: 'r', decision: 'PENDING', via: 'UPDATE' } }), later),
    ).toMatch(/cancelled/);
    expect(requoteBlocker(facts({ attention: {} }), later)).toMatch(/operator/);
    expect(requoteBlocker(facts({ phase: 'IN_PROGRESS' }), later)).toMatch(/phase IN_PROGRESS/);
    expect(requoteBlocker(facts({ request: pull }), later)).toMatch(/pulled/);
  });

  it('in flight, loses to an outcome, funds on any tracked payment, or a cancel', () => {
    expect(requoteLostTo(facts())).toBeNull();
    expect(requoteLostTo(withActive(payment('PENDING', { id: 'pay_old' })))).toMatch(
      /funds arrived on pay_old/,
    );
    expect(requoteLostTo(facts({ cancel: { reason: 'r', decision: 'PENDING', via: 'UPDATE' } }))).toMatch(
      /cancel/,
    );
  });
});

describe("an operator's resolveCreate decision", () => {
  it('names a provider payment, or says none was created with a reason', () => {
    expect(resolveShapeProblem({ providerPaymentId: 'pay_9' })).toBeNull();
    expect(resolveShapeProblem({ noPaymentCreated: true, reason: 'checked the dashboard' })).toBeNull();
    for (const bad of [{}, { providerPaymentId: '' }, { noPaymentCreated: true }, null])
      expect(resolveShapeProblem(bad as never)).toMatch(/pass \{ providerPaymentId \}/);
  });
});
