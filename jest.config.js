/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60_000,
  // Dev servers and workers are stopped in afterAll; this only guards against a stray handle.
  forceExit: true,
};
