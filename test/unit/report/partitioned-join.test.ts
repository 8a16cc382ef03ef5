// The partitioned join (what the reader runs) against the in-memory join (compare.ts, the reference): the same
// input gives the same files, byte for byte, over thousands of seeded random inputs with duplicates on both sides,
// missing sides, payments outside the window and every kind of mismatch; in memory and spilled to disk.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { createReportSpillStore } from '../../../activities/report-spill';
import { createReportBuilder } from '../../../src/report/compare';
import { paymentsCsv, PAYMENTS_CSV_HEADER, paymentCsvLine } from '../../../src/report/csv';
import { reportFiles, summaryFiles } from '../../../src/report/files';
import { createPartitionedReportBuilder, type SpillStore } from '../../../src/report/partitioned-join';
import { summaryText } from '../../../src/report/text';
import {
  MISMATCH_KINDS,
  type EntityRecord,
  type Money,
  type ReconciliationReport,
  type ReportRow,
  type ServiceRecord,
  type WorkflowRecord,
} from '../../../src/report/types';

const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
const now = new Date('2026-11-21T06:00:00.000Z');

/** mulberry32: a small seeded generator, so a failing case is found again from its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

interface Input {
  workflows: WorkflowRecord[];
  entities: EntityRecord[];
  undelivered: string[];
  services: ServiceRecord[];
}

const DAY = 86_400_000;
const FROM = Date.parse(window.from);

function randomInput(seed: number): Input {
  const r = random(seed);
  const size = 1 + r.int(40);
  const ids = Math.max(1, Math.floor(size * (0.5 + r.next())));
  // in the window mostly; before it, after it, on its edges
  const instant = () =>
    new Date(
      r.pick([
        FROM + r.int(DAY),
        FROM + r.int(DAY),
        FROM + r.int(DAY),
        FROM - 1 - r.int(DAY),
        FROM + DAY + r.int(DAY),
        FROM,
        FROM + DAY,
      ]),
    ).toISOString();
  const money = (): Money => ({
    amount: r.pick(['100', '100.0', '99.99', '0.1', '512.3', '7']),
    currencyCode: r.pick(['USDC', 'USDC', 'USD', 'BRL']),
  });
  const pid = () => `pay_${r.int(ids)}`;
  const key = () => `k${r.int(ids)}`;
  const workflows = Array.from({ length: r.int(size + 1) }, (): WorkflowRecord => {
    const running = r.next() < 0.3;
    const paymentKey = key();
    return {
      workflowId: `payment:${paymentKey}`,
      paymentKey,
      running,
      phase: r.pick([
        'COMPLETED',
        'COMPLETED',
        'FAILED',
        'EXPIRED',
        'REFUNDED',
        'CANCELLED',
        'IN_PROGRESS',
        'AWAITING_FUNDS',
        null,
      ]),
      providerStatus: r.pick(['COMPLETED', 'PROCESSING', null]),
      providerPaymentId: r.next() < 0.12 ? r.pick([null, '']) : pid(),
      startTime: instant(),
      closeTime: running ? null : instant(),
      amounts: r.pick([
        null,
        { source: money(), destination: null },
        { source: null, destination: money() },
        { source: money(), destination: money() },
      ]),
    };
  });
  const entities = Array.from({ length: r.int(size / 2 + 1) }, () => ({
    providerPaymentId: pid(),
    status: r.pick(['COMPLETED', null]),
  }));
  const undelivered = Array.from({ length: r.int(4) }, key);
  const services = Array.from(
    { length: r.int(size + 1) },
    (): ServiceRecord => ({
      id: pid(),
      type: r.pick(['PAYOUT', 'PAYOUT', 'PAYIN']),
      status: r.pick([
        'COMPLETED',
        'COMPLETED',
        'FAILED',
        'REFUNDED',
        'EXPIRED',
        'CANCELLED',
        'PENDING',
        'PROCESSING',
        'SENT',
        'AWAITING_FUNDS',
      ]),
      createdAt: r.next() < 0.1 ? null : instant(),
      source: money(),
      destination: money(),
      fee: r.pick(['1.1', '0', '0.07']),
    }),
  );
  return { workflows, entities, undelivered, services };
}

/** The reader's order: workflows, entities, delivery flags, then the service's list. */
function feed(
  b: {
    addWorkflow(w: WorkflowRecord): void;
    addEntity(e: EntityRecord): void;
    addUndelivered(k: string): void;
    addService(s: ServiceRecord): void;
  },
  input: Input,
): void {
  for (const w of input.workflows) b.addWorkflow(w);
  for (const e of input.entities) b.addEntity(e);
  for (const k of input.undelivered) b.addUndelivered(k);
  for (const s of input.services) b.addService(s);
}

/** Every file as written (payments.csv streamed line by line), and the terminal's summary. */
function written(report: ReconciliationReport, lines: string[]): Record<string, string> {
  return {
    'payments.csv': PAYMENTS_CSV_HEADER + lines.join(''),
    ...summaryFiles(report),
    summary: summaryText(report),
  };
}

function inMemory(input: Input): Record<string, string> {
  const lines: string[] = [];
  const b = createReportBuilder(window, now, { onRow: (row) => lines.push(paymentCsvLine(row)) });
  feed(b, input);
  return written(b.finish(), lines);
}

/** A SpillStore of arrays (the partitioned join's logic alone, no file). */
function arrayStore(): SpillStore & { files: Map<string, string[]> } {
  const files = new Map<string, string[]>();
  return {
    files,
    append: (f, line) => void (files.get(f) ?? files.set(f, []).get(f)!).push(line),
    lines: (f) => files.get(f) ?? [],
    drop: (f) => void files.delete(f),
  };
}

async function partitioned(input: Input, store: SpillStore, partitions: number) {
  const lines: string[] = [];
  const b = createPartitionedReportBuilder(window, now, {
    store,
    partitions,
    onRow: (row: ReportRow) => lines.push(paymentCsvLine(row)),
  });
  feed(b, input);
  const report = await b.finish();
  return { files: written(report, lines), report };
}

it("gives the in-memory join's files byte for byte over 3,000 seeded inputs, every mismatch kind among them", async () => {
  const kinds = new Set<string>();
  let duplicatesAtService = 0;
  let withoutWorkflow = 0;
  for (let seed = 1; seed <= 3_000; seed++) {
    const input = randomInput(seed);
    const store = arrayStore();
    const { files, report } = await partitioned(input, store, 1 + (seed % 9));
    const expected = inMemory(input);
    if (JSON.stringify(files) !== JSON.stringify(expected)) {
      // the seed names the case; the first file that differs shows how
      for (const name of Object.keys(expected))
        expect([seed, name, files[name]]).toEqual([seed, name, expected[name]]);
    }
    expect(store.files.size).toBe(0); // every partition and run read and dropped
    for (const m of report.mismatches) kinds.add(m.kind);
    const ids = input.services.map((s) => s.id);
    if (new Set(ids).size < ids.length) duplicatesAtService++;
    if (report.mismatches.some((m) => m.kind === 'UNKNOWN_TO_WORKFLOWS')) withoutWorkflow++;
  }
  expect([...kinds].sort()).toEqual([...MISMATCH_KINDS].sort());
  expect(duplicatesAtService).toBeGreaterThan(1_000);
  expect(withoutWorkflow).toBeGreaterThan(500);
});

it('keeps the rows of a report without a writer in the same order (reportFiles)', async () => {
  for (let seed = 5_001; seed <= 5_300; seed++) {
    const input = randomInput(seed);
    const reference = createReportBuilder(window, now);
    feed(reference, input);
    const b = createPartitionedReportBuilder(window, now, { store: arrayStore(), partitions: 4 });
    feed(b, input);
    const report = await b.finish();
    expect(reportFiles(report)).toEqual(reportFiles(reference.finish()));
    expect(paymentsCsv(report).split('\r\n')).toHaveLength(report.counts.payments + 2);
  }
});

it('gives the same files spilled to disk at any point (report-spill.ts), and leaves no directory behind', async () => {
  for (let seed = 7_001; seed <= 7_200; seed++) {
    const input = randomInput(seed);
    const store = createReportSpillStore({ spillAfterLines: seed % 30, tmpRoot: os.tmpdir() });
    try {
      const { files } = await partitioned(input, store, 1 + (seed % 7));
      expect(files).toEqual(inMemory(input));
      if (store.dir) expect(existsSync(store.dir)).toBe(true);
    } finally {
      const dir = store.dir;
      store.dispose();
      if (dir) expect(existsSync(dir)).toBe(false);
    }
  }
});

it('refuses a workflow record after the service list (the partitions are joined on what came before)', () => {
  const b = createPartitionedReportBuilder(window, now, { store: arrayStore() });
  b.addService(randomInput(1).services[0] ?? randomInput(2).services[0]!);
  expect(() => b.addWorkflow(randomInput(3).workflows[0] ?? randomInput(4).workflows[0]!)).toThrow(
    /after the service list/,
  );
});
