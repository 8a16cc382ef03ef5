// `npm run lint:api`: the public surface of xborder/client, /contract and /nexus against the committed reports
// (api/xborder-<entry>.api.md). Emits the entries' declarations (tsconfig.api.json → dist/api-dts), then runs
// api-extractor on each; fails when a report would change (the surface changed: run `npm run lint:api -- --update`
// and commit the report with the change) or when an exported name has no TSDoc comment.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';
import { API_ENTRIES } from './entries';
import { undocumentedExports } from './undocumented';

const ROOT = path.resolve(__dirname, '../..');

function emitDeclarations(): void {
  rmSync(path.join(ROOT, 'dist/api-dts'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.api.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

/** Runs api-extractor on one entry; returns its problems (empty: the report matches and every name is documented). */
function checkEntry(
  name: string,
  config: ExtractorConfig,
  compilerState: CompilerState,
  update: boolean,
): string[] {
  const result = Extractor.invoke(config, {
    compilerState,
    localBuild: update, // a local build rewrites the committed report; otherwise a difference is a failure
    messageCallback: (message) => {
      if (message.logLevel === ExtractorLogLevel.Verbose || message.logLevel === ExtractorLogLevel.Info)
        message.handled = true;
    },
  });
  const problems: string[] = [];
  if (result.apiReportChanged && !update)
    problems.push(
      `${name}: the public surface changed; run \`npm run lint:api -- --update\` and commit api/xborder-${name}.api.md`,
    );
  if (result.errorCount > 0 && !(result.apiReportChanged && result.errorCount === 1))
    problems.push(`${name}: api-extractor reported ${result.errorCount} error(s) (above)`);
  // the report of the code as it is (the committed one differs when the surface changed)
  const report = readFileSync(config.reportTempFilePath, 'utf8');
  for (const undocumented of undocumentedExports(report))
    problems.push(`${name}: ${undocumented} is exported without a TSDoc comment`);
  return problems;
}

function main(): void {
  const update = process.argv.includes('--update');
  if (!process.argv.includes('--reuse-declarations')) emitDeclarations(); // --reuse-declarations: dist/api-dts as it is
  const configs = API_ENTRIES.map((entry) =>
    ExtractorConfig.loadFileAndPrepare(path.join(ROOT, `api/${entry.name}.api-extractor.json`)),
  );
  // one compilation of the declarations for the three entries (each alone would compile them again)
  const compilerState = CompilerState.create(configs[0]!, {
    additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
  });
  const problems = API_ENTRIES.flatMap((entry, i) =>
    checkEntry(entry.name, configs[i]!, compilerState, update),
  );
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log(`api: ${API_ENTRIES.map((e) => e.name).join(', ')} match their reports`);
}

main();
