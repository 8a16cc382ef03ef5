// The checks of a chaos scenario, against the sandbox's own records: exactly one provider payment
// per payment workflow, every outcome equal to the sandbox's final state, every webhook event either
// delivered to its entity or reconciled (the entity workflow holds the sandbox's final state anyway). An entity
// that disagrees with the sandbox fails the scenario: the stale-entity gap is closed (workflows/provider-payment/tell-entity.ts, tellEntity,
// and the payment-reconcile Schedule the scenario triggers at its end).
import got from 'got';
import type { LocalStack } from '../../src/cli/stack';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import type { PayinRun, PaymentRun } from './workload';

export interface ScenarioCounts {
  payments: number;
  payins: number;
  /** payment workflows with more than one provider payment (the extra ones counted) */
  duplicates: number;
  /** payment workflows with no outcome, or whose provider payment the sandbox does not hold */
  lost: number;
  /** outcome of the workflow ≠ final status in the sandbox */
  wrongOutcomes: number;
  webhooksDelivered: number;
  /** events never delivered (dropped, failed, still pending) whose entity holds the sandbox's state anyway */
  webhooksReconciled: number;
  /** events neither delivered nor reconciled: the entity disagrees with the sandbox */
  webhooksUnreconciled: number;
  /**
   * Undelivered events of PAYINs/conversions whose entity the payment-reconcile Schedule's run (triggered at the
   * end of the scenario, reconcile-schedule.ts) brought to the sandbox's state: part of webhooksReconciled.
   */
  reconciledBySchedule: number;
  /** PAYINs/conversions with no entity at all before the Schedule ran (every webhook of theirs dropped) */
  untrackedBeforeSchedule: number;
  /** what went wrong, one line each (empty when all is well) */
  problems: string[];
}

interface SandboxPayment {
  id: string;
  status: string;
  reference?: string | null;
  lifecycle?: { refundedAt?: string | null } | null;
}

/**
 * The outcome a payment workflow must report for the sandbox's final record. Funds after quote expiry keep the
 * status AWAITING_FUNDS and set refundedAt (docs/spec-gaps.md, the sandbox's row 4 decision): that is REFUNDED, as
 * the workflow's own rule has it (workflows/payment-rules.ts, isRefunded); a FAILED payment stays FAILED.
 */
function expectedOutcome(p: SandboxPayment): string {
  return p.status !== 'FAILED' && p.lifecycle?.refundedAt ? 'REFUNDED' : p.status;
}

interface DeliveryView {
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'failed';
  event: { data?: { id?: string; object?: string } };
}

export async function verifyScenario(
  stack: LocalStack,
  runs: PaymentRun[],
  payins: PayinRun[],
  options: {
    settleTimeoutMs: number;
    deliveriesOf?: () => Promise<DeliveryView[]>;
    /** the status each PAYIN/conversion entity showed before the reconcile Schedule ran (undefined: no entity) */
    entitiesBeforeSchedule?: Map<string, string | undefined>;
  },
): Promise<ScenarioCounts> {
  const problems: string[] = [];
  const sandboxPayments: SandboxPayment[] = [];
  for await (const p of stack.provider.payments.listAll()) sandboxPayments.push(p as SandboxPayment);
  const byId = new Map(sandboxPayments.map((p) => [p.id, p]));
  const byReference = new Map<string, SandboxPayment[]>();
  for (const p of sandboxPayments)
    if (p.reference) byReference.set(p.reference, [...(byReference.get(p.reference) ?? []), p]);

  let duplicates = 0;
  let lost = 0;
  let wrongOutcomes = 0;
  for (const run of runs) {
    const held = byReference.get(run.key) ?? [];
    if (held.length > 1) {
      duplicates += held.length - 1;
      problems.push(
        `${run.workflowId} (${run.kind}): ${held.length} provider payments ${held.map((p) => p.id).join(', ')}`,
      );
    }
    const provider = run.providerPaymentId ? byId.get(run.providerPaymentId) : undefined;
    if (!run.outcome || !provider) {
      lost++;
      problems.push(
        `${run.workflowId} (${run.kind}): lost: outcome ${run.outcome ?? '-'}, provider payment ${run.providerPaymentId ?? '-'} ${provider ? provider.status : 'not in the sandbox'}${run.error ? `; ${run.error}` : ''}`,
      );
      continue;
    }
    if (run.outcome !== expectedOutcome(provider)) {
      wrongOutcomes++;
      problems.push(
        `${run.workflowId} (${run.kind}): outcome ${run.outcome}, sandbox ${provider.id} ${provider.status}${provider.lifecycle?.refundedAt ? ' (refunded)' : ''}`,
      );
    }
  }

  // Webhooks: the deliveries of every provider payment of this run (payments, PAYINs, conversions).
  const ids = new Set<string>([
    ...runs.flatMap((r) => (r.providerPaymentId ? [r.providerPaymentId] : [])),
    ...payins.flatMap((p) => p.providerPaymentIds),
  ]);
  for (const p of payins) if (p.error) problems.push(`PAYIN not made: ${p.error}`);
  const deliveries = options.deliveriesOf
    ? await options.deliveriesOf()
    : (
        await got(`${stack.sandbox.url}/sandbox/webhooks`, { headers: stack.sandbox.controlHeaders }).json<{
          data: DeliveryView[];
        }>()
      ).data;
  let webhooksDelivered = 0;
  const undelivered = new Map<string, number>();
  for (const d of deliveries) {
    const id = d.event.data?.id;
    if (!id || !ids.has(id)) continue;
    if (d.state === 'delivered') webhooksDelivered++;
    else undelivered.set(id, (undelivered.get(id) ?? 0) + 1);
  }
  // Every entity, delivered or not, must end on the sandbox's final status; for undelivered events that is
  // reconciliation at work: the payment's own GET told to the entity (workflows/provider-payment/tell-entity.ts, tellEntity), the entity's
  // timer, or the reconcile Schedule for PAYINs and conversions. A disagreement is a failure (no known gaps).
  let webhooksReconciled = 0;
  let webhooksUnreconciled = 0;
  let reconciledBySchedule = 0;
  const before = options.entitiesBeforeSchedule;
  const untrackedBeforeSchedule = before
    ? [...before.values()].filter((status) => status === undefined).length
    : 0;
  const deadline = Date.now() + options.settleTimeoutMs;
  for (const id of ids) {
    let want = byId.get(id)?.status;
    let have: string | undefined;
    for (;;) {
      have = await entityStatus(stack, id);
      if (have === want || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
      // a conversion may still be moving: compare with the sandbox's latest
      want = (await stack.provider.payments.get(id).catch(() => undefined))?.status ?? want;
    }
    const missed = undelivered.get(id) ?? 0;
    if (have === want) {
      webhooksReconciled += missed;
      if (before?.has(id) && before.get(id) !== want) reconciledBySchedule += missed;
    } else {
      webhooksUnreconciled += Math.max(missed, 1);
      problems.push(
        `entity of ${id}: ${have ?? 'no entity'}, sandbox ${want ?? 'unknown'} (${missed} undelivered events)`,
      );
    }
  }
  return {
    payments: runs.length,
    payins: payins.length,
    duplicates,
    lost,
    wrongOutcomes,
    webhooksDelivered,
    webhooksReconciled,
    webhooksUnreconciled,
    reconciledBySchedule,
    untrackedBeforeSchedule,
    problems,
  };
}

/** The status the entity of a provider payment shows (undefined: no entity answers). */
export async function entityStatus(
  stack: LocalStack,
  providerPaymentId: string,
): Promise<string | undefined> {
  return stack.client.workflow
    .getHandle(providerPaymentWorkflowId(providerPaymentId))
    .query(providerPaymentSnapshotQuery)
    .then((s) => s.payment?.status)
    .catch(() => undefined);
}
