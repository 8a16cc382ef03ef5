// The comparison of the reconciliation report: pure, fed record by record (docs/reconciliation-report.md).
// Workflow records and the delivery flags come first (visibility, page by page); then the service's list streams
// through `addService`, each payment joined at once with its workflow; `finish` names what is left. This in-memory
// join holds one compact record per payment of the window; the reader runs the partitioned join instead
// (partitioned-join.ts), whose memory does not grow with the window and whose output is the same, byte for byte.
import { exactOf, formatExact, ZERO, type Exact } from './decimal';
import type {
  CurrencyTotals,
  DayFigures,
  EntityRecord,
  Mismatch,
  MismatchKind,
  Money,
  ReconciliationReport,
  ReportRow,
  ReportWindow,
  ServiceRecord,
  WorkflowRecord,
} from './types';

/** spec: States and transitions — the statuses after which a payment no longer moves (unless money is returned). */
const FINAL_SERVICE = new Set(['COMPLETED', 'FAILED', 'REFUNDED', 'EXPIRED', 'CANCELLED']);
/** Funded and not final: money in flight (spec: States and transitions, rows 2–3). */
const FUNDED_SERVICE = new Set(['PENDING', 'PROCESSING', 'SENT']);
/** A workflow outcome and the service status that bears it out (a cancelled payment ends EXPIRED at the service). */
const SAME_OUTCOME: Record<string, readonly string[]> = {
  COMPLETED: ['COMPLETED'],
  FAILED: ['FAILED'],
  EXPIRED: ['EXPIRED'],
  REFUNDED: ['REFUNDED'],
  CANCELLED: ['CANCELLED', 'EXPIRED'],
};

/** What to do about each kind: one sentence a finance or operations person acts on. */
export const ACTIONS: Record<MismatchKind, string> = {
  MOVED_AFTER_OUTCOME:
    'Money moved after the outcome (a return or refund after COMPLETED/EXPIRED): the backend was told the first outcome; book the return, tell the customer, check the refund reached the source (`xborder status <key>`).',
  OUTCOME_DIFFERS:
    "The workflow's outcome and the service's status differ: read the payment at the service (`xborder status <key>`) and correct the books to the service's word.",
  AMOUNT_DIFFERS:
    'The service holds another amount or currency than the one asked for: stop booking this payment and raise it with the provider, with both amounts.',
  UNKNOWN_TO_WORKFLOWS:
    'A payment at the service that no workflow follows: find who created it with our key (another system sharing the key, or a create whose answer was lost: `xborder stuck` lists NEEDS_ATTENTION); book it by hand or let it expire unfunded.',
  MISSING_AT_SERVICE:
    "The workflow follows a provider payment the service's list does not hold: read it by id; if the service has no such payment, raise it with the provider.",
  EVENTS_NOT_DELIVERED:
    'The backend was not told: fix the receiver or the endpoint, then `xborder events redeliver <paymentKey>`.',
};

interface Sums {
  serviceSource: Exact;
  workflowSource: Exact;
  serviceDestination: Exact;
  workflowDestination: Exact;
  serviceFees: Exact;
  notCompared: number;
}

export interface ReportBuilder {
  addWorkflow(record: WorkflowRecord): void;
  addEntity(record: EntityRecord): void;
  /** a payment whose delivery workflow is flagged EVENTS_UNDELIVERED */
  addUndelivered(paymentKey: string): void;
  addService(record: ServiceRecord): void;
  finish(): ReconciliationReport;
}

export interface ReportBuilderOptions {
  /**
   * Each payment's line as soon as it is decided (a writer streams payments.csv): the report then keeps no line,
   * only counts, mismatches, money in flight, totals and days, so its memory does not grow with matched payments.
   * Absent: every line is kept in `rows`.
   */
  onRow?: (row: ReportRow) => void;
}

/** [from, to) of the window as a test on an ISO instant (null: not in it). */
export function windowTest(window: ReportWindow): (iso: string | null) => boolean {
  const fromMs = Date.parse(window.from);
  const toMs = Date.parse(window.to);
  return (iso) => iso !== null && Date.parse(iso) >= fromMs && Date.parse(iso) < toMs;
}

/**
 * The part of the report both joins share: each decided payment (its workflow record, its service record, either
 * missing) made into its line and counted, in the order `emit` is called; `report` assembles the result. The order
 * of `emit` calls is the order of payments.csv, of the mismatches and of money in flight.
 */
export interface ReportTally {
  emit(w: WorkflowRecord | null, s: ServiceRecord | null, entityOnly: boolean): void;
  report(): ReconciliationReport;
}

export function createReportTally(
  window: ReportWindow,
  now: Date,
  undelivered: ReadonlySet<string>,
  options: ReportBuilderOptions = {},
): ReportTally {
  const tally = new Tally(options);
  return {
    emit(w, s, entityOnly) {
      const eventsNotDelivered = Boolean(w && undelivered.has(w.paymentKey));
      const kinds = mismatchKinds(w, s, entityOnly, eventsNotDelivered);
      tally.add(rowOf(w, s, kinds, eventsNotDelivered, window.from, now), w, s, entityOnly);
    },
    report() {
      return {
        window,
        generatedAt: now.toISOString(),
        allMatch: tally.mismatches.length === 0,
        counts: tally.counts,
        mismatches: tally.mismatches,
        inFlight: tally.inFlight,
        totals: tally.totals(),
        byDay: tally.byDay(),
        rows: tally.rows,
      };
    },
  };
}

/**
 * The join in memory: every workflow record of the window held until the service's list has been read. The
 * reference the partitioned join (partitioned-join.ts, what the reader runs) is checked against, record for record
 * (test/unit/report/partitioned-join.test.ts), and what the renderers' tests build reports with.
 */
export function createReportBuilder(
  window: ReportWindow,
  now: Date,
  options: ReportBuilderOptions = {},
): ReportBuilder {
  const inWindow = windowTest(window);
  const byProviderId = new Map<string, WorkflowRecord>();
  const withoutProviderId: WorkflowRecord[] = [];
  const entityStatus = new Map<string, string | null>();
  const undelivered = new Set<string>();
  const seenAtService = new Set<string>();
  const tally = createReportTally(window, now, undelivered, options);
  const emit = tally.emit;

  return {
    addWorkflow(record) {
      if (record.providerPaymentId) byProviderId.set(record.providerPaymentId, record);
      else withoutProviderId.push(record);
    },
    addEntity(record) {
      entityStatus.set(record.providerPaymentId, record.status);
    },
    addUndelivered(paymentKey) {
      undelivered.add(paymentKey);
    },
    addService(record) {
      const workflow = byProviderId.get(record.id) ?? null;
      if (workflow) {
        byProviderId.delete(record.id);
        seenAtService.add(record.id);
        // the service's createdAt decides the window (a workflow run may start later: continue-as-new)
        if (inWindow(record.createdAt ?? workflow.startTime)) emit(workflow, record, false);
        return;
      }
      // only the window's ids are remembered: the list runs over the service's whole history
      if (!inWindow(record.createdAt)) return;
      if (seenAtService.has(record.id)) return; // a page boundary that moved: listed once
      seenAtService.add(record.id);
      emit(null, record, entityStatus.has(record.id));
    },
    finish() {
      for (const w of byProviderId.values()) if (inWindow(w.startTime)) emit(w, null, false);
      // no provider payment (refused before creation, or still quoting): nothing at the service to compare
      for (const w of withoutProviderId) if (inWindow(w.startTime)) emit(w, null, false);
      byProviderId.clear();
      return tally.report();
    },
  };
}

/** What is wrong with one payment, from its workflow record and its service record (either may be missing). */
function mismatchKinds(
  w: WorkflowRecord | null,
  s: ServiceRecord | null,
  entityOnly: boolean,
  eventsNotDelivered: boolean,
): MismatchKind[] {
  const kinds: MismatchKind[] = [];
  const outcome = w && !w.running ? w.phase : null;
  if (w && s) {
    if (
      outcome &&
      (outcome === 'COMPLETED' || outcome === 'EXPIRED') &&
      (s.status === 'REFUNDED' || s.status === 'FAILED')
    )
      kinds.push('MOVED_AFTER_OUTCOME');
    else if (outcome && SAME_OUTCOME[outcome] && !SAME_OUTCOME[outcome]!.includes(s.status))
      kinds.push('OUTCOME_DIFFERS');
    if (w.amounts && (differs(w.amounts.source, s.source) || differs(w.amounts.destination, s.destination)))
      kinds.push('AMOUNT_DIFFERS');
  }
  if (!w && s && !entityOnly) kinds.push('UNKNOWN_TO_WORKFLOWS');
  if (w && !s && w.providerPaymentId) kinds.push('MISSING_AT_SERVICE');
  if (eventsNotDelivered) kinds.push('EVENTS_NOT_DELIVERED');
  return kinds;
}

/** One payment's line: its state (mismatched, matched, in flight or open) and both records' figures. */
function rowOf(
  w: WorkflowRecord | null,
  s: ServiceRecord | null,
  kinds: MismatchKind[],
  eventsNotDelivered: boolean,
  windowFrom: string,
  now: Date,
): ReportRow {
  const outcome = w && !w.running ? w.phase : null;
  const createdAt = s?.createdAt ?? w?.startTime ?? null;
  const final = s ? FINAL_SERVICE.has(s.status) : Boolean(outcome);
  const funded = (s && FUNDED_SERVICE.has(s.status)) || (w?.running && w.phase === 'IN_PROGRESS');
  const ageMs = createdAt ? Math.max(0, now.getTime() - Date.parse(createdAt)) : null;
  const state =
    kinds.length > 0
      ? 'MISMATCHED'
      : final
        ? 'MATCHED'
        : funded
          ? 'IN_FLIGHT'
          : w && !w.running
            ? 'MATCHED'
            : 'OPEN';
  return {
    day: (createdAt ?? windowFrom).slice(0, 10),
    paymentKey: w?.paymentKey ?? null,
    providerPaymentId: s?.id ?? w?.providerPaymentId ?? null,
    state,
    kinds,
    workflowPhase: w?.phase ?? null,
    workflowRunning: w ? w.running : null,
    serviceStatus: s?.status ?? null,
    serviceType: s?.type ?? null,
    serviceSource: s?.source ?? null,
    serviceDestination: s?.destination ?? null,
    serviceFee: s?.fee ?? null,
    workflowSource: w?.amounts?.source ?? null,
    workflowDestination: w?.amounts?.destination ?? null,
    ageMs: state === 'IN_FLIGHT' ? ageMs : null,
    eventsNotDelivered,
  };
}

/**
 * What the report keeps of the payments decided so far: their lines (unless streamed to onRow), counts, money in
 * flight, mismatches, the totals per currency and the figures per day.
 */
class Tally {
  readonly rows: ReportRow[] = [];
  readonly inFlight: ReconciliationReport['inFlight'] = [];
  readonly counts = { payments: 0, matched: 0, mismatched: 0, inFlight: 0, open: 0 };
  readonly mismatches: Mismatch[] = [];
  private readonly sums = new Map<string, Sums>();
  private readonly days = new Map<string, DayFigures>();

  constructor(private readonly options: ReportBuilderOptions) {}

  add(row: ReportRow, w: WorkflowRecord | null, s: ServiceRecord | null, entityOnly: boolean): void {
    if (this.options.onRow) this.options.onRow(row);
    else this.rows.push(row);
    this.count(row);
    this.addAmounts(w, s, entityOnly);
    const day = this.days.get(row.day) ?? { day: row.day, payments: 0, mismatched: 0 };
    day.payments++;
    if (row.kinds.length > 0) day.mismatched++;
    this.days.set(row.day, day);
    for (const kind of row.kinds)
      this.mismatches.push({
        kind,
        paymentKey: row.paymentKey,
        providerPaymentId: row.providerPaymentId,
        service: describeService(s),
        workflow: describeWorkflow(w, row.eventsNotDelivered),
        action: ACTIONS[kind],
      });
  }

  totals(): CurrencyTotals[] {
    return [...this.sums.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currencyCode, s]) => ({
        currencyCode,
        serviceSource: formatExact(s.serviceSource),
        workflowSource: formatExact(s.workflowSource),
        sourceDifference: formatExact(s.serviceSource - s.workflowSource),
        serviceDestination: formatExact(s.serviceDestination),
        workflowDestination: formatExact(s.workflowDestination),
        destinationDifference: formatExact(s.serviceDestination - s.workflowDestination),
        serviceFees: formatExact(s.serviceFees),
        notCompared: s.notCompared,
      }));
  }

  byDay(): DayFigures[] {
    return [...this.days.values()].sort((a, b) => a.day.localeCompare(b.day));
  }

  private count(row: ReportRow): void {
    const { state } = row;
    this.counts.payments++;
    if (state === 'MATCHED') this.counts.matched++;
    else if (state === 'MISMATCHED') this.counts.mismatched++;
    else if (state === 'IN_FLIGHT') this.counts.inFlight++;
    else this.counts.open++;
    if (state === 'IN_FLIGHT') {
      this.inFlight.push({
        paymentKey: row.paymentKey,
        providerPaymentId: row.providerPaymentId,
        status: row.serviceStatus ?? row.workflowPhase ?? '',
        ageMs: row.ageMs ?? 0,
        source: row.serviceSource ?? row.workflowSource,
      });
    }
  }

  /** Both sides' amounts and the service's fee into the totals of their currencies. */
  private addAmounts(w: WorkflowRecord | null, s: ServiceRecord | null, entityOnly: boolean): void {
    const amounts = w ? w.amounts : s ? ({ source: null, destination: null } as const) : null;
    this.addSide(
      'Source',
      s?.source ?? null,
      entityOnly ? undefined : w && !amounts?.source ? undefined : (amounts?.source ?? null),
    );
    this.addSide(
      'Destination',
      s?.destination ?? null,
      entityOnly ? undefined : w && !amounts?.destination ? undefined : (amounts?.destination ?? null),
    );
    if (s) this.sumsOf(s.source.currencyCode).serviceFees += exactOf(s.fee);
  }

  /** Adds one side's amounts. `workflow` undefined: the workflow record holds none, the side is not compared. */
  private addSide(
    side: 'Source' | 'Destination',
    service: Money | null,
    workflow: Money | null | undefined,
  ): void {
    if (workflow === undefined) {
      if (service) this.sumsOf(service.currencyCode).notCompared++;
      return;
    }
    if (service) this.sumsOf(service.currencyCode)[`service${side}`] += exactOf(service.amount);
    if (workflow) this.sumsOf(workflow.currencyCode)[`workflow${side}`] += exactOf(workflow.amount);
  }

  private sumsOf(currency: string): Sums {
    let s = this.sums.get(currency);
    if (!s) {
      s = {
        serviceSource: ZERO,
        workflowSource: ZERO,
        serviceDestination: ZERO,
        workflowDestination: ZERO,
        serviceFees: ZERO,
        notCompared: 0,
      };
      this.sums.set(currency, s);
    }
    return s;
  }
}

/** A side the workflow asked for differs from the service's (an amount not asked for is not compared). */
function differs(asked: Money | null, service: Money): boolean {
  if (!asked) return false;
  return asked.currencyCode !== service.currencyCode || exactOf(asked.amount) !== exactOf(service.amount);
}

function describeService(s: ServiceRecord | null): string {
  if (!s) return 'not in the service list';
  return `${s.status}: ${s.source.amount} ${s.source.currencyCode} → ${s.destination.amount} ${s.destination.currencyCode}, fee ${s.fee}`;
}

function describeWorkflow(w: WorkflowRecord | null, eventsNotDelivered: boolean): string {
  if (!w) return 'no workflow';
  const asked = w.amounts?.source
    ? `${w.amounts.source.amount} ${w.amounts.source.currencyCode}`
    : w.amounts?.destination
      ? `→ ${w.amounts.destination.amount} ${w.amounts.destination.currencyCode}`
      : 'amount not recorded';
  return `${w.running ? 'running' : 'closed'} ${w.phase ?? '?'}, asked ${asked}${eventsNotDelivered ? ', events not delivered' : ''}`;
}
