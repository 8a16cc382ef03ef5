// The reconciliation report's records and result (docs/reconciliation-report.md). Three records per payment: the
// service's (its list, read with our key), the workflow's (visibility: outcome, phase, the amounts asked for in its
// memo) and what the backend was told (the delivery workflow's flag in visibility). Pure types: no I/O.

/** [from, to): ISO 8601 instants. A payment is in the window when it was created (service) or started (workflow) in it. */
export interface ReportWindow {
  from: string;
  to: string;
}

export interface Money {
  /** the amount as the record carried it (a JSON number's shortest text, or a decimal string) */
  amount: string;
  currencyCode: string;
}

/** One payment from the service's list (GET /payments, page by page). */
export interface ServiceRecord {
  id: string;
  type: string;
  status: string;
  createdAt: string | null;
  source: Money;
  destination: Money;
  /** total fee, in the source currency (spec: Payment, fee) */
  fee: string;
}

/** One payment workflow, as visibility lists it (search attributes and memo: no query per payment). */
export interface WorkflowRecord {
  workflowId: string;
  paymentKey: string;
  running: boolean;
  /** PaymentPhase: the outcome once the workflow closed */
  phase: string | null;
  /** PaymentStatus: the provider status at the workflow's last phase change */
  providerStatus: string | null;
  providerPaymentId: string | null;
  startTime: string;
  closeTime: string | null;
  /** what startPayment asked for (memo `amounts`); null: a payment started without it (a transfer's, an older one) */
  amounts: RequestedAmounts | null;
}

export interface RequestedAmounts {
  source: Money | null;
  destination: Money | null;
}

/** A providerPayment entity (follows a PAYIN or conversion nobody here started, and every ordered payment). */
export interface EntityRecord {
  providerPaymentId: string;
  status: string | null;
}

export const MISMATCH_KINDS = [
  'MOVED_AFTER_OUTCOME',
  'OUTCOME_DIFFERS',
  'AMOUNT_DIFFERS',
  'UNKNOWN_TO_WORKFLOWS',
  'MISSING_AT_SERVICE',
  'EVENTS_NOT_DELIVERED',
] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

export type RowState = 'MATCHED' | 'MISMATCHED' | 'IN_FLIGHT' | 'OPEN';

/** One line of the report: one payment, its records side by side. */
export interface ReportRow {
  day: string;
  paymentKey: string | null;
  providerPaymentId: string | null;
  state: RowState;
  kinds: MismatchKind[];
  workflowPhase: string | null;
  workflowRunning: boolean | null;
  serviceStatus: string | null;
  serviceType: string | null;
  serviceSource: Money | null;
  serviceDestination: Money | null;
  serviceFee: string | null;
  workflowSource: Money | null;
  workflowDestination: Money | null;
  /** in flight: since the payment was created (or its workflow started), in ms */
  ageMs: number | null;
  /** its delivery workflow is flagged EVENTS_UNDELIVERED (an event failed a whole retry window) */
  eventsNotDelivered: boolean;
}

export interface Mismatch {
  kind: MismatchKind;
  paymentKey: string | null;
  providerPaymentId: string | null;
  service: string;
  workflow: string;
  action: string;
}

export interface CurrencyTotals {
  currencyCode: string;
  serviceSource: string;
  workflowSource: string;
  sourceDifference: string;
  serviceDestination: string;
  workflowDestination: string;
  destinationDifference: string;
  /** fees the service charged, in this (source) currency; the workflow record holds no fee to compare */
  serviceFees: string;
  /** payments whose workflow record holds no amount for this currency's side (not in the sums) */
  notCompared: number;
}

export interface DayFigures {
  day: string;
  payments: number;
  mismatched: number;
}

export interface ReconciliationReport {
  window: ReportWindow;
  generatedAt: string;
  allMatch: boolean;
  counts: { payments: number; matched: number; mismatched: number; inFlight: number; open: number };
  mismatches: Mismatch[];
  inFlight: {
    paymentKey: string | null;
    providerPaymentId: string | null;
    status: string;
    ageMs: number;
    source: Money | null;
  }[];
  totals: CurrencyTotals[];
  byDay: DayFigures[];
  /** every payment's line; empty when they were streamed to a writer instead (payments.csv) */
  rows: ReportRow[];
}
