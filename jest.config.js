/**
 * Jest projects by tier. `npm test` (the README's and CI's command) runs every project; `npm run test:fast` runs
 * the inner loop (unit + workflows, in parallel) in a few minutes on 2 cores.
 * - unit: pure code and in-process servers (contract, provider against the in-process sandbox, codec, ingress
 *   handler, telemetry, CLI argument parsing, lint rules);
 * - workflows: workflow code on the time-skipping test server, and replay of recorded histories;
 * - e2e: anything that needs a Temporal dev server (named `*.e2e.test.ts`): the real stack (dev server +
 *   sandbox + worker + ingress), the CLI, the UI in Chromium, Schedules, visibility queries, the namespace job.
 *   The inner loop (unit + workflows) starts no dev server: test/unit/fast-tiers-start-no-dev-server.test.ts;
 * - slow: Temporal on PostgreSQL (cluster, chaos), the packed package, the bench, the Lambda build, the lint
 *   rules' own test.
 * @type {import('jest').Config}
 */
const shared = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  roots: ['<rootDir>/test'],
};

/** Files of the real stack that live beside pure tests of the same area. */
const e2eFiles = [
  '<rootDir>/test/**/*.e2e.test.ts',
  '<rootDir>/test/e2e/**/*.test.ts',
  '<rootDir>/test/ui/**/*.test.ts',
  '<rootDir>/test/foundation/dev-server.test.ts',
  '<rootDir>/test/lambda/worker-lambda.test.ts',
  '<rootDir>/test/workflows/schedules/schedule-board.test.ts',
];
const slowFiles = [
  '<rootDir>/test/cluster/**/*.test.ts',
  '<rootDir>/test/chaos/**/*.test.ts',
  '<rootDir>/test/package/**/*.test.ts',
  '<rootDir>/test/bench/**/*.test.ts',
  '<rootDir>/test/lambda/build-lambda.test.ts',
  // spawns eslint with type information over the whole program: minutes on a loaded 2-core machine
  '<rootDir>/test/foundation/lint.test.ts',
];
const workflowFiles = ['<rootDir>/test/workflows/**/*.test.ts', '<rootDir>/test/replay/**/*.test.ts'];

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60_000,
  // Dev servers and workers are stopped in afterAll; this only guards against a stray handle.
  forceExit: true,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: [
        '/node_modules/',
        ...[...e2eFiles, ...slowFiles, ...workflowFiles].map(globToRegex),
      ],
    },
    {
      ...shared,
      displayName: 'workflows',
      testMatch: workflowFiles,
      testPathIgnorePatterns: ['/node_modules/', ...e2eFiles.map(globToRegex)],
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: e2eFiles,
      testPathIgnorePatterns: ['/node_modules/', ...slowFiles.map(globToRegex)],
    },
    { ...shared, displayName: 'slow', testMatch: slowFiles },
  ],
};

/** testPathIgnorePatterns take regular expressions; the tiers above are written once, as globs. */
function globToRegex(glob) {
  const body = glob
    .replace('<rootDir>/', '/')
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*\//g, '\u0000')
    .replace(/\*/g, '[^/]*')
    .replace(/\u0000/g, '(?:.*/)?');
  return `${body}$`;
}
