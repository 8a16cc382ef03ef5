// Unit: the reserved-ID guard (workflows/reserved-id-interceptor.ts) as a pure rule, and its place in every bundle
// the workers load (workers/workflow-bundle.ts: the default and the tracing one both carry WORKFLOW_INTERCEPTOR_MODULES).
import path from 'node:path';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../workers/workflow-bundle';
import { RESERVED_WORKFLOW_ID, reservedWorkflowIdRefusal } from '../../workflows/reserved-id-interceptor';

describe('reservedWorkflowIdRefusal', () => {
  it('lets nexusOutcome run under nexus-outcome: IDs and every other type under every other ID', () => {
    expect(reservedWorkflowIdRefusal('nexusOutcome', 'nexus-outcome:xborder-shop:order-1')).toBeNull();
    for (const [type, id] of [
      ['payment', 'payment:order-1'],
      ['paymentEvents', 'payment-events:order-1'],
      ['rateBoard', 'rate-board'],
      ['reconcilePayments', 'schedule:reconcile-2026-01-01T00:00:00Z'],
      ['paymentEvents', 'Nexus-Outcome:x:y'],
      ['paymentEvents', 'x-nexus-outcome:x:y'],
    ])
      expect(reservedWorkflowIdRefusal(type!, id!)).toBeNull();
  });

  it('refuses every other type under a nexus-outcome: ID, and nexusOutcome under any other, non-retryable', () => {
    for (const [type, id] of [
      ['paymentEvents', 'nexus-outcome:xborder-shop:x'],
      ['payment', 'nexus-outcome:'],
      ['someFutureType', 'nexus-outcome:a:b'],
      ['nexusOutcome', 'payment:order-1'],
      ['nexusOutcome', ' nexus-outcome:a:b'],
      ['nexusOutcome', 'NEXUS-OUTCOME:a:b'],
    ]) {
      expect(reservedWorkflowIdRefusal(type!, id!)).toMatchObject({
        type: RESERVED_WORKFLOW_ID,
        nonRetryable: true,
      });
    }
  });

  it('is the first interceptor module of every bundle', () => {
    expect(path.basename(WORKFLOW_INTERCEPTOR_MODULES[0]!)).toBe('reserved-id-interceptor');
  });
});
