// The names each public entry point exports (scripts/api/entries.ts), counted the same way every time: the
// TypeScript checker's exports of the entry module, values and types alike. The figures of CHANGELOG.md come from
// it (`npx tsx scripts/api/count-exports.ts`; `--names` lists them).
import * as path from 'node:path';
import ts from 'typescript';
import { API_ENTRIES, type ApiEntryName } from './entries';

export function exportedNames(root: string): Record<ApiEntryName, string[]> {
  const files = API_ENTRIES.map((entry) => path.join(root, entry.source));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    strict: true,
    esModuleInterop: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const out = {} as Record<ApiEntryName, string[]>;
  for (const entry of API_ENTRIES) {
    const source = program.getSourceFile(path.join(root, entry.source));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`no module symbol for ${entry.source}`);
    out[entry.name] = checker
      .getExportsOfModule(symbol)
      .map((s) => s.name)
      .sort();
  }
  return out;
}

if (require.main === module) {
  const names = exportedNames(path.resolve(__dirname, '../..'));
  for (const [entry, list] of Object.entries(names)) {
    console.log(`${entry}: ${list.length}`);
    if (process.argv.includes('--names')) for (const name of list) console.log(`  ${name}`);
  }
}
