// Where a CPU profile's time went (bench --profile): self time by function and by package or folder.
// `npx tsx scripts/bench/cpu-summary.ts burst.cpuprofile [top]`
import { readFileSync } from 'node:fs';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package>, a folder of ours, the workflow bundle, or the kind of frame. */
function areaOf(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'native'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.includes('workflow-bundle'))
    return 'workflow bundle (zod, contract, workflows, SDK workflow runtime)';
  const ours = /wt-[^/]+\/([^/]+\/[^/]+)/.exec(url) ?? /xborder[^/]*\/([^/]+\/[^/]+)/.exec(url);
  if (ours) return ours[1]!;
  if (url.startsWith('node:')) return 'node internals';
  return url.slice(-60);
}

function main(): void {
  const [file, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-summary.ts profile.cpuprofile [top]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const frame = byId.get(id)!.callFrame;
    total += us;
    const fn = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const area = areaOf(frame.url, frame.functionName);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  });
  const top = Number(topArg ?? 20);
  const print = (title: string, m: Map<string, number>) => {
    console.log(`\n| ${title} | ms | % |\n|---|---|---|`);
    for (const [k, us] of [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(
        `| ${k.replace(/\|/g, '\\|')} | ${(us / 1000).toFixed(0)} | ${((us / total) * 100).toFixed(1)} |`,
      );
  };
  console.log(`profile: ${(total / 1000).toFixed(0)} ms sampled`);
  print('area (self time)', byArea);
  print('function (self time)', byFunction);
}

if (require.main === module) main();
