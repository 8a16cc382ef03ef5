// The bench's table: printed, and written as JSON and markdown under bench-results/ (git-ignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Row } from './context';
import type { BenchOptions } from './options';

export interface Machine {
  date: string;
  node: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  loadAverageAtStart: number[];
  loadAverageAtEnd?: number[];
}

export function describeMachine(): Machine {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadAverageAtStart: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
}

const format = (value: number | null, unit: string): string => {
  if (value === null || Number.isNaN(value)) return '—';
  const digits = Math.abs(value) >= 100 || unit === '' ? 0 : 1;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })}${unit ? ` ${unit}` : ''}`;
};

export function ratioOf(row: Row): number | null {
  if (row.value === null || row.baseline === null || row.baseline === 0 || !row.ratioLabel) return null;
  return row.value / row.baseline;
}

export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| | figure | xborder | baseline | ratio |', '|---|---|---|---|---|'];
  for (const row of rows) {
    const ratio = ratioOf(row);
    lines.push(
      `| ${row.scenario} | ${row.figure} | ${format(row.value, row.unit)} | ${format(row.baseline, row.unit)} | ${ratio === null ? '' : `${ratio.toFixed(2)} (${row.ratioLabel})`} |`,
    );
  }
  return lines.join('\n');
}

/** `actions`: the markdown table of scenarios/actions.ts, when it ran. */
export function writeResults(
  dir: string,
  result: {
    machine: Machine;
    options: BenchOptions;
    rows: Row[];
    notes: string[];
    failed: string[];
    actions?: string | undefined;
  },
): { json: string; markdown: string } {
  mkdirSync(dir, { recursive: true });
  const stamp = result.machine.date.replace(/[:.]/g, '-');
  const md = [
    `# xborder bench ${result.machine.date}${result.options.quick ? ' (--quick)' : ''}`,
    '',
    `Machine: ${result.machine.cpus} × ${result.machine.cpuModel}, ${result.machine.memoryGb} GB, Node ${result.machine.node}; load average ${result.machine.loadAverageAtStart.join(' / ')} at start, ${result.machine.loadAverageAtEnd?.join(' / ') ?? '?'} at the end.`,
    '',
    markdownTable(result.rows),
    '',
    ...(result.actions
      ? ['Temporal actions per payment (billed; in brackets: listed, not billed)', '', result.actions, '']
      : []),
    ...result.notes.map((n) => `- ${n}`),
    ...result.failed.map((f) => `- FAILED: ${f}`),
    '',
    `Options: \`${JSON.stringify(result.options)}\``,
    '',
  ].join('\n');
  const json = path.join(dir, `bench-${stamp}.json`);
  const markdown = path.join(dir, `bench-${stamp}.md`);
  const body = JSON.stringify(
    { ...result, rows: result.rows.map((r) => ({ ...r, ratio: ratioOf(r) })) },
    null,
    2,
  );
  writeFileSync(json, body);
  writeFileSync(markdown, md);
  writeFileSync(path.join(dir, 'latest.json'), body);
  writeFileSync(path.join(dir, 'latest.md'), md);
  return { json, markdown };
}
