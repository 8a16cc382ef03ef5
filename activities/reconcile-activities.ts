// Reconciliation of payments whose webhooks were lost. Webhook delivery and retries are not shown (spec: Events 5),
// so neither path relies on the sender retrying for long enough.
// - A PAYIN (or its automatic conversion, spec: Payment rule 2) is only known from its webhook. If Temporal was down
//   for longer than the sender retried, that webhook is gone; this activity lists recent payments (GET /payments)
//   and signalWithStarts the entity of each one, as the ingress would have.
// - A payment we follow (a payout, a pull: its providerPayment entity runs) whose final status never reached its
//   entity (a burst the ingress shed and the sender gave up on: docs/performance.md, "10,000 payments on PostgreSQL")
//   would wait for the entity's daily read. Its entity is told only when the listing shows a final status that the
//   entity's indexed PaymentStatus lacks (one visibility list per run, not a signal per listed payment: signals are
//   billed actions, docs/performance.md "Actions per payment").
// The entity drops a duplicate event id, holds a pushed final status until its own GET confirms it
// (workflows/provider-payment/push-confirmation.ts) and, on a fresh start, reads the payment itself first, so a
// reconcile never moves anything backwards and never decides an outcome on the listing alone.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/contract';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE, providerPaymentWorkflowId, signalWithStartProviderPayment } from '../workflows/provider-payment/api';
import { FINAL_PAYMENT_STATUSES, PaymentStatusKey } from '../workflows/search-attributes';
import type { ProviderPort } from './provider-port';
import { callProvider } from './errors';

export interface ReconcileRecentPaymentsInput {
  /** PAYINs and conversions created at or after this instant (ISO 8601) are signalled */
  since: string;
  /** stop after this many payments listed (the list's order is not shown: a bound, not a filter) */
  maxListed?: number;
  /** stop after this many running entities read from visibility (the followed-payment path) */
  maxEntities?: number;
}

export interface ReconcileRecentPaymentsResult {
  listed: number;
  /** PAYINs and conversions signalled (every one in the window, each run) */
  signalled: string[];
  /** running providerPayment entities without a final PaymentStatus, as visibility listed them (absent in older results) */
  entitiesNotFinal?: number;
  /** of those, the ones told a final status the listing showed: what the sweep healed (absent in older results) */
  followedSignalled?: number;
}

export interface ReconcileActivities {
  reconcileRecentPayments(input: ReconcileRecentPaymentsInput): Promise<ReconcileRecentPaymentsResult>;
}

/**
 * Defaults. A run lists at most DEFAULT_MAX_LISTED payments, LIST_PAGE_SIZE a page (the contract's largest page,
 * docs/spec-gaps.md "Paging"): 200 GETs for 20,000, enough for 10,000 payments in the 6-hour window with room for
 * their PAYINs and conversions. Visibility is read ENTITY_PAGE_SIZE entities a page, at most DEFAULT_MAX_ENTITIES.
 */
export const DEFAULT_MAX_LISTED = 20_000;
export const LIST_PAGE_SIZE = 100;
export const DEFAULT_MAX_ENTITIES = 20_000;
export const ENTITY_PAGE_SIZE = 1_000;

/** A PAYIN, or the conversion of funds that arrived at a virtual account: followed only through webhooks. */
export function isFollowedOnlyByWebhooks(p: Payment): boolean {
  if (p.type === 'PAYIN') return true;
  return (p.type === 'PAYOUT' || p.type === 'INTERNAL') && Boolean(p.source?.accountId);
}

/**
 * The running entities on this task queue that have not taken a final status (by their indexed PaymentStatus; an
 * entity that has not indexed one yet is listed too). Visibility lags: one that took its final status a moment ago
 * may still be listed (a duplicate the entity drops), and one started a moment ago is missed (the next run sees it).
 */
export function entitiesNotFinalQuery(taskQueue: string): string {
  const finals = FINAL_PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ');
  return (
    `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND TaskQueue = '${taskQueue}' ` +
    `AND (PaymentStatus IS NULL OR PaymentStatus NOT IN (${finals}))`
  );
}

async function listEntitiesNotFinal(
  client: Pick<Client, 'workflow'>,
  taskQueue: string,
  maxEntities: number,
  heartbeat: (progress: number) => void,
): Promise<Set<string>> {
  const ids = new Set<string>();
  let read = 0;
  for await (const wf of client.workflow.list({ query: entitiesNotFinalQuery(taskQueue), pageSize: ENTITY_PAGE_SIZE })) {
    if (++read > maxEntities) break;
    // checked here too: the query says so, and a server (or a fake) that ignored part of it must not cost signals
    const indexed = wf.typedSearchAttributes?.get(PaymentStatusKey);
    if (indexed === undefined || !FINAL_PAYMENT_STATUSES.includes(indexed)) ids.add(wf.workflowId);
    if (read % ENTITY_PAGE_SIZE === 0) heartbeat(read);
  }
  return ids;
}

export function createReconcileActivities(deps: {
  provider: Pick<ProviderPort, 'payments'>;
  client?: () => Pick<Client, 'workflow'>;
  taskQueue?: () => string;
  heartbeat?: (progress: number) => void;
}): ReconcileActivities {
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const heartbeat = deps.heartbeat ?? ((progress: number) => Context.current().heartbeat(progress));
  return {
    async reconcileRecentPayments({ since, maxListed = DEFAULT_MAX_LISTED, maxEntities = DEFAULT_MAX_ENTITIES }) {
      const list = deps.provider.payments.listAll;
      if (!list) return { listed: 0, signalled: [], entitiesNotFinal: 0, followedSignalled: 0 };
      const sinceMs = Date.parse(since);
      // Read before the listing: an entity that hears its final status meanwhile is told again (dropped as a duplicate).
      const notFinal = await listEntitiesNotFinal(client(), taskQueue(), maxEntities, heartbeat);
      const entitiesNotFinal = notFinal.size;
      let listed = 0;
      let followedSignalled = 0;
      const signalled: string[] = [];
      const tell = (p: Payment) =>
        signalWithStartProviderPayment(client(), {
          taskQueue: taskQueue(),
          input: { providerPaymentId: p.id },
          // one id per status seen: a second reconcile of an unchanged payment is a duplicate the entity drops
          event: { eventId: `reconcile:${p.id}:${p.status}`, type: 'payment.reconciled', payment: p },
        });
      await callProvider(async () => {
        for await (const p of list.call(deps.provider.payments, { limit: LIST_PAGE_SIZE })) {
          if (++listed > maxListed) break;
          if (listed % LIST_PAGE_SIZE === 0) heartbeat(listed);
          if (isFollowedOnlyByWebhooks(p) && Date.parse(String(p.lifecycle?.createdAt ?? '')) >= sinceMs) {
            await tell(p);
            signalled.push(p.id);
            heartbeat(listed);
            continue;
          }
          // A payment with a running entity, whatever its age (a payout may be funded days after it was made; a PAYIN
          // older than the window): only a final status its entity has not indexed is told, once per run (deleted
          // from the set once told).
          const entity = providerPaymentWorkflowId(p.id);
          if (!FINAL_PAYMENT_STATUSES.includes(p.status) || !notFinal.delete(entity)) continue;
          await tell(p);
          followedSignalled++;
          heartbeat(listed);
        }
      });
      return { listed: Math.min(listed, maxListed), signalled, entitiesNotFinal, followedSignalled };
    },
  };
}
