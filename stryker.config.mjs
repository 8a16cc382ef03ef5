// Mutation run over the pure decision modules with their fast tests: `npm run mutation`.
// The modules decide what a payment knows and tells (snapshot freshness, phase, outcome, push confirmation); their
// tests must fail when any of their conditions changes. Scores and the equivalent mutants left: docs/simulation-and-mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  // Only the unit tests of these modules, without the Temporal runtime or global setup (jest.mutation.config.js).
  jest: { projectType: 'custom', configFile: 'jest.mutation.config.js', enableFindRelatedTests: false },
  mutate: [
    'workflows/payment-rules.ts',
    'workflows/payment-merge.ts',
    'workflows/provider-payment/push-confirmation.ts',
    'workflows/provider-payment/knowledge.ts',
    'workflows/provider-payment/sweep-decision.ts',
    'workflows/payment/resolve-rules.ts',
  ],
  coverageAnalysis: 'perTest',
  // 2 shared cores: one test process is enough for a run of about a minute.
  concurrency: 1,
  // The sandbox needs only the code and the tests (node_modules is linked, not copied).
  ignorePatterns: [
    '/*',
    '!/src',
    '!/workflows',
    '!/test',
    '!/docs',
    '!/package.json',
    '!/tsconfig.json',
    '!/jest.mutation.config.js',
    '!/activities',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  thresholds: { high: 95, low: 90, break: 90 },
};
