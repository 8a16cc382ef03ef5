// Activity proxies with their timeouts and retry policies, chosen per activity
// (ARCHITECTURE: "Activities do not retry by themselves; Temporal does").
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AccountActivities, CustomerActivities, PaymentActivities } from '../activities/types';
import type { WorkflowReadActivities } from '../activities/workflow-read-activities';
import type { ContractActivities } from '../activities/contract-activities';
import type {
  EventDeliveryActivities,
  EventHandOverActivities,
} from '../activities/event-delivery-activities';
import type { LateEventsActivities } from '../activities/late-events-activities';
import type { QuoteActivities } from '../activities/quote-activities';
import type { ReconcileActivities } from '../activities/reconcile-activities';
import type { ReportActivities } from '../activities/report-activities';
import type { NexusOutcomeActivities } from '../activities/nexus-outcome-activities';

const backoff = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' } as const;

/**
 * How long a payment keeps asking for its rate while the service cannot answer (429s, 5xx, a refused key: none of
 * them the caller's fault) before its quoting step fails: as long as a create is retried (below). A rate is used the
 * moment it arrives, so a late one is as good as an early one. A refusal of the request itself (4xx) ends at once.
 * Only the retry budget changed here, never a command: replay compares an activity's type and id, not its options
 * (docs/provider-client.md "Retries and replay").
 */
export const RATE_RETRY_BUDGET = '12h';

/**
 * The rate read as a local activity: GET /payments/rate is a short, idempotent read, so it runs in
 * the workflow task that asks for it (no activity task, no extra workflow task, a marker instead of three
 * events). Same budget; retries past 10 s wait on a workflow timer instead of holding the task.
 */
export const localRateActivities = proxyLocalActivities<Pick<PaymentActivities, 'getRate'>>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: RATE_RETRY_BUDGET,
  localRetryThreshold: '10s',
  retry: backoff,
});

/**
 * The contract's rules for a payment request (src/contract/validate-payment.ts), as a local activity: pure and
 * quick, and the workflow bundle never loads the request shapes. A few retries only: it does no I/O.
 */
export const localValidateActivities = proxyLocalActivities<
  Pick<PaymentActivities, 'validatePaymentRequest'>
>({
  startToCloseTimeout: '10s',
  scheduleToCloseTimeout: '1m',
  retry: backoff,
});

/**
 * Creating calls: retried with the same idempotency key until the outcome is known, for at most 12 hours,
 * well inside the 24-hour idempotency window we assume (docs/spec-gaps.md, "Idempotency window").
 */
export const createCallActivities = proxyActivities<
  Pick<PaymentActivities, 'createPayment' | 'createPaymentAndFollow'> &
    Pick<CustomerActivities, 'createCustomer'> &
    Pick<AccountActivities, 'createAccount'>
>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '12h',
  retry: backoff,
});

/** Reads used for reconciliation: a failed read is only retried for 10 minutes; the next timer tries again. */
export const readActivities = proxyActivities<
  Pick<PaymentActivities, 'getPayment' | 'findPaymentsLike'> &
    Pick<CustomerActivities, 'getCustomer'> &
    Pick<AccountActivities, 'getAccountRequirements'>
>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '10m',
  retry: backoff,
});

/**
 * GET /payments/:id as a local activity: the read that confirms a pushed final status before the entity acts on
 * it (workflows/provider-payment/push-confirmation.ts). A short, idempotent read, like getRate above: a marker in the task that
 * asks instead of three events and a workflow task. Same 10-minute budget as the reads above.
 */
export const localReadActivities = proxyLocalActivities<Pick<PaymentActivities, 'getPayment'>>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '10m',
  localRetryThreshold: '10s',
  retry: backoff,
});

/** Reading another workflow's outcome (transfer attaching to a step that already runs or ran). */
export const workflowReadActivities = proxyActivities<WorkflowReadActivities>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '10m',
  retry: backoff,
});

/**
 * The contract's dated rules (activities/contract-activities.ts): zod runs there, never in the bundle. Local: pure
 * CPU, no I/O, a marker in the task that asks. A failure is a bug, not an outage: a few quick retries, then the
 * workflow task fails and is retried after a fix.
 */
export const contractActivities = proxyLocalActivities<ContractActivities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 3 },
});

/** A quote is indicative: a pair that keeps failing is left for the next tick (its board entry just ages). */
export const quoteActivities = proxyActivities<QuoteActivities>({
  startToCloseTimeout: '30s',
  scheduleToCloseTimeout: '2m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '20s', maximumAttempts: 3 },
});

/**
 * Only a signal to Temporal: short, so a local activity (a marker, no activity task). Retried until Temporal takes
 * it (no schedule-to-close): an event handed over late is better than one lost.
 */
export const paymentEventHandOverActivities = proxyLocalActivities<EventHandOverActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * Retries spread over two hours: 10 s, 20 s, 40 s … then every 15 min (about 12 attempts). A receiver down for an
 * hour gets the event a few minutes after it is back, with no one looking; past two hours a person should.
 */
export const eventDeliveryActivities = proxyActivities<EventDeliveryActivities>({
  startToCloseTimeout: '1m',
  scheduleToCloseTimeout: '2h',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '15m' },
});

/** The daily report: one long activity that heartbeats every page; a few spaced retries, then the next day's run. */
export const reportActivities = proxyActivities<ReportActivities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '2m',
  retry: { initialInterval: '30s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 6 },
});

/** As the payment's hand-over above: a signal to Temporal, retried until it takes it. */
export const transferEventHandOverActivities = proxyLocalActivities<EventHandOverActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

// The reconcile sweep: one attempt reads pages for at most 5 minutes and heartbeats its place after each
// (activities/reconcile-activities.ts): a retry goes on from the last recorded page, so the whole run may take several
// attempts, inside the Schedule's 30-minute execution timeout (src/client/reconcile-schedule.ts). Only options changed
// here, never a command (replay compares an activity's type and id, not its timeouts: docs/provider-client.md "Retries
// and replay").
export const reconcileActivities = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '1m',
  scheduleToCloseTimeout: '25m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * Reads of Temporal itself (visibility, a describe, queries, a result): short, retried for a while, then asked again
 * later (below). The longest part is the query of the closed delivery workflow, which a worker answers by replaying
 * that run's history: a run continues-as-new after 200 deliveries (payment-events/workflow.ts), so that history stays
 * small (measured: a closed run of 199 deliveries, 1,426 events, answered the query in about 1 s on a loaded 2-core
 * machine, time-skipping server), far under the 30 s. The payment's own state query (only for a payment with no
 * outcome) replays the payment's history: tens of events (34 to 62 in the kept payment histories). A result is read from the close event, with no
 * replay. A worker too busy to answer in 30 s makes an attempt fail: retried, then the lookup goes unanswered and is
 * asked again at a later wake-up. The 10-minute schedule-to-close is measured by the worker's clock.
 */
export const lateEventsActivities = proxyLocalActivities<LateEventsActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '10s',
  scheduleToCloseTimeout: '10m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/** Only a signal to Temporal (as the payment's hand-over, payment-events/emit.ts): retried until it is taken. */
export const lateEventHandOverActivities = proxyLocalActivities<EventHandOverActivities>({
  startToCloseTimeout: '30s',
  localRetryThreshold: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

/**
 * The nexusOutcome relay's read (readPaymentOutcome): a describe and, once the payment has closed, its result; told
 * the payment is closing, it waits up to a minute (NEXUS_OUTCOME_CLOSING_WAIT_MS) for the close. Never a long wait:
 * a waiting relay holds no slot (workflows/nexus-outcome/workflow.ts). Retried forever: it moves no money.
 */
export const nexusOutcomeReadActivities = proxyActivities<Pick<NexusOutcomeActivities, 'readPaymentOutcome'>>(
  {
    startToCloseTimeout: '2m',
    retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
  },
);

/**
 * Relays that began before relay-holds-no-slot (workflows/nexus-outcome/patches.ts), until their current wait ends.
 * The nexusOutcome relay's wait: one attempt long-polls the payment for up to 4 hours (NEXUS_OUTCOME_WAIT_MS) and
 * answers "not yet"; past startToClose (a worker that died mid-wait) it is retried, forever: the relay has nothing
 * else to do and moves no money. No heartbeats, so a wait costs one activity, however long the payment takes.
 */
export const nexusOutcomeActivities = proxyActivities<Pick<NexusOutcomeActivities, 'awaitPaymentOutcome'>>({
  startToCloseTimeout: '250m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
});
