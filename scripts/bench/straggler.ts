// What the bench prints about a payment that had not ended when its window closed (P2 at 10,000):
// enough to tell a late payment from a lost one before the stack is torn down. One line per payment: the
// payment workflow, its provider-payment entity, what the service itself says, and any webhook for it that
// the sandbox could not deliver.
import got from 'got';
import type { Client } from '@temporalio/client';
import type { ProviderClient } from '../../src/provider';
import {
  providerPaymentSnapshotQuery,
  providerPaymentWorkflowId,
} from '../../workflows/provider-payment/api';
import { PaymentPhaseKey } from '../../workflows/search-attributes';

interface FailedDelivery {
  eventType: string;
  state: string;
  nextAttemptAt: string | null;
  attempts: Array<{ status: number | null; error: string | null }>;
  event: { data?: { id?: string } };
}

async function settle<T>(what: Promise<T>): Promise<T | string> {
  try {
    return await what;
  } catch (err) {
    return `unreadable (${(err as Error).message.split('\n')[0]})`;
  }
}

/** The deliveries the sandbox gave up on or still retries, by provider payment id (one read per diagnosis round). */
export async function undeliveredWebhooks(sandbox: {
  url: string;
  controlHeaders: Record<string, string>;
}): Promise<Map<string, string[]>> {
  const byPayment = new Map<string, string[]>();
  for (const state of ['failed', 'pending']) {
    const { data } = await got(`${sandbox.url}/sandbox/webhooks`, {
      headers: sandbox.controlHeaders,
      searchParams: { state },
    }).json<{ data: FailedDelivery[] }>();
    for (const d of data) {
      const id = d.event.data?.id;
      if (!id) continue;
      const last = d.attempts.at(-1);
      const tried = last
        ? `${d.attempts.length} attempts, last: ${last.error ?? `HTTP ${last.status}`}`
        : 'first attempt in flight';
      const line = `${d.eventType} ${d.state} (${tried}${d.nextAttemptAt ? `, next at ${d.nextAttemptAt}` : ''})`;
      byPayment.set(id, [...(byPayment.get(id) ?? []), line]);
    }
  }
  return byPayment;
}

export async function describeStraggler(
  deps: { client: Client; provider: ProviderClient; undelivered: Map<string, string[]> },
  workflowId: string,
  providerPaymentId: string,
): Promise<string> {
  const payment = await settle(
    deps.client.workflow
      .getHandle(workflowId)
      .describe()
      .then((d) => `${d.status.name}, phase ${d.typedSearchAttributes.get(PaymentPhaseKey) ?? '?'}`),
  );
  const entityHandle = deps.client.workflow.getHandle(providerPaymentWorkflowId(providerPaymentId));
  const entity = await settle(
    Promise.all([entityHandle.describe(), entityHandle.query(providerPaymentSnapshotQuery)]).then(
      ([d, s]) => {
        const last = s.statusHistory.at(-1);
        return `${d.status.name}, sees ${s.payment?.status ?? 'nothing'}${last ? ` (since ${last.at}, by ${last.cause})` : ''}`;
      },
    ),
  );
  const service = await settle(deps.provider.payments.get(providerPaymentId).then((p) => p.status));
  const webhooks = deps.undelivered.get(providerPaymentId) ?? [];
  return `${workflowId}: payment ${payment}; entity ${entity}; the service says ${service}; undelivered webhooks: ${webhooks.length > 0 ? webhooks.join(', ') : 'none'}`;
}
