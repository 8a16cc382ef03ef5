// The inner loop (`npm run test:fast`: the unit and workflows projects) starts no Temporal dev server: a dev
// server costs seconds of CPU to start on 2 cores, and the loop is meant to stay within a few minutes. A test that
// needs one is the e2e tier's (named `*.e2e.test.ts`, run by `npm test` and CI), as jest.config.js says.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** What starts a dev server from a test: the test helper, the SDK's local environment, the CLI's subcommand. */
const DEV_SERVER_STARTERS = [
  /\bcreateDevServerEnv\b/,
  /\bTestWorkflowEnvironment\.createLocal\b/,
  /['"]start-dev['"]/,
];

test('no test file of the unit or workflows project starts a Temporal dev server', () => {
  const listed = execFileSync(
    process.execPath,
    [require.resolve('jest/bin/jest'), '--selectProjects', 'unit', 'workflows', '--listTests', '--json'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const files = JSON.parse(listed) as string[];
  expect(files.length).toBeGreaterThan(50);
  const starting = files
    .filter((file) => DEV_SERVER_STARTERS.some((starter) => starter.test(readFileSync(file, 'utf8'))))
    .map((file) => path.relative(ROOT, file));
  expect(starting).toEqual([]);
});
