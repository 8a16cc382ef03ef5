// No function over 100 lines anywhere in the product: the rule test/unit/workflow-functions-stay-short.test.ts holds
// for workflows/, held the same way (TypeScript's parser, every function, method and arrow with a body, counted
// from its first line to its last, comments and blank lines included) over every folder the package ships.
// scripts/ is not product: the bench, chaos and measuring harnesses are not in the package's files nor an image.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const PRODUCT_DIRS = ['src', 'activities', 'workers', 'workflows'];
const MAX_LINES = 100;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

interface FunctionLength {
  file: string;
  where: string;
  lines: number;
}

function functionLengths(file: string): FunctionLength[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const relative = path.relative(ROOT, file).split(path.sep).join('/');
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file: relative, where: `${relative}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('functions in the product (src/, activities/, workers/, workflows/)', () => {
  const all = PRODUCT_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).flatMap(functionLengths);
  const tooLong = all.filter((f) => f.lines > MAX_LINES);

  it('are measured (the walk finds functions in every product folder)', () => {
    for (const dir of PRODUCT_DIRS) {
      expect(all.filter((f) => f.file.startsWith(`${dir}/`)).length).toBeGreaterThan(10);
    }
  });

  it(`are at most ${MAX_LINES} lines each`, () => {
    expect(tooLong.map((f) => `${f.where} (${f.lines} lines)`)).toEqual([]);
  });
});
