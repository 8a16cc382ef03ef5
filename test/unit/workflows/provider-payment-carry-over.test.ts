// workflows/provider-payment/state.ts carriedOver: what one entity run hands the next over continue-as-new. A state
// with every input field set survives carry-over → restore unchanged; the registration lookups made so far and the
// time before which no lookup is asked again go with it (bounded per following, not restarted by continue-as-new).
import type { ProviderPaymentInput } from '../../../workflows/provider-payment/api';
import { ProviderPaymentInputSchema } from '../../../workflows/inputs';
// jest.mock below is hoisted above these imports: the state module sees the mocked workflow APIs
import { ProviderPaymentState } from '../../../workflows/provider-payment/state';
import { refundedAfterExpiry } from './entity-fixtures';

// Outside a workflow: the workflow APIs the state's constructor and carriedOver touch, as a continued run sees them.
jest.mock('@temporalio/workflow', () => ({
  ...jest.requireActual<object>('@temporalio/workflow'),
  patched: () => true,
  deprecatePatch: () => undefined,
  upsertMemo: () => undefined,
  upsertSearchAttributes: () => undefined,
  log: { info: () => undefined, warn: () => undefined },
  metricMeter: { createCounter: () => ({ add: () => undefined }) },
  workflowInfo: () => ({
    continuedFromExecutionRunId: 'run-before',
    memo: undefined,
    typedSearchAttributes: { get: () => undefined },
  }),
}));

/** Every field of the input set to a value a run would carry (none left to its default). */
const everyField: Required<ProviderPaymentInput> = {
  providerPaymentId: 'pay_1',
  payment: refundedAfterExpiry,
  subscribers: ['payment:k2'],
  seenEventIds: ['evt_1', 'evt_2'],
  statusHistory: [{ at: '2026-11-21T10:00:00.000Z', status: 'EXPIRED', cause: 'reconcile' }],
  terminalSince: '2026-11-22T10:00:00.000Z',
  reconcileEveryMs: 3_600_000,
  lingerAfterTerminalMs: 604_800_000,
  continueAsNewAfterEvents: 2000,
  unconfirmedPushes: [{ eventId: 'evt_3', payment: refundedAfterExpiry, cause: 'event' }],
  eventsFor: [
    {
      subscriber: 'payment:k1',
      paymentKey: 'k1',
      endpointUrl: null,
      told: 'EXPIRED',
      keyed: true,
      readByIt: 'EXPIRED',
    },
  ],
  registrationLookedUp: true,
  pushMismatches: [
    { eventId: 'evt_0', pushed: 'COMPLETED', read: 'EXPIRED', at: '2026-11-21T11:00:00.000Z' },
  ],
  registrationLookups: 2,
  registrationNotBefore: Date.parse('2026-11-22T10:20:00.000Z'),
};

describe('the entity carry-over', () => {
  it('names every input field (the schema’s keys)', () => {
    expect(Object.keys(everyField).sort()).toEqual(Object.keys(ProviderPaymentInputSchema.shape).sort());
  });

  it('a state with every field set survives carry-over → restore unchanged, registration lookups included', () => {
    const carried = new ProviderPaymentState(everyField).carriedOver();
    expect(carried).toEqual(everyField);
    expect(new ProviderPaymentState(carried).carriedOver()).toEqual(carried);
  });

  it('a run that made no lookup carries none (the input stays as older runs wrote it)', () => {
    const { registrationLookups: _l, registrationNotBefore: _n, ...rest } = everyField;
    const carried = new ProviderPaymentState({ ...rest, registrationLookedUp: true }).carriedOver();
    expect(carried).not.toHaveProperty('registrationLookups');
    expect(carried).not.toHaveProperty('registrationNotBefore');
  });
});
