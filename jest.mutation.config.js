/**
 * The fast tests of the pure decision modules, alone, for the mutation run (stryker.config.json): no global
 * setup, no Temporal runtime, no codec keys — these tests need none of them, and each mutant reruns them.
 * The same files also run in their usual tiers (jest.config.js).
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  roots: ['<rootDir>/test'],
  testMatch: [
    '<rootDir>/test/unit/workflows/payment-rules.test.ts',
    '<rootDir>/test/unit/workflows/push-confirmation.test.ts',
    '<rootDir>/test/unit/workflows/decisions/**/*.test.ts',
    '<rootDir>/test/unit/workflows/resolve-rules.test.ts',
  ],
};
