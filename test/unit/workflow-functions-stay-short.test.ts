// Each workflow reads as state, handlers and steps (workflows/README.md): a function in workflows/ that grows past
// 100 lines is a workflow or handler turning back into one long body, where the money defects of the old
// 836-line payment() hid. This measures every function, method and arrow with a body, with TypeScript's parser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const WORKFLOWS_DIR = path.resolve(__dirname, '../../workflows');
const MAX_LINES = 100;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface FunctionLength {
  where: string;
  lines: number;
}

function functionLengths(file: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${path.relative(WORKFLOWS_DIR, file)}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('functions in workflows/', () => {
  const all = sourceFiles(WORKFLOWS_DIR).flatMap(functionLengths);

  it('are measured (the walk finds the workflow functions)', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((f) => f.where.startsWith(`payment${path.sep}workflow.ts`))).toBe(true);
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    expect(all.filter((f) => f.lines > MAX_LINES)).toEqual([]);
  });
});
