// Reads the three records of the reconciliation report page by page (docs/reconciliation-report.md):
// - visibility, three list queries (payment workflows, providerPayment entities, delivery workflows flagged
//   EVENTS_UNDELIVERED), VISIBILITY_PAGE_SIZE a page: search attributes and memo only, no query, no history read
//   and no Temporal action per payment;
// - the service's list (GET /payments, SERVICE_PAGE_SIZE a page, read with our key).
// Pages are dropped once read; each record goes into the partitioned join (src/report/partitioned-join.ts), whose
// partitions stay in memory for a small window and go to a private temporary directory past that
// (report-spill.ts), removed when the report ends: the reader's memory does not grow with the window.
// What visibility does not hold: the fee the workflow was quoted, the destination amount of a payment asked by its
// source amount, and what each delivered event said (the delivery workflow's state, a query per payment): the
// report compares what is there and says so ("not compared").
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import type { Payment } from '../src/contract';
import { amountsFromMemo } from '../src/report/memo';
import { createPartitionedReportBuilder } from '../src/report/partitioned-join';
import type {
  ReconciliationReport,
  ReportRow,
  ReportWindow,
  ServiceRecord,
  WorkflowRecord,
} from '../src/report/types';
import { createReportSpillStore, type ReportSpillStore } from './report-spill';
import { PAYMENT_WORKFLOW_TYPE } from '../workflows/payment/api';
import { EVENTS_UNDELIVERED_PHASE, PAYMENT_EVENTS_WORKFLOW_TYPE } from '../workflows/payment-events/api';
import { PROVIDER_PAYMENT_WORKFLOW_TYPE } from '../workflows/provider-payment/api';
import { PaymentPhaseKey, PaymentStatusKey, ProviderPaymentIdKey } from '../workflows/search-attributes';

export const VISIBILITY_PAGE_SIZE = 1_000;
/** The contract's largest page (docs/spec-gaps.md, "Paging"). */
export const SERVICE_PAGE_SIZE = 100;

const PAYMENT_ID_PREFIX = 'payment:';

export interface ReportSources {
  client: Pick<Client, 'workflow'>;
  /** every payment of the service's list, page by page (the provider client's `payments.listAll`) */
  listPayments: (query: { limit: number }) => AsyncIterable<Payment>;
  /** called every page (an activity heartbeats) */
  progress?: (read: number) => void;
  /** each payment's line as it is decided (report-writer.ts streams payments.csv); absent: kept in `rows` */
  onRow?: (row: ReportRow) => void;
  /** where the join's partitions go (default: memory, then a private temporary directory; report-spill.ts) */
  spill?: () => ReportSpillStore;
}

const quote = (iso: string) => `'${iso.replace(/'/g, "''")}'`;

/**
 * The visibility queries. Runs are listed from the window's start with no end: a payment created in the window may
 * run on in a later run (continue-as-new) started after it; the service's createdAt decides the window. A run that
 * continued as new is left out (its successor carries the payment on).
 */
export function reportQueries(window: ReportWindow): {
  payments: string;
  entities: string;
  undelivered: string;
} {
  return {
    payments: `WorkflowType = '${PAYMENT_WORKFLOW_TYPE}' AND StartTime >= ${quote(window.from)} AND ExecutionStatus != 'ContinuedAsNew'`,
    entities: `WorkflowType = '${PROVIDER_PAYMENT_WORKFLOW_TYPE}' AND StartTime >= ${quote(window.from)} AND ExecutionStatus != 'ContinuedAsNew'`,
    undelivered: `WorkflowType = '${PAYMENT_EVENTS_WORKFLOW_TYPE}' AND ExecutionStatus = 'Running' AND PaymentPhase = '${EVENTS_UNDELIVERED_PHASE}'`,
  };
}

export function workflowRecordOf(
  wf: Pick<
    WorkflowExecutionInfo,
    'workflowId' | 'status' | 'typedSearchAttributes' | 'startTime' | 'closeTime' | 'memo'
  >,
): WorkflowRecord | null {
  if (!wf.workflowId.startsWith(PAYMENT_ID_PREFIX)) return null;
  const sa = wf.typedSearchAttributes;
  return {
    workflowId: wf.workflowId,
    paymentKey: wf.workflowId.slice(PAYMENT_ID_PREFIX.length),
    running: wf.status.name === 'RUNNING',
    phase: sa.get(PaymentPhaseKey) ?? null,
    providerStatus: sa.get(PaymentStatusKey) ?? null,
    providerPaymentId: sa.get(ProviderPaymentIdKey) ?? null,
    startTime: wf.startTime.toISOString(),
    closeTime: wf.closeTime?.toISOString() ?? null,
    amounts: amountsFromMemo(wf.memo),
  };
}

const amountText = (n: number) => String(n);

export function serviceRecordOf(p: Payment): ServiceRecord {
  return {
    id: p.id,
    type: p.type,
    status: p.status,
    createdAt: p.lifecycle?.createdAt ?? null,
    source: { amount: amountText(p.source.amount), currencyCode: p.source.currencyCode },
    destination: { amount: amountText(p.destination.amount), currencyCode: p.destination.currencyCode },
    fee: amountText(p.fee),
  };
}

export async function readReconciliationReport(
  sources: ReportSources,
  window: ReportWindow,
  now: Date,
): Promise<ReconciliationReport> {
  const store = (sources.spill ?? createReportSpillStore)();
  try {
    return await readInto(store, sources, window, now);
  } finally {
    store.dispose();
  }
}

async function readInto(
  store: ReportSpillStore,
  sources: ReportSources,
  window: ReportWindow,
  now: Date,
): Promise<ReconciliationReport> {
  const queries = reportQueries(window);
  const progress = sources.progress ?? (() => undefined);
  let read = 0;
  const tick = () => {
    if (++read % SERVICE_PAGE_SIZE === 0) progress(read);
  };
  const builder = createPartitionedReportBuilder(window, now, {
    store,
    ...(sources.onRow ? { onRow: sources.onRow } : {}),
    // the join's own work between pages: the event loop runs (a heartbeat, the CSV written) and progress is told
    pause: async () => {
      progress(read);
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  });
  const list = (query: string) => sources.client.workflow.list({ query, pageSize: VISIBILITY_PAGE_SIZE });
  for await (const wf of list(queries.payments)) {
    const record = workflowRecordOf(wf);
    if (record) builder.addWorkflow(record);
    tick();
  }
  for await (const wf of list(queries.entities)) {
    const id = wf.typedSearchAttributes.get(ProviderPaymentIdKey);
    if (id)
      builder.addEntity({
        providerPaymentId: id,
        status: wf.typedSearchAttributes.get(PaymentStatusKey) ?? null,
      });
    tick();
  }
  for await (const wf of list(queries.undelivered)) {
    // payment-events:<key>; a transfer's own delivery workflow (transfer-events:<key>) names no payment
    const match = /^payment-events:(.+)$/.exec(wf.workflowId);
    if (match) builder.addUndelivered(match[1]!);
    tick();
  }
  for await (const p of sources.listPayments({ limit: SERVICE_PAGE_SIZE })) {
    builder.addService(serviceRecordOf(p));
    tick();
  }
  return builder.finish();
}
