// "Stuck" payments, each kind one visibility query on our search attributes (ARCHITECTURE: Search
// attributes). The same strings work in the Temporal UI's filter box (docs/operations.md, "Stuck payments").
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import {
  CustomerIdKey,
  PaymentPhaseKey,
  PaymentStatusKey,
  ProviderPaymentIdKey,
  PUSH_MISMATCH_PHASE,
} from '../../workflows/search-attributes';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE } from '../../workflows/provider-payment/api';
import { PAYMENT_STATUSES } from '../contract/enums';
import { PAYMENT_WORKFLOW_TYPE } from '../../workflows/payment/api';
import { EVENTS_UNDELIVERED_PHASE, PAYMENT_EVENTS_WORKFLOW_TYPE } from '../../workflows/payment-events/api';
import { PINNED_RUNNING_PAYMENTS, waitingForItsBuild } from './stuck-on-build';

/** Why a payment is stuck, most serious first (docs/spec-gaps.md, "What is stuck"). */
export type StuckKind =
  | 'NEEDS_ATTENTION'
  | 'WEBHOOK_NOT_CONFIRMED'
  | 'UNKNOWN_PROVIDER_STATUS'
  | 'QUOTE_EXPIRED_UNFUNDED'
  | 'PAST_FUNDING_DEADLINE'
  | 'IN_PROGRESS_TOO_LONG'
  | 'QUOTING_TOO_LONG'
  | 'MOVED_AFTER_OUTCOME'
  | 'EVENTS_UNDELIVERED'
  | 'WAITING_FOR_ITS_BUILD';

/** findStuckPayments' limits: when a payment in progress or quoting counts as stuck, and the deployment to check. */
export interface StuckQueryOptions {
  now?: Date;
  /** A payment IN_PROGRESS (PENDING, PROCESSING, SENT) whose workflow started longer ago than this is stuck. Default 24 h. */
  inProgressLimitMs?: number;
  /** A payment still QUOTING (no rate, or its create not answered) whose workflow started longer ago than this is stuck. Default 15 min. */
  quotingLimitMs?: number;
  /**
   * The Worker Deployment whose old builds are checked for PINNED payments whose next workflow task waits (their
   * build's workers stopped too early). Absent: that kind is not looked for (unversioned workers).
   */
  deploymentName?: string;
  /** How long a PINNED payment's workflow task may wait on an old build before it is stuck. Default 60 s. */
  waitingTaskLimitMs?: number;
}

/** The visibility query of each kind of stuck payment (MOVED_AFTER_OUTCOME: its first step, see findStuckPayments). */
export function stuckQueries(options: StuckQueryOptions = {}): Record<StuckKind, string> {
  const now = options.now ?? new Date();
  const inProgressSince = new Date(
    now.getTime() - (options.inProgressLimitMs ?? 24 * 3_600_000),
  ).toISOString();
  const quotingSince = new Date(now.getTime() - (options.quotingLimitMs ?? 15 * 60_000)).toISOString();
  const running = `WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running'`;
  // Most serious first: a payment that fits several kinds is listed under the first (findStuckPayments).
  const known = PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ');
  return {
    // POST /payments may have created a payment nobody saw: an operator decides (resolveCreate; docs/spec-gaps.md)
    NEEDS_ATTENTION: `${running} AND PaymentPhase = 'NEEDS_ATTENTION'`,
    // A pushed final status (a signed webhook) that the service's own answer did not bear out: never acted on,
    // but a webhook secret may be in the wrong hands (workflows/provider-payment/push-confirmation.ts). Listed by the
    // providerPayment entity, which keeps the mismatch in its snapshot (`pushMismatches`).
    WEBHOOK_NOT_CONFIRMED: `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND PaymentPhase = '${PUSH_MISMATCH_PHASE}'`,
    // The service sent a status the contract does not know: the payment is followed as in
    // progress, but a person should look. Listed by the providerPayment entity, which also covers payments
    // nobody here started (PAYINs, conversions); its ProviderPaymentId leads to the payment.
    UNKNOWN_PROVIDER_STATUS: `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND PaymentStatus IS NOT NULL AND PaymentStatus NOT IN (${known})`,
    // 3 business days passed and the provider has not said EXPIRED: a missed webhook or a provider problem.
    PAST_FUNDING_DEADLINE: `${running} AND PaymentPhase IN ('AWAITING_FUNDS', 'QUOTE_EXPIRED', 'CANCELLING') AND FundingDeadline < '${now.toISOString()}'`,
    // Funds are in but not delivered, and the payment was started longer ago than the limit. (StartTime, not the
    // funding time: no search attribute holds the latter; a payment funded late is flagged early. docs/spec-gaps.md)
    IN_PROGRESS_TOO_LONG: `${running} AND PaymentPhase = 'IN_PROGRESS' AND StartTime < '${inProgressSince}'`,
    // Still asking for its rate, or its POST /payments still unanswered, long after its start: the activities retry a
    // refused API key (401/403, minutes apart), a 429 or an outage instead of rejecting the payment
    // (activities/errors.ts), so a configuration fault shows here, not as REJECTED payments.
    QUOTING_TOO_LONG: `${running} AND PaymentPhase = 'QUOTING' AND StartTime < '${quotingSince}'`,
    // The quote ended with no funds seen; the provider status is still AWAITING_FUNDS (spec: States, row 3).
    QUOTE_EXPIRED_UNFUNDED: `${running} AND PaymentPhase = 'QUOTE_EXPIRED'`,
    // Money moved after the payment's outcome: a return by the receiving bank after COMPLETED, a refund after EXPIRED
    // (spec: States and transitions, row 4). Only the providerPayment entity hears it (it lingers 7 days after a
    // terminal status); these are its candidates, each compared with its closed payment's outcome.
    MOVED_AFTER_OUTCOME: `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND PaymentStatus IN ('REFUNDED', 'FAILED')`,
    // A backend has not been told: the oldest outbound event of a payment failed a whole retry window (2 h) and the
    // later ones wait behind it (docs/outbound-events.md). Fix the receiver or the endpoint, then
    // `xborder events redeliver <paymentKey>`. Listed by the payment's delivery workflow (payment-events:<key>, or a
    // transfer's, transfer-events:<key>: `xborder events redeliver --transfer <key>`).
    EVENTS_UNDELIVERED: `WorkflowType = '${PAYMENT_EVENTS_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND PaymentPhase = '${EVENTS_UNDELIVERED_PHASE}'`,
    // A PINNED payment on a build that is neither current nor ramping, its next workflow task waiting: the build's
    // workers were stopped while it still held the run (docs/deployment.md, "A pinned run that does not end").
    // Its first step: findStuckPayments excludes the live builds and reads each candidate's pending task.
    WAITING_FOR_ITS_BUILD: PINNED_RUNNING_PAYMENTS,
  };
}

/** A stuck payment: its kind, workflow, age and what its search attributes say. */
export interface StuckPayment {
  kind: StuckKind;
  workflowId: string;
  runId: string;
  startTime: Date;
  ageMs: number;
  phase: string | undefined;
  providerStatus: string | undefined;
  providerPaymentId: string | undefined;
  customerId: string | undefined;
}

/** The payments stuck now, of every kind (StuckKind), each listed once: under the first kind it matches, most serious first. */
export async function findStuckPayments(
  client: Client,
  options: StuckQueryOptions = {},
): Promise<StuckPayment[]> {
  const now = options.now ?? new Date();
  const found: StuckPayment[] = [];
  const seen = new Set<string>();
  for (const [kind, query] of Object.entries(stuckQueries({ ...options, now })) as [StuckKind, string][]) {
    if (kind === 'MOVED_AFTER_OUTCOME') {
      found.push(...(await movedAfterOutcome(client, query, now, seen)));
      continue;
    }
    if (kind === 'WAITING_FOR_ITS_BUILD') {
      if (!options.deploymentName) continue;
      for await (const wf of waitingForItsBuild(client, {
        deploymentName: options.deploymentName,
        now,
        waitingTaskLimitMs: options.waitingTaskLimitMs,
      })) {
        if (!seen.has(wf.workflowId)) found.push(stuckOf(kind, wf, now));
        seen.add(wf.workflowId);
      }
      continue;
    }
    for await (const wf of client.workflow.list({ query })) {
      if (seen.has(wf.workflowId)) continue; // listed once, under its first kind
      seen.add(wf.workflowId);
      found.push(stuckOf(kind, wf, now));
    }
  }
  return found;
}

function stuckOf(kind: StuckKind, wf: WorkflowExecutionInfo, now: Date): StuckPayment {
  const sa = wf.typedSearchAttributes;
  return {
    kind,
    workflowId: wf.workflowId,
    runId: wf.runId,
    startTime: wf.startTime,
    ageMs: now.getTime() - wf.startTime.getTime(),
    phase: sa.get(PaymentPhaseKey),
    providerStatus: sa.get(PaymentStatusKey),
    providerPaymentId: sa.get(ProviderPaymentIdKey),
    customerId: sa.get(CustomerIdKey),
  };
}

/**
 * Closed payments whose provider payment moved on after their outcome: the entity says REFUNDED or FAILED while the
 * payment ended otherwise. One list of lingering entities, then one lookup per candidate (few: entities linger 7 days).
 */
export async function movedAfterOutcome(
  client: Client,
  query: string,
  now: Date,
  seen: Set<string>,
): Promise<StuckPayment[]> {
  const found: StuckPayment[] = [];
  for await (const entity of client.workflow.list({ query })) {
    const id = entity.typedSearchAttributes.get(ProviderPaymentIdKey);
    const status = entity.typedSearchAttributes.get(PaymentStatusKey);
    if (!id || !status) continue;
    const closed = `WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Completed' AND ProviderPaymentId = '${id.replace(/'/g, "''")}'`;
    for await (const wf of client.workflow.list({ query: closed })) {
      const sa = wf.typedSearchAttributes;
      const phase = sa.get(PaymentPhaseKey);
      if (phase === status || seen.has(wf.workflowId)) continue;
      seen.add(wf.workflowId);
      found.push({
        kind: 'MOVED_AFTER_OUTCOME',
        workflowId: wf.workflowId,
        runId: wf.runId,
        startTime: wf.startTime,
        ageMs: now.getTime() - wf.startTime.getTime(),
        phase,
        providerStatus: status,
        providerPaymentId: id,
        customerId: sa.get(CustomerIdKey),
      });
    }
  }
  return found;
}

/** Link to a workflow in the Temporal UI. */
export function temporalUiLink(
  uiBaseUrl: string,
  namespace: string,
  workflowId: string,
  runId?: string,
): string {
  const base = `${uiBaseUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  return runId ? `${base}/${encodeURIComponent(runId)}/history` : base;
}
