// Reconciliation of payments nobody here started: a PAYIN (or its automatic conversion,
// spec: Payment rule 2) is only known from its webhook. If Temporal was down for longer than the sender
// retried, that webhook is gone; this activity lists recent payments (GET /payments) and signalWithStarts the
// entity of each one, as the ingress would have. The entity drops a duplicate event id and, on a fresh start,
// reads the payment itself first, so a reconcile never moves anything backwards.
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/contract';
import { signalWithStartProviderPayment } from '../workflows/provider-payment/api';
import type { ProviderPort } from './provider-port';
import { callProvider } from './errors';

export interface ReconcileRecentPaymentsInput {
  /** payments created at or after this instant (ISO 8601) are looked at */
  since: string;
  /** stop after this many payments listed (the list's order is not shown: a bound, not a filter) */
  maxListed?: number;
}

export interface ReconcileRecentPaymentsResult {
  listed: number;
  signalled: string[];
}

export interface ReconcileActivities {
  reconcileRecentPayments(input: ReconcileRecentPaymentsInput): Promise<ReconcileRecentPaymentsResult>;
}

/** A PAYIN, or the conversion of funds that arrived at a virtual account: followed only through webhooks. */
export function isFollowedOnlyByWebhooks(p: Payment): boolean {
  if (p.type === 'PAYIN') return true;
  return (p.type === 'PAYOUT' || p.type === 'INTERNAL') && Boolean(p.source?.accountId);
}

export function createReconcileActivities(deps: {
  provider: Pick<ProviderPort, 'payments'>;
  client?: () => Pick<Client, 'workflow'>;
  taskQueue?: () => string;
  heartbeat?: (listed: number) => void;
}): ReconcileActivities {
  const client = deps.client ?? (() => Context.current().client);
  const taskQueue = deps.taskQueue ?? (() => Context.current().info.taskQueue);
  const heartbeat = deps.heartbeat ?? ((listed: number) => Context.current().heartbeat(listed));
  return {
    async reconcileRecentPayments({ since, maxListed = 5_000 }) {
      const list = deps.provider.payments.listAll;
      if (!list) return { listed: 0, signalled: [] };
      const sinceMs = Date.parse(since);
      let listed = 0;
      const signalled: string[] = [];
      await callProvider(async () => {
        for await (const p of list.call(deps.provider.payments)) {
          if (++listed > maxListed) break;
          const createdAt = Date.parse(String(p.lifecycle?.createdAt ?? ''));
          if (!(createdAt >= sinceMs) || !isFollowedOnlyByWebhooks(p)) continue;
          await signalWithStartProviderPayment(client(), {
            taskQueue: taskQueue(),
            input: { providerPaymentId: p.id },
            // one id per status seen: a second reconcile of an unchanged payment is a duplicate the entity drops
            event: { eventId: `reconcile:${p.id}:${p.status}`, type: 'payment.reconciled', payment: p },
          });
          signalled.push(p.id);
          heartbeat(listed);
        }
      });
      return { listed: Math.min(listed, maxListed), signalled };
    },
  };
}
