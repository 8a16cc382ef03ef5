// Where the report's join keeps its partitions (activities/report-spill.ts): private files, read back as written,
// removed at the end of a report whether it ends well, fails, or is stopped with Ctrl-C.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readReconciliationReport } from '../../../activities/report-reader';
import { createReportSpillStore, type ReportSpillStore } from '../../../activities/report-spill';
import { writeReportFolder } from '../../../activities/report-writer';
import {
  fakePayment,
  fakePaymentWorkflow,
  pagedServiceList,
  pagedVisibility,
  type PagedCounters,
} from '../../support/report-fakes';

const window = { from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z' };
const now = new Date('2026-11-21T01:00:00.000Z');
const REPO = path.resolve(__dirname, '..', '..', '..');

it('keeps lines in memory up to its budget, then in files 0600 of a directory 0700, read back as written', () => {
  const store = createReportSpillStore({ spillAfterLines: 3 });
  // longer than a read (16 KiB), with characters of several bytes across the reads' edges
  const long = `["é€😀",${'"x€",'.repeat(6_000)}0]`;
  try {
    store.append('a', 'one');
    store.append('b', long);
    store.append('a', 'two');
    expect(store.dir).toBeNull();
    store.append('a', 'three');
    const dir = store.dir!;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    store.append('b', 'after');
    expect([...store.lines('a')]).toEqual(['one', 'two', 'three']);
    expect([...store.lines('b')]).toEqual([long, 'after']);
    expect([...store.lines('never-written')]).toEqual([]);
    for (const name of readdirSync(dir)) expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    store.drop('a');
    expect(readdirSync(dir)).toEqual(['b']);
  } finally {
    const dir = store.dir;
    store.dispose();
    if (dir) expect(existsSync(dir)).toBe(false);
  }
});

function fakes(count: number, counters: PagedCounters, failAt?: number) {
  const start = (i: number) => new Date(Date.parse(window.from) + i * 3_000);
  return {
    client: pagedVisibility(
      {
        payment: {
          count,
          make: (i) =>
            fakePaymentWorkflow(`k${i}`, `pay_${i % 9_000}`, {
              startTime: start(i),
              ...(i % 97 === 1 ? { sourceAmount: 100.2 } : {}),
            }),
        },
      },
      counters,
    ),
    listPayments: pagedServiceList(
      count + 50,
      (i) => {
        if (failAt !== undefined && i === failAt) throw new Error('the service went away');
        return fakePayment(`pay_${i}`, {
          createdAt: start(i).toISOString(),
          ...(i % 89 === 3 ? { status: 'REFUNDED' } : {}),
        });
      },
      counters,
    ),
  };
}

it('writes the same files whether the join stays in memory or spills, over 12,000 payments through the reader', async () => {
  const counters: PagedCounters = { visibilityPages: 0, servicePages: 0, largestPage: 0 };
  const root = mkdtempSync(path.join(os.tmpdir(), 'xborder-report-spill-test-'));
  const stores: ReportSpillStore[] = [];
  const folder = async (name: string, spillAfterLines: number) => {
    const out = path.join(root, name);
    await writeReportFolder(out, (onRow) =>
      readReconciliationReport(
        {
          ...fakes(12_000, counters),
          onRow,
          spill: () => {
            const s = createReportSpillStore({ spillAfterLines });
            stores.push(s);
            return s;
          },
        },
        window,
        now,
      ),
    );
    return Object.fromEntries(
      ['payments.csv', 'totals.csv', 'report.json', 'report.html'].map((f) => [
        f,
        readFileSync(path.join(out, f), 'utf8'),
      ]),
    );
  };
  const kept = await folder('memory', Number.POSITIVE_INFINITY);
  const spilled = await folder('disk', 500);
  expect(spilled).toEqual(kept);
  expect(kept['payments.csv']!.split('\r\n').length).toBeGreaterThan(12_000);
  expect(stores.map((s) => s.dir)).toEqual([null, null]); // disposed: no directory left
  rmSync(root, { recursive: true, force: true });
});

it('removes its directory when the report fails half way (the service list breaks)', async () => {
  const counters: PagedCounters = { visibilityPages: 0, servicePages: 0, largestPage: 0 };
  let dir: string | null = null;
  let store: ReportSpillStore | undefined;
  await expect(
    readReconciliationReport(
      {
        ...fakes(3_000, counters, 2_000),
        spill: () => (store = createReportSpillStore({ spillAfterLines: 100 })),
        progress: () => (dir ??= store?.dir ?? null),
      },
      window,
      now,
    ),
  ).rejects.toThrow('the service went away');
  expect(dir).not.toBeNull();
  expect(existsSync(dir!)).toBe(false);
});

it('removes its directory on Ctrl-C (SIGINT) when asked (the CLI), and still ends as SIGINT ends a process', async () => {
  const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'xborder-report-spill-sigint-')), 'hold.ts');
  writeFileSync(
    script,
    `import { createReportSpillStore } from ${JSON.stringify(path.join(REPO, 'activities', 'report-spill'))};
const store = createReportSpillStore({ spillAfterLines: 0, removeOnSignal: true });
store.append('p', 'a line');
console.log(store.dir);
setInterval(() => undefined, 1_000);
`,
  );
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const dir = await new Promise<string>((resolve) =>
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())),
  );
  expect(existsSync(dir)).toBe(true);
  const ended = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_code, signal) => resolve(signal)),
  );
  child.kill('SIGINT');
  expect(await ended).toBe('SIGINT');
  expect(existsSync(dir)).toBe(false);
  rmSync(path.dirname(script), { recursive: true, force: true });
}, 30_000);

it("leaves the directory on SIGTERM to a worker's shutdown (workers/main.ts, process.once): its report ends first", () => {
  const worker = () => undefined;
  // once: gone from the listeners by the time any other runs (a count of listeners cannot tell a worker is there)
  process.once('SIGTERM', worker);
  const store = createReportSpillStore({ spillAfterLines: 0 });
  try {
    store.append('p', 'a line');
    process.emit('SIGTERM', 'SIGTERM');
    expect(existsSync(store.dir!)).toBe(true);
    expect([...store.lines('p')]).toEqual(['a line']);
  } finally {
    process.off('SIGTERM', worker);
    const dir = store.dir!;
    store.dispose();
    expect(existsSync(dir)).toBe(false);
  }
});

it('refuses to read as empty a partition file removed under it', () => {
  const store = createReportSpillStore({ spillAfterLines: 0 });
  try {
    store.append('p', 'a line');
    rmSync(path.join(store.dir!, 'p'));
    expect(() => [...store.lines('p')]).toThrow(/ENOENT/);
  } finally {
    store.dispose();
  }
});

it('removes directories left by a report that was killed (older than any report runs), never a recent one', () => {
  // kill -9 or an OOM kill runs no exit hook: on a worker's /tmp (an emptyDir that outlives a container restart) the
  // folders of payment keys and amounts would pile up until a report fails for lack of space
  const root = mkdtempSync(path.join(os.tmpdir(), 'xb-spill-stale-'));
  try {
    const stale = mkdtempSync(path.join(root, 'xborder-report-'));
    writeFileSync(path.join(stale, 'p0'), 'a payment key\n');
    const old = new Date(Date.now() - 7 * 60 * 60 * 1000);
    utimesSync(stale, old, old);
    const recent = mkdtempSync(path.join(root, 'xborder-report-'));
    const other = mkdtempSync(path.join(root, 'not-ours-'));
    utimesSync(other, old, old);
    const store = createReportSpillStore({ spillAfterLines: 1, tmpRoot: root });
    store.append('a', 'one');
    store.append('a', 'two');
    expect(store.dir).not.toBeNull();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(other)).toBe(true);
    store.dispose();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
