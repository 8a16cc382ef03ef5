// The report's comparison, pure: each kind of mismatch found and named once, totals exact to the cent.
import { createReportBuilder } from '../../../src/report/compare';
import { exactOf, formatExact } from '../../../src/report/decimal';
import type { ServiceRecord, WorkflowRecord } from '../../../src/report/types';

const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
const now = new Date('2026-11-21T06:00:00.000Z');

function service(id: string, over: Partial<ServiceRecord> = {}): ServiceRecord {
  return {
    id,
    type: 'PAYOUT',
    status: 'COMPLETED',
    createdAt: '2026-11-20T10:00:00.000Z',
    source: { amount: '100', currencyCode: 'USDC' },
    destination: { amount: '512.3', currencyCode: 'BRL' },
    fee: '1.1',
    ...over,
  };
}

function workflow(
  key: string,
  providerPaymentId: string | null,
  over: Partial<WorkflowRecord> = {},
): WorkflowRecord {
  return {
    workflowId: `payment:${key}`,
    paymentKey: key,
    running: false,
    phase: 'COMPLETED',
    providerStatus: 'COMPLETED',
    providerPaymentId,
    startTime: '2026-11-20T09:59:59.000Z',
    closeTime: '2026-11-20T10:05:00.000Z',
    amounts: { source: { amount: '100', currencyCode: 'USDC' }, destination: null },
    ...over,
  };
}

it('matches a payment whose records agree: no mismatch, difference 0.00, exit condition allMatch', () => {
  const b = createReportBuilder(window, now);
  b.addWorkflow(workflow('ok-1', 'pay_1'));
  b.addService(service('pay_1'));
  const r = b.finish();
  expect(r.allMatch).toBe(true);
  expect(r.counts).toEqual({ payments: 1, matched: 1, mismatched: 0, inFlight: 0, open: 0 });
  expect(r.totals).toEqual([
    // the workflow asked by source amount: its destination is not compared (in neither sum, counted as such)
    expect.objectContaining({
      currencyCode: 'BRL',
      serviceDestination: '0.00',
      workflowDestination: '0.00',
      destinationDifference: '0.00',
      notCompared: 1,
    }),
    expect.objectContaining({
      currencyCode: 'USDC',
      serviceSource: '100.00',
      workflowSource: '100.00',
      sourceDifference: '0.00',
      serviceFees: '1.10',
    }),
  ]);
});

it('names each kind of mismatch once, on the payment that has it', () => {
  const b = createReportBuilder(window, now);
  b.addWorkflow(workflow('returned', 'pay_ret'));
  b.addWorkflow(workflow('amount', 'pay_amt'));
  b.addWorkflow(workflow('outcome', 'pay_out', { phase: 'FAILED' }));
  b.addWorkflow(workflow('missing', 'pay_missing'));
  b.addWorkflow(workflow('untold', 'pay_untold'));
  b.addUndelivered('untold');
  b.addService(service('pay_ret', { status: 'REFUNDED' }));
  b.addService(service('pay_amt', { source: { amount: '99.99', currencyCode: 'USDC' } }));
  b.addService(service('pay_out'));
  b.addService(service('pay_untold'));
  b.addService(service('pay_stranger'));
  // a page boundary that moved lists a payment twice: still named once, joined or not
  b.addService(service('pay_stranger'));
  b.addService(service('pay_ret', { status: 'REFUNDED' }));
  const r = b.finish();
  const named = r.mismatches.map((m) => `${m.kind}:${m.providerPaymentId}`).sort();
  expect(named).toEqual([
    'AMOUNT_DIFFERS:pay_amt',
    'EVENTS_NOT_DELIVERED:pay_untold',
    'MISSING_AT_SERVICE:pay_missing',
    'MOVED_AFTER_OUTCOME:pay_ret',
    'OUTCOME_DIFFERS:pay_out',
    'UNKNOWN_TO_WORKFLOWS:pay_stranger',
  ]);
  expect(r.allMatch).toBe(false);
  for (const m of r.mismatches) expect(m.action.length).toBeGreaterThan(20);
  const amount = r.mismatches.find((m) => m.kind === 'AMOUNT_DIFFERS')!;
  expect(amount.service).toContain('99.99 USDC');
  expect(amount.workflow).toContain('asked 100 USDC');
});

it('sums exactly: ten thousand payments of 0.10 and 0.20 are 3000.00, not a float near it', () => {
  const b = createReportBuilder(window, now);
  for (let i = 0; i < 10_000; i++) {
    const amount = i % 2 === 0 ? '0.1' : '0.2';
    b.addWorkflow(
      workflow(`k${i}`, `pay_${i}`, {
        amounts: { source: { amount, currencyCode: 'USD' }, destination: null },
      }),
    );
    b.addService(service(`pay_${i}`, { source: { amount, currencyCode: 'USD' }, fee: '0.01' }));
  }
  const [usd] = b.finish().totals.filter((t) => t.currencyCode === 'USD');
  expect(usd).toEqual(
    expect.objectContaining({
      serviceSource: '1500.00',
      workflowSource: '1500.00',
      sourceDifference: '0.00',
      serviceFees: '100.00',
    }),
  );
});

it('gives the difference to the cent when one payment is unknown to the workflows', () => {
  const b = createReportBuilder(window, now);
  b.addWorkflow(workflow('a', 'pay_a'));
  b.addService(service('pay_a'));
  b.addService(service('pay_b', { source: { amount: '0.07', currencyCode: 'USDC' } }));
  const usdc = b.finish().totals.find((t) => t.currencyCode === 'USDC')!;
  expect(usdc.serviceSource).toBe('100.07');
  expect(usdc.sourceDifference).toBe('0.07');
});

it('lists money in flight with its age, and leaves out payments outside the window', () => {
  const b = createReportBuilder(window, now);
  b.addWorkflow(workflow('moving', 'pay_m', { running: true, phase: 'IN_PROGRESS', closeTime: null }));
  b.addService(service('pay_m', { status: 'PROCESSING', createdAt: '2026-11-20T18:00:00.000Z' }));
  b.addService(service('pay_old', { createdAt: '2026-11-19T23:59:59.999Z' }));
  b.addService(service('pay_next', { createdAt: '2026-11-21T00:00:00.000Z' }));
  const r = b.finish();
  expect(r.allMatch).toBe(true);
  expect(r.inFlight).toEqual([
    expect.objectContaining({ paymentKey: 'moving', status: 'PROCESSING', ageMs: 12 * 3_600_000 }),
  ]);
  expect(r.counts.payments).toBe(1);
});

it('follows a PAYIN known to its entity without calling it unknown; its amounts are not compared', () => {
  const b = createReportBuilder(window, now);
  b.addEntity({ providerPaymentId: 'pay_in', status: 'COMPLETED' });
  b.addService(service('pay_in', { type: 'PAYIN' }));
  const r = b.finish();
  expect(r.mismatches).toEqual([]);
  expect(r.totals.find((t) => t.currencyCode === 'USDC')).toEqual(
    expect.objectContaining({ serviceSource: '0.00', notCompared: 1, serviceFees: '1.10' }),
  );
});

describe('exact decimals', () => {
  it('reads a JSON number by its digits and prints at least cents', () => {
    expect(formatExact(exactOf(0.1) + exactOf(0.2))).toBe('0.30');
    expect(formatExact(exactOf('1234.5678'))).toBe('1234.5678');
    expect(formatExact(exactOf(1e-7))).toBe('0.0000001');
    expect(formatExact(exactOf('-3') + exactOf('1.5'))).toBe('-1.50');
    expect(() => exactOf('1.123456789')).toThrow(RangeError);
  });
});
