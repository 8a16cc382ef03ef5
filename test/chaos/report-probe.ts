// park-10k's report probe: `xborder report` run as an operator runs it (a child process of the CLI, from the
// sources through tsx) against the scenario's stack — the cluster's frontend and namespace, the sandbox as the
// service — timed, with its peak RSS from `/usr/bin/time` (%M, the child's maximum resident set; else from
// /proc/<pid>/status VmHWM sampled while it runs). The report's own figures come from the report.json it writes.
// Measures the report at scale on PostgreSQL's visibility store (docs/performance.md, "Reconciliation report on
// PostgreSQL"); checks nothing itself: the scenario logs what it read.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface ReportProbeTarget {
  temporalAddress: string;
  namespace: string;
  providerUrl: string;
  apiKey: string;
  /** where each probe's folder (report files, stdout/stderr) goes */
  outDir: string;
}

export interface ReportProbeResult {
  label: string;
  exitCode: number | null;
  wallSeconds: number;
  peakRssMb: number;
  /** how the peak was measured */
  peakFrom: '/usr/bin/time' | 'VmHWM sampled';
  counts?: { payments: number; matched: number; mismatched: number; inFlight: number; open: number };
  /** mismatches by kind */
  kinds?: Record<string, number>;
  out: string;
}

const REPO = path.resolve(__dirname, '..', '..');
const TIME = '/usr/bin/time';

function vmHwmMb(pid: number): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** One `xborder report --from <from> --to <to>` over the window, timed; never throws (a failure is its exit code). */
export async function runReportProbe(
  target: ReportProbeTarget,
  label: string,
  window: { from: Date; to: Date },
): Promise<ReportProbeResult> {
  const out = path.join(target.outDir, label);
  mkdirSync(out, { recursive: true });
  const timed = existsSync(TIME);
  const timeFile = path.join(out, 'time.txt');
  const cli = [
    process.execPath,
    path.join(REPO, 'bin', 'xborder.js'),
    'report',
    '--from',
    window.from.toISOString(),
    '--to',
    window.to.toISOString(),
    '--out',
    out,
    '--address',
    target.temporalAddress,
    '--namespace',
    target.namespace,
  ];
  const [command, ...args] = timed ? [TIME, '-f', '%e %M', '-o', timeFile, ...cli] : cli;
  const began = Date.now();
  const child = spawn(command!, args, {
    cwd: REPO,
    env: {
      ...process.env,
      // the command's own Node options (e.g. --max-old-space-size=48: what the report keeps, without the collector's
      // slack; docs/performance.md, "Reconciliation report"), apart from the scenario's, whose workers it would cap
      ...(process.env.XBORDER_REPORT_PROBE_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.XBORDER_REPORT_PROBE_NODE_OPTIONS }
        : {}),
      XBORDER_PROVIDER_URL: target.providerUrl,
      XBORDER_PROVIDER_API_KEY: target.apiKey,
      XBORDER_PROVIDER_ALLOW_HTTP: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  let sampled = 0;
  // Without /usr/bin/time the child is node itself: its VmHWM, read until it exits (misses at most the last 250 ms).
  const sampler = timed
    ? undefined
    : setInterval(() => (sampled = Math.max(sampled, vmHwmMb(child.pid ?? 0))), 250);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on('close', (code) => resolve(code));
    child.on('error', () => resolve(null));
  });
  if (sampler) clearInterval(sampler);
  const wallMs = Date.now() - began;
  const result: ReportProbeResult = {
    label,
    exitCode,
    wallSeconds: wallMs / 1000,
    peakRssMb: sampled,
    peakFrom: timed ? '/usr/bin/time' : 'VmHWM sampled',
    out,
  };
  writeFileSync(path.join(out, 'stdout.txt'), stdout);
  writeFileSync(path.join(out, 'stderr.txt'), stderr);
  if (timed) {
    // `%e %M`: elapsed seconds and the maximum resident set in KB (the last line: time prints the exit status first)
    const last = readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
    const [elapsed, maxKb] = last.split(' ').map(Number);
    if (Number.isFinite(maxKb)) result.peakRssMb = maxKb! / 1024;
    if (Number.isFinite(elapsed)) result.wallSeconds = elapsed!;
  }
  try {
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      counts: NonNullable<ReportProbeResult['counts']>;
      mismatches: { kind: string }[];
    };
    result.counts = report.counts;
    result.kinds = {};
    for (const m of report.mismatches) result.kinds[m.kind] = (result.kinds[m.kind] ?? 0) + 1;
  } catch {
    // no report.json: the exit code and stderr.txt say why
  }
  return result;
}

export function probeLine(r: ReportProbeResult): string {
  const counts = r.counts
    ? `${r.counts.payments} payments, ${r.counts.matched} matched, ${r.counts.open} open, ${r.counts.inFlight} in flight, ${r.counts.mismatched} mismatched ${JSON.stringify(r.kinds)}`
    : 'no report.json';
  return `report probe [${r.label}]: exit ${r.exitCode}, ${r.wallSeconds.toFixed(1)} s wall, peak RSS ${r.peakRssMb.toFixed(0)} MB (${r.peakFrom}); ${counts}; ${r.out}`;
}
