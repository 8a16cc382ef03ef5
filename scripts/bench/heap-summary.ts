// What a heap snapshot holds, by kind, and what grew between two (bench --profile): which objects each parked
// workflow adds. `npx tsx scripts/bench/heap-summary.ts before.heapsnapshot after.heapsnapshot [per] [top]`
// (`per`: divide the growth by this many workflows).
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export function summarize(file: string): Map<string, { count: number; bytes: number }> {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const groups = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + typeAt]!]!;
    const name = heap.strings[heap.nodes[i + nameAt]!]!;
    // strings are named by their content, code by its function: group those by type alone
    const key = type === 'object' || type === 'closure' ? `${type} ${name.slice(0, 60)}` : `(${type})`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += heap.nodes[i + sizeAt]!;
    groups.set(key, group);
  }
  return groups;
}

function main(): void {
  const [before, after, perArg, topArg] = process.argv.slice(2);
  if (!before || !after)
    throw new Error('usage: heap-summary.ts before.heapsnapshot after.heapsnapshot [per] [top]');
  const per = Number(perArg ?? 1);
  const top = Number(topArg ?? 30);
  const a = summarize(before);
  const b = summarize(after);
  const total = (m: Map<string, { bytes: number }>) => [...m.values()].reduce((sum, g) => sum + g.bytes, 0);
  const rows = [...b.entries()].map(([key, g]) => {
    const was = a.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: (g.count - was.count) / per, bytes: (g.bytes - was.bytes) / per };
  });
  rows.sort((x, y) => y.bytes - x.bytes);
  console.log(
    `heap ${Math.round(total(a) / 1024)} KB → ${Math.round(total(b) / 1024)} KB: ${Math.round((total(b) - total(a)) / 1024 / per)} KB per unit (${per} units)`,
  );
  console.log('| what | objects per unit | KB per unit |\n|---|---|---|');
  for (const row of rows.slice(0, top))
    console.log(
      `| ${row.key.replace(/\|/g, '\\|')} | ${row.count.toFixed(1)} | ${(row.bytes / 1024).toFixed(1)} |`,
    );
}

if (require.main === module) main();
