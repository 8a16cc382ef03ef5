// The reconciliation report's join, partitioned so its memory does not grow with the window
// (docs/performance.md, "Reconciliation report"). Neither side comes sorted: the service's list order is not shown
// by the spec (spec: GET /payments, cursor paging only) and Temporal's SQL visibility has no ORDER BY, so no sorted
// merge can be assumed. Instead both sides go, as they are read, into PARTITIONS files by a hash of the join key
// (the provider payment id); then each partition, a small share of the window, is joined in memory as the
// in-memory join (compare.ts) would join it, and its decided payments are written out sorted by the position the
// in-memory join would have decided them at; a merge of those sorted runs hands every payment to the tally in
// exactly that order. So payments.csv, report.json and report.html are the same, byte for byte, as the in-memory
// join's (test/unit/report/partitioned-join.test.ts), and what stays in memory is one partition, one line per run
// and the tally (counts, totals, days, and the mismatches and money in flight themselves).
// Pure: the files are a `SpillStore` (activities/report-spill.ts keeps them in memory while small, then on disk).
import { createReportTally, windowTest, type ReportBuilderOptions } from './compare';
import { joinKeyFilter, partitionOf } from './join-key';
import type {
  EntityRecord,
  ReconciliationReport,
  ReportWindow,
  ServiceRecord,
  WorkflowRecord,
} from './types';

/** Named files of lines: appended to, then read once in order. */
export interface SpillStore {
  append(file: string, line: string): void;
  /** the file's lines in the order appended (none when nothing was) */
  lines(file: string): Iterable<string>;
  /** the file is read: its room can go */
  drop(file: string): void;
}

/**
 * 128 partitions: a partition holds about 1/128 of the window's workflows, entities and service payments (at
 * 200,000 payments about 1,600 of each); the merge holds one line per partition.
 */
export const DEFAULT_PARTITIONS = 128;

export interface PartitionedJoinOptions extends ReportBuilderOptions {
  store: SpillStore;
  partitions?: number;
  /** awaited every PAUSE_EVERY payments decided and after each partition (the reader yields and heartbeats) */
  pause?: () => Promise<void>;
}

export interface PartitionedReportBuilder {
  addWorkflow(record: WorkflowRecord): void;
  addEntity(record: EntityRecord): void;
  addUndelivered(paymentKey: string): void;
  /** the service's list: after every workflow and entity (as the reader reads them) */
  addService(record: ServiceRecord): void;
  finish(): Promise<ReconciliationReport>;
}

const PAUSE_EVERY = 1_000;

/** A record fed after the service's list began: a caller's bug (the partitions are joined on what came first). */
export class ReportJoinOrderError extends Error {
  override readonly name = 'ReportJoinOrderError';
  readonly type = 'REPORT_JOIN_ORDER';
  readonly retryable = false;
}

/** Where the in-memory join decides a payment: 0 as the service's list reaches it, 1 a workflow left at the end. */
type Phase = 0 | 1;
/** One decided payment in a partition's run: its place (phase, then index in that phase's order) and its records. */
type Decided = [Phase, number, WorkflowRecord | null, ServiceRecord | null, boolean];

type InputLine = ['w', number, WorkflowRecord] | ['e', string] | ['s', number, ServiceRecord];

const inputFile = (p: number) => `in-${p}`;
const runFile = (p: number) => `run-${p}`;
const WITHOUT_PROVIDER_ID = 'no-provider-id';

export function createPartitionedReportBuilder(
  window: ReportWindow,
  now: Date,
  options: PartitionedJoinOptions,
): PartitionedReportBuilder {
  const { store } = options;
  const partitions = options.partitions ?? DEFAULT_PARTITIONS;
  const pause = options.pause ?? (() => Promise.resolve());
  const inWindow = windowTest(window);
  // the delivery flags are kept: one key per payment whose events failed a whole retry window (a mismatch each)
  const undelivered = new Set<string>();
  const keys = joinKeyFilter();
  let workflows = 0;
  let services = 0;

  const put = (key: string, line: InputLine) =>
    store.append(inputFile(partitionOf(key, partitions)), JSON.stringify(line));

  return {
    addWorkflow(record) {
      if (services > 0)
        throw new ReportJoinOrderError('report join: a workflow record after the service list');
      const index = workflows++;
      if (record.providerPaymentId) {
        keys.add(record.providerPaymentId);
        put(record.providerPaymentId, ['w', index, record]);
      } else if (inWindow(record.startTime)) {
        // no provider payment (refused before creation, or still quoting): decided last, in visibility order
        store.append(WITHOUT_PROVIDER_ID, JSON.stringify(record));
      }
    },
    addEntity(record) {
      if (services > 0)
        throw new ReportJoinOrderError('report join: an entity record after the service list');
      put(record.providerPaymentId, ['e', record.providerPaymentId]);
    },
    addUndelivered(paymentKey) {
      undelivered.add(paymentKey);
    },
    addService(record) {
      const index = services++;
      // outside the window and followed by no workflow: the in-memory join passes it by, so it is not kept; the
      // filter may answer "maybe" for a key no workflow has (then the partition's join passes it by)
      if (!inWindow(record.createdAt) && !keys.mayHave(record.id)) return;
      put(record.id, ['s', index, record]);
    },
    async finish() {
      for (let p = 0; p < partitions; p++) {
        const run = joinPartition(store.lines(inputFile(p)), inWindow);
        store.drop(inputFile(p));
        for (const line of run) store.append(runFile(p), line);
        await pause();
      }
      const tally = createReportTally(window, now, undelivered, options);
      let emitted = 0;
      for (const [, , w, s, entityOnly] of mergeRuns(partitions, store)) {
        tally.emit(w, s, entityOnly);
        if (++emitted % PAUSE_EVERY === 0) await pause();
      }
      for (let p = 0; p < partitions; p++) store.drop(runFile(p));
      for (const line of store.lines(WITHOUT_PROVIDER_ID)) {
        tally.emit(JSON.parse(line) as WorkflowRecord, null, false);
        if (++emitted % PAUSE_EVERY === 0) await pause();
      }
      store.drop(WITHOUT_PROVIDER_ID);
      return tally.report();
    },
  };
}

/**
 * One partition joined as compare.ts's in-memory join joins it (the same steps, on this partition's keys only),
 * each decided payment (a run's line, `Decided`) with its place in the in-memory join's order. Already sorted by
 * that place: phase 0 in the service list's order, then phase 1 in the order of each id's first workflow (a Map
 * iterates in insertion order).
 */
function joinPartition(lines: Iterable<string>, inWindow: (iso: string | null) => boolean): string[] {
  // a provider payment id listed twice keeps its first place and its last record (a Map's set)
  const byProviderId = new Map<string, { first: number; w: WorkflowRecord; text: string }>();
  const entities = new Set<string>();
  const seenAtService = new Set<string>();
  const serviceLines: [number, ServiceRecord, string][] = [];
  for (const text of lines) {
    const line = JSON.parse(text) as InputLine;
    if (line[0] === 'e') {
      entities.add(line[1]);
      continue;
    }
    // the record's own JSON, as it came (`["w",<index>,<record>]`): written into the run again without a stringify
    const recordText = text.slice(text.indexOf(',', 5) + 1, -1);
    if (line[0] === 'w') {
      const id = line[2].providerPaymentId!;
      const known = byProviderId.get(id);
      if (known) {
        known.w = line[2];
        known.text = recordText;
      } else byProviderId.set(id, { first: line[1], w: line[2], text: recordText });
    } else serviceLines.push([line[1], line[2], recordText]);
  }
  const decided: string[] = [];
  const decide = (phase: Phase, place: number, w: string | null, s: string | null, entityOnly: boolean) =>
    decided.push(`[${phase},${place},${w ?? 'null'},${s ?? 'null'},${entityOnly}]`);
  for (const [index, s, sText] of serviceLines) {
    const known = byProviderId.get(s.id);
    if (known) {
      byProviderId.delete(s.id);
      seenAtService.add(s.id);
      if (inWindow(s.createdAt ?? known.w.startTime)) decide(0, index, known.text, sText, false);
      continue;
    }
    if (!inWindow(s.createdAt)) continue;
    if (seenAtService.has(s.id)) continue;
    seenAtService.add(s.id);
    decide(0, index, null, sText, entities.has(s.id));
  }
  for (const { first, w, text } of byProviderId.values())
    if (inWindow(w.startTime)) decide(1, first, text, null, false);
  return decided;
}

const byPlace = (a: Decided, b: Decided) => a[0] - b[0] || a[1] - b[1];

/** The partitions' sorted runs merged into one order (a binary heap of each run's next line). */
function* mergeRuns(partitions: number, store: SpillStore): Generator<Decided> {
  const heads: { next: Decided; rest: Iterator<string> }[] = [];
  const less = (i: number, j: number) => byPlace(heads[i]!.next, heads[j]!.next) < 0;
  const swap = (i: number, j: number) => ([heads[i], heads[j]] = [heads[j]!, heads[i]!]);
  const down = (from: number) => {
    for (let i = from; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heads.length && less(l, m)) m = l;
      if (r < heads.length && less(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let p = 0; p < partitions; p++) {
    const rest = store.lines(runFile(p))[Symbol.iterator]();
    const first = rest.next();
    if (!first.done) heads.push({ next: JSON.parse(first.value) as Decided, rest });
  }
  for (let i = Math.floor(heads.length / 2) - 1; i >= 0; i--) down(i);
  while (heads.length > 0) {
    const head = heads[0]!;
    yield head.next;
    const following = head.rest.next();
    if (following.done) {
      heads[0] = heads[heads.length - 1]!;
      heads.pop();
    } else head.next = JSON.parse(following.value) as Decided;
    down(0);
  }
}
