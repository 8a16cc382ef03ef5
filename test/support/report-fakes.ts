// Paged fakes of visibility and of the service's list for the reconciliation report: each page is made when it is
// asked for and dropped after, as the real ones are, so a run over N payments holds no page of N. Used by the unit
// tests and by the scale measurement (scripts/report/scale.ts, docs/performance.md "Reconciliation report").
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { Payment } from '../../src/contract';
import { iterateItems, type Page } from '../../src/provider/pagination';
import { AMOUNTS_MEMO_KEY } from '../../src/report/memo';

export interface FakeWorkflow {
  workflowId: string;
  type: 'payment' | 'providerPayment' | 'paymentEvents';
  running: boolean;
  startTime: Date;
  searchAttributes: Record<string, string>;
  memo?: Record<string, unknown>;
}

export interface PagedCounters {
  visibilityPages: number;
  servicePages: number;
  /** the largest page handed out, in items */
  largestPage: number;
}

function info(w: FakeWorkflow): WorkflowExecutionInfo {
  return {
    workflowId: w.workflowId,
    runId: 'run',
    type: w.type,
    status: { code: w.running ? 1 : 2, name: w.running ? 'RUNNING' : 'COMPLETED' },
    startTime: w.startTime,
    closeTime: w.running ? undefined : new Date(w.startTime.getTime() + 60_000),
    typedSearchAttributes: { get: (key: { name: string }) => w.searchAttributes[key.name] },
    memo: w.memo,
  } as unknown as WorkflowExecutionInfo;
}

/**
 * `client.workflow.list` over workflows made by `make(i)` for i < count, `pageSize` a page; the query picks the
 * workflow type (and the EVENTS_UNDELIVERED phase), as the server's would.
 */
export function pagedVisibility(
  sources: Partial<Record<FakeWorkflow['type'], { count: number; make: (i: number) => FakeWorkflow }>>,
  counters: PagedCounters,
): Pick<Client, 'workflow'> {
  const list = ({ query, pageSize = 100 }: { query?: string; pageSize?: number }) => {
    const type = /WorkflowType = '(\w+)'/.exec(query ?? '')?.[1] as FakeWorkflow['type'];
    const onlyUndelivered = /PaymentPhase = 'EVENTS_UNDELIVERED'/.test(query ?? '');
    const source = sources[type];
    return (async function* () {
      if (!source) return;
      for (let start = 0; start < source.count; start += pageSize) {
        const page: WorkflowExecutionInfo[] = [];
        for (let i = start; i < Math.min(source.count, start + pageSize); i++) {
          const w = source.make(i);
          if (onlyUndelivered && (w.searchAttributes.PaymentPhase !== 'EVENTS_UNDELIVERED' || !w.running))
            continue;
          page.push(info(w));
        }
        counters.visibilityPages++;
        counters.largestPage = Math.max(counters.largestPage, page.length);
        yield* page;
      }
    })();
  };
  return { workflow: { list } } as unknown as Pick<Client, 'workflow'>;
}

/** The service's GET /payments, cursor by cursor, through the provider client's own paging (iterateItems). */
export function pagedServiceList(count: number, make: (i: number) => Payment, counters: PagedCounters) {
  return (query: { limit: number }) =>
    iterateItems<Payment>(async ({ cursor, limit = query.limit }): Promise<Page<Payment>> => {
      const start = cursor ? Number(cursor) : 0;
      const data: Payment[] = [];
      for (let i = start; i < Math.min(count, start + limit); i++) data.push(make(i));
      counters.servicePages++;
      counters.largestPage = Math.max(counters.largestPage, data.length);
      const next = start + limit < count ? String(start + limit) : null;
      return { data, nextCursor: next, limit };
    }, query);
}

/** A service payment as the list gives it (the fields the report reads; the rest as the contract shapes them). */
export function fakePayment(
  id: string,
  over: { status?: string; createdAt?: string; sourceAmount?: number; type?: string } = {},
): Payment {
  return {
    id,
    type: over.type ?? 'PAYOUT',
    status: over.status ?? 'COMPLETED',
    customerId: 'cus_fake',
    lifecycle: {
      createdAt: over.createdAt ?? '2026-11-20T10:00:00.000Z',
      sentAt: null,
      completedAt: null,
      expiredAt: null,
      refundedAt: null,
    },
    source: {
      amount: over.sourceAmount ?? 100.1,
      currencyCode: 'USDC',
      accountId: null,
      rail: 'POLYGON',
      fromAddress: null,
      transactionHash: null,
      fromAccountNumber: null,
    },
    destination: {
      amount: 512.33,
      currencyCode: 'BRL',
      rail: 'PIX',
      accountId: 'acc_fake',
      transactionHash: null,
    },
    fee: 1.07,
  } as unknown as Payment;
}

/** A payment workflow closed COMPLETED following `providerPaymentId`, asked for `sourceAmount` USDC. */
export function fakePaymentWorkflow(
  key: string,
  providerPaymentId: string,
  over: { phase?: string; running?: boolean; sourceAmount?: number; startTime?: Date } = {},
): FakeWorkflow {
  return {
    workflowId: `payment:${key}`,
    type: 'payment',
    running: over.running ?? false,
    startTime: over.startTime ?? new Date('2026-11-20T09:59:59.000Z'),
    searchAttributes: {
      PaymentPhase: over.phase ?? 'COMPLETED',
      PaymentStatus: over.phase ?? 'COMPLETED',
      ProviderPaymentId: providerPaymentId,
    },
    memo: {
      [AMOUNTS_MEMO_KEY]: {
        source: { amount: over.sourceAmount ?? 100.1, currencyCode: 'USDC' },
        destination: { amount: null, currencyCode: 'BRL' },
      },
    },
  };
}
