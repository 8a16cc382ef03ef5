// The reconcile sweep is the periodic read the payment and its entity no longer take (workflows/payment/steps/follow.ts,
// workflows/provider-payment/quiet-reads.ts): a funding webhook lost while the payment workflow waits for funds
// (its PaymentPhase AWAITING_FUNDS, QUOTE_EXPIRED or CANCELLING) and a final one lost while the entity is not final
// are told to the entity by one run; a payment whose webhooks all came is told nothing (signals are billed).
import { TypedSearchAttributes } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import {
  createReconcileActivities,
  paymentsAwaitingFundsQuery,
} from '../../../activities/reconcile-activities';
import { normalizePayment, type Payment } from '../../../src/contract';
import { PaymentStatusKey, ProviderPaymentIdKey } from '../../../workflows/search-attributes';
import { sweepTellOf } from '../../../workflows/provider-payment/sweep-decision';
import { currentPayment } from '../contract/fixtures';

function payout(id: string, status: string): Payment {
  return normalizePayment({
    ...currentPayment(),
    id,
    type: 'PAYOUT',
    status,
    source: { ...currentPayment().source, accountId: undefined },
    lifecycle: { ...currentPayment().lifecycle, createdAt: '2026-11-20T10:00:00Z' },
  });
}

/** Visibility answering by query: the waiting payments for the payments' query, the entities for the other. */
function clientOver(waiting: { workflowId: string; providerPaymentId: string }[], entities: string[]) {
  const told: string[] = [];
  const asked: string[] = [];
  const client = {
    workflow: {
      signalWithStart: async (_type: string, options: { workflowId: string }) => {
        told.push(options.workflowId);
        return {};
      },
      list: ({ query }: { query?: string } = {}) =>
        (async function* () {
          asked.push(query ?? '');
          if (query === paymentsAwaitingFundsQuery('q-reconcile'))
            for (const w of waiting)
              yield {
                workflowId: w.workflowId,
                typedSearchAttributes: new TypedSearchAttributes([
                  { key: ProviderPaymentIdKey, value: w.providerPaymentId },
                ]),
              };
          else
            for (const id of entities)
              yield {
                workflowId: id,
                typedSearchAttributes: new TypedSearchAttributes([
                  { key: PaymentStatusKey, value: 'AWAITING_FUNDS' },
                ]),
              };
        })(),
    },
  } as unknown as Client;
  return { client, told, asked };
}

function sweepOver(listed: Payment[], client: Client) {
  return createReconcileActivities({
    provider: {
      payments: {
        async *listAll() {
          yield* listed;
        },
      },
    } as never,
    client: () => client,
    taskQueue: () => 'q-reconcile',
    heartbeat: () => undefined,
  });
}

describe('the reconcile sweep tells a lost funding or final webhook', () => {
  it('tells the entity of a waiting payment the PENDING its funding webhook lost, and nothing to one that heard it', async () => {
    const { client, told } = clientOver(
      [
        { workflowId: 'payment:lost', providerPaymentId: 'pay_lost' },
        { workflowId: 'payment:waits', providerPaymentId: 'pay_waits' },
      ],
      ['provider-payment:pay_lost', 'provider-payment:pay_waits', 'provider-payment:pay_heard'],
    );
    const result = await sweepOver(
      [
        payout('pay_lost', 'PENDING'),
        payout('pay_waits', 'AWAITING_FUNDS'),
        payout('pay_heard', 'PROCESSING'),
      ],
      client,
    ).reconcileRecentPayments({ since: '2026-11-21T00:00:00Z' });
    expect(told).toEqual(['provider-payment:pay_lost']);
    expect(result.followedSignalled).toBe(1);
  });

  it('tells a running entity not final the final status its webhook lost', async () => {
    const { client, told } = clientOver([], ['provider-payment:pay_done']);
    await sweepOver([payout('pay_done', 'COMPLETED')], client).reconcileRecentPayments({
      since: '2026-11-21T00:00:00Z',
    });
    expect(told).toEqual(['provider-payment:pay_done']);
  });

  it("lists only its own task queue's waiting payments: another deployment in the namespace has its own sweep", async () => {
    const { client, asked } = clientOver([], []);
    await sweepOver([payout('pay_lost', 'PENDING')], client).reconcileRecentPayments({
      since: '2026-11-21T00:00:00Z',
    });
    const waiting = asked.filter((q) => q.includes("WorkflowType = 'payment'"));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain("TaskQueue = 'q-reconcile'");
  });

  it('decides: funded only past AWAITING_FUNDS while the payment waits; final before funded', () => {
    const since = Date.parse('2026-11-21T00:00:00Z');
    expect(sweepTellOf(payout('a', 'PENDING'), true, since, true)).toBe('funded');
    expect(sweepTellOf(payout('a', 'SENT'), false, since, true)).toBe('funded');
    expect(sweepTellOf(payout('a', 'AWAITING_FUNDS'), true, since, true)).toBeNull();
    expect(sweepTellOf(payout('a', 'PENDING'), true, since, false)).toBeNull();
    expect(sweepTellOf(payout('a', 'EXPIRED'), true, since, true)).toBe('final');
  });
});
