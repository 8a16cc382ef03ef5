// A PINNED workflow (workflows/versioning.ts) has no patched() branches: a run stays on the build that started it,
// so a change to its commands ships as a new build and its older histories move to test/replay/archive/<build>/
// (docs/deployment.md, "Replay histories per build"). A patch read on a PINNED path, in its own folder or in a
// shared module it imports (follow-entity.ts, indexing.ts …), would be a second versioning scheme nobody retires.
// This walks each PINNED workflow's value imports inside workflows/ and refuses any patched()/deprecatePatch().
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKFLOW_VERSIONING_BEHAVIORS } from '../../workflows/versioning';

const WORKFLOWS_DIR = path.resolve(__dirname, '../../workflows');

/** `onboardCustomer` → `onboard-customer`: the folder of a workflow type (the WORKFLOW SHAPE: one folder each). */
const folderOf = (type: string): string => type.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const withoutComments = (source: string): string =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Relative imports that load code at run time (`import type` / `export type` load nothing). */
function valueImports(file: string, source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    if (!match[2]) specifiers.push(match[4]!);
  }
  for (const match of source.matchAll(/^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) specifiers.push(match[1]!);
  return specifiers.map((spec) => {
    const base = path.resolve(path.dirname(file), spec);
    const candidates = [`${base}.ts`, path.join(base, 'index.ts'), base];
    const found = candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
    if (!found) throw new Error(`${path.relative(WORKFLOWS_DIR, file)}: cannot resolve ${spec}`);
    return found;
  });
}

/** Every workflow module a workflow's code can run, from its workflow.ts. */
function reachableFrom(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !file.startsWith(WORKFLOWS_DIR)) continue;
    seen.add(file);
    queue.push(...valueImports(file, withoutComments(readFileSync(file, 'utf8'))));
  }
  return [...seen].sort();
}

const PATCH_CALL = /\b(patched|deprecatePatch)\s*\(/;
const PATCH_IMPORT =
  /import\s*\{[^}]*\b(patched|deprecatePatch)\b[^}]*\}\s*from\s*['"]@temporalio\/workflow['"]/;

const pinned = Object.entries(WORKFLOW_VERSIONING_BEHAVIORS)
  .filter(([, behavior]) => behavior === 'PINNED')
  .map(([type]) => type)
  .sort();

describe('PINNED workflows read no patches', () => {
  it('covers the four PINNED workflows', () => {
    expect(pinned).toEqual(['onboardCustomer', 'payment', 'registerAccount', 'transfer']);
  });

  it.each(pinned)('%s: no module it runs calls patched() or deprecatePatch()', (type) => {
    const entry = path.join(WORKFLOWS_DIR, folderOf(type), 'workflow.ts');
    expect(existsSync(entry)).toBe(true);
    const modules = reachableFrom(entry);
    // the walk really follows imports (the folder's steps and the shared modules), not just the entry
    expect(modules.length).toBeGreaterThan(3);
    const offenders = modules
      .filter((file) => {
        const code = withoutComments(readFileSync(file, 'utf8'));
        return PATCH_CALL.test(code) || PATCH_IMPORT.test(code);
      })
      .map((file) => path.relative(WORKFLOWS_DIR, file));
    expect(offenders).toEqual([]);
  });

  it('would see a patch in a shared module (the check is not blind)', () => {
    const code = withoutComments(
      "import { patched, log } from '@temporalio/workflow';\nif (patched('x')) log.info('y');\n",
    );
    expect(PATCH_CALL.test(code) && PATCH_IMPORT.test(code)).toBe(true);
    expect(PATCH_CALL.test(withoutComments('// only patched() in a comment\n'))).toBe(false);
  });
});
